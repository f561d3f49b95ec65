"""Building the tutorial's graph by hand, as a teacher would: File > New, the palette, wires
dragged from port to port, the Node tab's fields applied with Enter. Numbers are checked
against independent float64 numpy (tests/reference.py)."""

import numpy as np
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget

from gradviz.model.codegen import returned_values
from gradviz.model.session import Options
from reference import replay

from conftest import wait_nodes_at, wait_state

TUTORIAL = [  # (kind, name, shape, init) in the order a teacher adds them
    ("Input", "x", "5", "ones"),
    ("Parameter", "w", "5, 3", "randn"),
    ("Parameter", "b", "3", "randn"),
    ("Input", "y", "3", "zeros"),
    ("MatMul", "matmul", "", ""),
    ("Add", "z", "", ""),
    ("BCEWithLogits", "loss", "", ""),
    ("Output", "out_loss", "", ""),
]
WIRES = [("x", "matmul", "a"), ("w", "matmul", "b"), ("matmul", "z", "a"), ("b", "z", "b")]
WIRES += [("z", "loss", "logits"), ("y", "loss", "target"), ("loss", "out_loss", "x")]


def _type(qtbot, edit, text: str) -> None:
    """Select the field's text, type over it and press Enter, as a person does."""
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def _drag_wire(win, src: str, dst: str, port: str) -> None:
    v, vp, items = win.graphView, win.graphView.viewport(), win.scene.items_by_name
    a = v.mapFromScene(items[src].port_out.scenePos())
    b = v.mapFromScene(items[dst].ports_in[port].scenePos())
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for i in range(1, 6):
        QTest.mouseMove(vp, a + (b - a) * i / 5)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)


def _in_front(win, name: str) -> bool:
    return not win.findChild(QDockWidget, name).visibleRegion().isEmpty()


def test_file_new_then_the_tutorial_built_by_hand_trains_like_the_tutorial(qtbot, win):
    win.files.load_preset("mlp")  # seed 3, Adam, stop-at-loss 0.05, 3000 steps: none of it may leak
    wait_state(qtbot, win, "ready")
    win.findChild(QDockWidget, "inspectorDock").raise_()
    win.newAction.trigger()
    QApplication.processEvents()  # the window lays out the one-line call (the view's size settles)
    doc = win.document
    assert len(doc.graph) == 0 and doc.options == Options(device=doc.options.device, speed=doc.options.speed)
    o = doc.options
    assert (o.seed, o.optimizer, o.lr, o.until_loss, o.steps) == (42, "sgd", 0.01, None, 1000)
    assert win.callView.lines == ["# No program yet: the graph is not finished (see Problems)"]  # not mlp's
    assert "No MindSpore program" in win.codeView.toPlainText()
    assert win.windowTitle() == "GradViz: untitled"

    zooms = [win.graphView.zoom]
    for kind, name, shape, init in TUTORIAL:
        added = win.add_node(kind)
        ins = win.inspector
        assert ins.name == added and _in_front(win, "inspectorDock")
        assert kind != "BCEWithLogits" or added == "loss"  # named as the tutorial's function returns it
        if name != added:
            _type(qtbot, ins.nameEdit, name)
        if name == "w":  # leaving the field applies it, as Enter does
            ins.shapeEdit.setFocus()
            ins.shapeEdit.selectAll()
            qtbot.keyClicks(ins.shapeEdit, shape)
            ins.nameEdit.setFocus()
        elif shape:
            _type(qtbot, ins.shapeEdit, shape)
        if init and ins.initCombo.currentText() != init:
            ins.initCombo.setFocus()
            qtbot.keyClicks(ins.initCombo, init)  # chosen from the keyboard: applies at once, no Apply
        # Enter applied every field, the node is still selected and the Node tab still in front
        n = doc.graph[name]
        assert (n.name, ", ".join(map(str, n.shape)) if n.is_source else "", n.init if n.is_source else "") == (
            name,
            shape,
            init,
        )
        assert win.inspector.name == name and win.scene.items_by_name[name].isSelected()
        assert _in_front(win, "inspectorDock") and not _in_front(win, "problemsDock")
        zooms.append(win.graphView.zoom)
    # new nodes go where there is room in view: they never overlap, and the view refits (shrinking
    # every node) only when the room in view is used up, not at every node
    rects = [i.sceneBoundingRect() for i in win.scene.items_by_name.values()]
    assert all(sum(r.intersects(o) for o in rects) == 1 for r in rects)
    assert len(set(zooms)) <= 3, zooms

    for i, (src, dst, port) in enumerate(WIRES):
        before = win.graphView.zoom
        if i < 2:  # dragged by hand: a refit never moves the ports away from the next drag
            _drag_wire(win, src, dst, port)
            qtbot.waitUntil(lambda d=dst, p=port, s=src: doc.graph[d].inputs.get(p) == s, timeout=5000)
            assert win.graphView.zoom == before
        else:
            doc.connect_ports(src, dst, port)
    assert doc.graph.validate() == []

    # a node out of view in the middle of a drag (moved by undo, say): the view waits for the release
    v, vp = win.graphView, win.graphView.viewport()
    at = v.mapFromScene(win.scene.items_by_name["y"].sceneBoundingRect().center())
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    QTest.mouseMove(vp, at + QPoint(5, 5))
    before, far = v.zoom, doc.graph["out_loss"].pos
    doc.move_nodes({"out_loss": (far[0] + 3000, far[1])})
    assert v.zoom == before
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at + QPoint(5, 5))
    qtbot.waitUntil(lambda: v.zoom < before)
    assert returned_values(doc.graph, doc.options) == ["loss"]  # the tutorial's name, not bcewithlogits
    assert win.callView.lines[0] == "def function(...): return loss"

    wait_state(qtbot, win, "ready")
    win.controls.stepButton.click()
    wait_nodes_at(qtbot, win, 1)
    (_, want, _, _), (_, _, grads, _) = replay(doc.session, 2)  # the nodes show step 2's gradients
    assert np.isclose(want, 1.3423151, atol=1e-6)  # the tutorial's loss, not what mlp's seed gives
    assert np.isclose(win.controller.history.loss[0], want, rtol=1e-5)
    np.testing.assert_allclose(win.controller.nodes.grads["b"], grads["b"], rtol=1e-4, atol=1e-6)


