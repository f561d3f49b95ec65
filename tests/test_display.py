"""What a new user saw on the screen, each fixed and held here: the divergence banner belongs to
its run, the same preset resets, one step draws points, the readout never widens the window,
heat maps have a stable scale with a colour bar, messages say what happened, deleting edges and
nodes prints nothing, and the program tab says when no program can be generated."""

import sys

import numpy as np
import pytest
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt

from conftest import wait_nodes_at, wait_state
from reference import grads_for
from gradviz.model.presets import load_preset
from gradviz.ui.document import SessionDocument
from gradviz.ui.graph_view import EdgeItem, GraphScene, GraphView, NodeItem


@pytest.fixture
def quiet(capfd, monkeypatch):
    """Fails the test if anything reaches stderr or sys.excepthook (an exception in a Qt
    callback is printed, not raised)."""
    hooked = []
    monkeypatch.setattr(sys, "excepthook", lambda *exc: hooked.append(exc))
    capfd.readouterr()

    def check() -> None:
        QCoreApplication.processEvents()
        QCoreApplication.processEvents()
        err = capfd.readouterr().err
        assert not hooked, f"exceptions in Qt callbacks: {[repr(e[1]) for e in hooked]}"
        assert err == "", f"printed on stderr:\n{err}"

    return check


def _editor(qtbot):
    doc = SessionDocument(load_preset("tutorial"))
    scene = GraphScene(doc)
    view = GraphView(scene)
    qtbot.addWidget(view)
    view.show()
    return doc, scene, view


def _delete(qtbot, scene, view, items) -> None:
    """Select these items and press Delete in the editor, as a user does; then let every
    deferred call run."""
    scene.clearSelection()
    for it in items:
        it.setSelected(True)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    QCoreApplication.processEvents()
    QCoreApplication.processEvents()


def _edge(scene, dst: str, port: str) -> EdgeItem:
    return next(e for e in scene.edges if (e.dst.name, e.port) == (dst, port))


def test_deleting_edges_and_nodes_in_any_order_prints_nothing(qtbot, quiet):
    doc, scene, view = _editor(qtbot)
    edges = [(e.dst.name, e.port) for e in scene.edges]
    nodes = list(scene.items_by_name)
    assert len(edges) >= 6 and len(nodes) >= 8
    # each edge alone, and each node alone, then undone
    for dst, port in edges:
        _delete(qtbot, scene, view, [_edge(scene, dst, port)])
        assert port not in doc.graph[dst].inputs
        doc.undo()
        assert doc.graph[dst].inputs[port]
    for name in nodes:
        _delete(qtbot, scene, view, [scene.items_by_name[name]])
        assert doc.graph.get(name) is None
        doc.undo()
    # every edge one by one, forwards and backwards, then every node one by one, both ways
    for order in (edges, edges[::-1]):
        for dst, port in order:
            _delete(qtbot, scene, view, [_edge(scene, dst, port)])
        assert scene.edges == []
        for _ in order:
            doc.undo()
        assert len(scene.edges) == len(edges)
    for order in (nodes, nodes[::-1]):
        for name in order:
            _delete(qtbot, scene, view, [scene.items_by_name[name]])
        assert scene.items_by_name == {}
        for _ in order:
            doc.undo()
        assert len(scene.items_by_name) == len(nodes)
    # a node together with its own edges selected, and everything at once
    matmul = scene.items_by_name["matmul"]
    _delete(qtbot, scene, view, [matmul, *[e for e in scene.edges if matmul in (e.src, e.dst)]])
    doc.undo()
    _delete(qtbot, scene, view, [*scene.items_by_name.values(), *scene.edges])
    assert scene.items_by_name == {} and scene.edges == []
    doc.undo()
    assert isinstance(scene.items_by_name["w"], NodeItem)
    quiet()


# -- the window -------------------------------------------------------------------------------------

def test_program_tab_says_why_there_is_no_program_while_the_graph_is_invalid(qtbot, win):
    assert "def function(x, y, w, b):" in win.codeView.toPlainText()
    win.scene.items_by_name["w"].setSelected(True)
    win.inspector.shapeEdit.setText("4, 3")
    qtbot.mouseClick(win.inspector.applyButton, Qt.MouseButton.LeftButton)
    code = win.codeView.toPlainText()
    assert "def function" not in code and "cannot be generated" in code
    assert 'MatMul "matmul": x has shape (5,) but w has shape (4, 3)' in code
    win.undoAction.trigger()
    wait_state(qtbot, win, "ready")
    qtbot.waitUntil(lambda: "def function(x, y, w, b):" in win.codeView.toPlainText(), timeout=10_000)


def _dots(item) -> tuple[list, list]:
    x, y = item.getData()
    return list(x), list(y)


def test_one_step_draws_every_sample_as_a_dot_until_there_are_many(qtbot, win):
    from gradviz.ui.plots import FEW_POINTS

    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    p, h = win.plots, win.controller.history
    p.refresh(force=True)
    loss, grads, _ = grads_for(load_preset("tutorial"))
    assert p.loss_curve.opts["symbol"] == "o"
    x, y = p.loss_curve.scatter.getData()
    assert list(x) == [1] and y[0] == pytest.approx(loss, rel=1e-6)
    for dots, layout, row in ((p.param_dots, h.param_layout, h.params[0]), (p.grad_dots, h.grad_layout, h.grads[0])):
        for d, name in zip(dots, layout.names):
            x, y = _dots(d)
            want = layout.unflatten(row)[name].reshape(-1)
            assert x == [1.0] * want.size
            np.testing.assert_array_equal(y, want)
    gx, gy = _dots(p.grad_dots[h.grad_layout.names.index("b")])
    np.testing.assert_allclose(gy, grads["b"], rtol=1e-5)
    # many steps in view: lines only
    win.controls.maxStepsSpin.setValue(FEW_POINTS + 5)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished")
    p.refresh(force=True)
    assert p.loss_curve.opts["symbol"] is None
    assert all(_dots(d) == ([], []) for d in p.param_dots + p.grad_dots)


def test_the_plot_readout_never_widens_the_window_and_starts_empty_for_a_new_run(qtbot, win):
    p = win.plots
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    before = win.minimumSizeHint().width(), win.width()
    # hovering the gradient plot writes every element's value in the readout
    vb = p.gradPlot.getPlotItem().vb
    p.gradPlot.scene().sigMouseMoved.emit(vb.mapViewToScene(pg.Point(1, 0)))
    qtbot.waitUntil(lambda: p.readout.full_text().startswith("step 1: ‖grad‖="), timeout=5_000)
    long_text = p.readout.full_text() + "  w[0,0]=-0.1234" * 200
    p.readout.setText(long_text)
    QCoreApplication.processEvents()
    assert (win.minimumSizeHint().width(), win.width()) == before
    assert p.readout.text().endswith("…") and p.readout.toolTip() == long_text
    fm = p.readout.fontMetrics()
    assert fm.horizontalAdvance(p.readout.text()) <= p.readout.width()
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    assert p.readout.full_text() == "Hover a plot to read values"
