"""Run > Step through backprop in the window (engine stand-in): the stages in order, the current
one as the graph view's backpropStage, its node selected and its chain rule in numbers in
chainRuleCard, large enough for the back of the room."""

import numpy as np
from PySide6.QtWidgets import QFrame, QLabel

from conftest import wait_state
from gradviz.ui.backprop_steps import EdgeLabel, ElementMark
from test_presentation import _settle, open_on  # noqa: F401 (a fixture)
from test_readable import _digits_px, presenting  # noqa: F401 (a fixture)


def test_stepping_through_backprop_on_the_projector(presenting):  # noqa: F811
    w = presenting  # 1024x768, z returned, one step trained, presentation mode
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


def _click_scene(qtbot, view, scene_pos):
    from PySide6.QtCore import Qt

    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(scene_pos))


def test_a_click_on_a_heat_map_cell_chooses_the_element_and_the_card_covers_no_node(qtbot, open_on):  # noqa: F811
    w = open_on("1280x720", ready=True)
    wait_state(qtbot, w, "ready")
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    _settle(qtbot, w)
    view, bp = w.graphView, w.backprop
    bp.action.trigger()
    while view.property("backpropStage") != "backward:w":
        bp.nextAction.trigger()
    item = w.scene.items_by_name["w"]
    assert item._matrix() and not item.compact()
    # the value's heat map of w (5x3): the cell of row 2, column 1
    r = item.heat_rect(0)
    cell = r.topLeft() + type(r.topLeft())((1 + 0.5) * r.width() / 3, (2 + 0.5) * r.height() / 5)
    _click_scene(qtbot, view, item.mapToScene(cell))
    _settle(qtbot, w)  # the band is refitted to the new card's height
    assert bp.element["w"] == 2 * 3 + 1 and view.property("backpropStage") == "backward:w"
    formula = view.findChild(QFrame, "chainRuleCard").findChild(QLabel, "chainRuleFormula").text()
    # ∂L/∂w[2,1] = x[2] · ∂L/∂z[1] with ∂L/∂z = (σ(z) − y)/3, in float64 from the nodes' numbers
    x = np.asarray(w.scene.items_by_name["x"].value, np.float64)
    y = np.asarray(w.scene.items_by_name["y"].value, np.float64)
    z = np.asarray(w.scene.items_by_name["z"].value, np.float64)
    want = x[2] * (1 / (1 + np.exp(-z[1])) - y[1]) / 3
    assert "w[2,1]" in formula and f"{want:.4g}" in formula
    # the element's cells are framed in both heat maps, and the edge to z carries its derivative
    marks = [m for m in bp._marks if isinstance(m, ElementMark)]
    assert len(marks) == 1 and marks[0].parentItem() is item
    labels = [m for m in bp._marks if isinstance(m, EdgeLabel)]
    assert len(labels) == 1 and labels[0].scene() is w.scene and labels[0].isVisible()  # w feeds z only
    # the card sits in its band above the graph: it covers no node
    card = view.findChild(QFrame, "chainRuleCard")
    vp = view.viewport()
    box = card.geometry().translated(-vp.pos())  # in the viewport's pixels, as the nodes
    for name, node in w.scene.items_by_name.items():
        rect = view.mapFromScene(node.sceneBoundingRect()).boundingRect()
        assert not box.intersects(rect), (name, box, rect)
    # a click outside any cell changes nothing
    _click_scene(qtbot, view, item.mapToScene(item.boundingRect().topLeft() + type(r.topLeft())(4, 4)))
    assert bp.element["w"] == 7 and vp.isVisible()
