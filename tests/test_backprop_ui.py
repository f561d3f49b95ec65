"""Run > Step through backprop in the window (engine stand-in): the stages in order, the current
one as the graph view's backpropStage, its node selected and its chain rule in numbers in
chainRuleCard, large enough for the back of the room."""

import numpy as np
from PySide6.QtWidgets import QFrame, QLabel

from conftest import wait_state
from test_presentation import _settle, open_on  # noqa: F401 (a fixture)
from test_readable import _digits_px


def test_stepping_through_backprop_on_the_projector(qtbot, open_on):  # noqa: F811
    w = open_on("1024x768", ready=True)
    w.document.set_option("aux_output", True)
    wait_state(qtbot, w, "ready")
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    w.set_presentation(True)
    _settle(qtbot, w)
    view, bp = w.graphView, w.backprop
    assert view.property("backpropStage") == ""
    w.findChild(type(bp.action), "backpropAction").trigger()
    assert bp.action.isChecked() and view.property("backpropStage") == "forward:x"
    keys = [view.property("backpropStage")]
    for _ in range(len(bp.stages) + 2):  # past the end it stays on the last
        w.findChild(type(bp.action), "backpropNext").trigger()
        keys.append(view.property("backpropStage"))
    order = [n.name for n in w.document.graph.topo_order() if n.kind != "Output"]
    want = [f"forward:{n}" for n in order] + [f"backward:{n}" for n in reversed(order)]
    assert list(dict.fromkeys(keys)) == want
    while view.property("backpropStage") != "backward:z":
        w.findChild(type(bp.action), "backpropPrevious").trigger()
    z = w.scene.items_by_name["z"]
    assert z.isSelected()
    card = view.findChild(QFrame, "chainRuleCard")
    assert card.isVisible()
    formula = card.findChild(QLabel, "chainRuleFormula")
    # ∂L/∂z[0] = ∂sum(z)/∂z[0] + ∂L/∂loss · ∂loss/∂z[0]: the numbers shown are those on the nodes
    y, zv = np.asarray(w.scene.items_by_name["y"].value, np.float64), np.asarray(z.value, np.float64)
    dz = (1 / (1 + np.exp(-zv[0])) - y[0]) / 3
    assert "∂sum(z)/∂z[0]" in formula.text() and f"{1 + dz:.4g}" in formula.text()
    assert _digits_px(formula.font()) >= 28.0
    vp = view.viewport()
    assert vp.rect().contains(vp.mapFromGlobal(card.mapToGlobal(card.rect().bottomRight())))
    bp.action.trigger()  # off
    assert view.property("backpropStage") == "" and not card.isVisible()


def test_backprop_without_numbers_on_the_nodes_says_why(win):
    win.scene.set_node_data(None, None)
    win.backprop.action.trigger()
    assert not win.backprop.action.isChecked() and win.graphView.property("backpropStage") == ""
    assert "Train a step first" in win.statusBar().currentMessage()