def test_the_node_tab_starts_at_the_top_for_another_node(qtbot, win):
    dock = win.findChild(QDockWidget, "inspectorDock")
    dock.raise_()
    win.resizeDocks([dock], [140], Qt.Orientation.Vertical)  # short: the Node tab scrolls
    bar = dock.widget().verticalScrollBar()
    win.scene.items_by_name["w"].setSelected(True)
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    win.scene.clearSelection()
    win.scene.items_by_name["b"].setSelected(True)
    assert win.inspector.name == "b" and bar.value() == 0


def test_file_new_while_training_pauses_the_run_and_shows_none_of_it(qtbot, win):
    """File > New in the middle of a run: the old run stops training (it went on in the engine
    behind an empty graph), and nothing of it stays shown: no curves, no plot keys, no heat maps,
    no History steps, no nodes; the preset box names no preset. The graph built next trains from
    its own step 1."""
    win.controls.speedSpin.setValue(50)
    win.controls.startButton.click()
    qtbot.waitUntil(lambda: win.controller.step_count >= 5, timeout=30_000)
    win.newAction.trigger()
    wait_state(qtbot, win, "ready")  # paused, then dropped: nothing trained, nothing to go on from
    c, p = win.controller, win.plots
    assert c.history is None and p.history is None and not p.param_curves and not p.heat_titles
    assert not p.paramPlot.gv_key and not p.gradPlot.gv_key  # the titles name no tensor
    assert win.timeTravel.bar.stepShown.text() == "no steps yet"
    assert win.stepLabel.text() == "no steps yet" and win.controls.presetCombo.currentIndex() == -1
    assert win.controls.presetCombo.shown_text() == "—"  # no preset named
    assert win.stateLabel.text() == "ready"  # not the dropped run's "paused" or "finished"
    assert not win.controls.startButton.isEnabled()
