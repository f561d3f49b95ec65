"""What a new user sees on the screen: the divergence banner belongs to
its run, the same preset resets, one step draws points, the readout never widens the window,
heat maps have a stable scale with a colour bar, messages say what happened, deleting edges and
nodes prints nothing, and the program tab says when no program can be generated."""

import re
import sys

import numpy as np
import pytest
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor

from conftest import wait_nodes_at, wait_state
from reference import grads_for, replay
from gradviz.model.presets import load_preset
from gradviz.model.runstate import Event
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


@pytest.mark.real_engine
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


def test_the_plots_keys_are_over_the_lines_not_on_them(qtbot, win):
    """The parameters' and gradients' legends sat inside plots about 100 px high, over the curves
    they named (1280x720). Their key is in the title row now: each tensor's mark in the colour of
    its lines, the gradient norm dashed, and what each tensor's lines are in the tooltip."""
    from gradviz.ui import theme

    win.resize(1280, 720)
    win.show()
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    p = win.plots
    p.refresh(force=True)
    qtbot.wait(0)
    for plot, curves, names in (
        (win.paramPlot, p.param_curves, ["w", "b"]),
        (win.gradPlot, p.grad_curves, ["w", "b", "‖grad‖"]),
    ):
        item = plot.getPlotItem()
        assert item.legend is None
        # each entry: a mark in its colour (solid, or dashed for the norm), then the name
        key = re.findall(r"color:(#[0-9a-f]{6})'>([━┅])</span>&nbsp;<span[^>]*>([^<]*)</span>", item.titleLabel.text)
        want = [(c.opts["pen"].color().name(), "━", n) for (c, _o, _s), n in zip(curves, names)]
        if "‖grad‖" in names:
            want.append((QColor(theme.NORM_COLOR).name(), "┅", "‖grad‖"))
        assert key == want
        # the title row, key included, is above the lines
        title_box = item.titleLabel.mapRectToScene(item.titleLabel.boundingRect())
        assert title_box.bottom() <= item.vb.mapRectToScene(item.vb.boundingRect()).top() + 1
        assert plot.toolTip().splitlines() == ["w (15 elements)", "b (3 elements)"]


def test_the_plot_readout_never_widens_the_window_and_starts_empty_for_a_new_run(qtbot, win):
    p = win.plots
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    # the status bar names step 1 and has widened for it before the width is taken
    qtbot.waitUntil(lambda: win.stepLabel.text() == "step 1 (parameters after 0 updates)", timeout=5_000)
    QCoreApplication.processEvents()
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


def _choose_preset(win, name: str) -> None:
    """Pick a preset in the combo box as a user does (also the one already shown)."""
    combo = win.controls.presetCombo
    combo.setCurrentText(name)
    combo.activated.emit(combo.currentIndex())


def _diverge(qtbot, win) -> int:
    """Train linreg at learning rate 50 until it diverges; the step it stopped at."""
    win.controls.lrSpin.setValue(50)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "diverged")
    step = win.controller.step_count
    assert win.error_shown and win.errorBanner.text() == f"⚠ Stopped at step {step:,}: " + (
        f"the loss or a gradient is not finite, so that step's update was not kept ({step - 1:,} updates kept). "
        "The learning rate is probably too large: lower it and press Reset."
    )
    assert win.timeTravel.bar.coachBox.isVisible()
    return step


def _banner_gone(win) -> bool:
    return not win.error_shown and not win.timeTravel.bar.coachBox.isVisible()


@pytest.mark.real_engine
def test_the_divergence_banner_belongs_to_the_run_that_diverged(qtbot, win):
    preset_lr = load_preset("linreg").options.lr
    _choose_preset(win, "linreg")
    wait_state(qtbot, win, "ready")
    # the same preset chosen again: a fresh run, its learning rate, Start enabled, no banner
    step = _diverge(qtbot, win)
    assert not win.controls.startButton.isEnabled()
    # the engine silent for a while (as the watchdog finds it), then heard again: the banner
    # speaks for the engine, then for the diverged run again
    c = win.controller
    c._apply(Event.SILENCE)
    assert win.waitButton.isVisible() and "has not answered" in win.errorBanner.text()
    assert not win.timeTravel.bar.coachBox.isVisible()
    c._apply(Event.ANSWER)
    assert win.errorBanner.text().startswith(f"⚠ Stopped at step {step:,}:") and not win.waitButton.isVisible()
    assert win.timeTravel.bar.coachBox.isVisible()
    _choose_preset(win, "linreg")
    wait_state(qtbot, win, "ready")
    assert _banner_gone(win) and win.controller.history.n == 0
    assert win.document.options.lr == preset_lr and win.controls.lrSpin.value() == pytest.approx(preset_lr)
    assert win.controls.startButton.isEnabled() and win.controls.reasonLabel.text() == ""
    # a mode switch: a new engine process and a new run, no banner
    _diverge(qtbot, win)
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    wait_state(qtbot, win, "ready", timeout=60_000)
    assert _banner_gone(win)
    # Reset, then a healthy run to its end: no banner
    _diverge(qtbot, win)
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    assert _banner_gone(win)
    win.controls.lrSpin.setValue(preset_lr)
    win.controls.untilLossSpin.setValue(0)  # off
    win.controls.maxStepsSpin.setValue(300)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished", timeout=60_000)
    assert win.controller.step_count == 300 and _banner_gone(win)
    # a rewind by the coach: the run goes on, the banner of the divergence it undid goes
    _choose_preset(win, "linreg")
    wait_state(qtbot, win, "ready")
    step = _diverge(qtbot, win)
    # the banner is read as the rewind lands: the run trains on from there at once, at a learning
    # rate that may diverge again (a new banner for a new divergence)
    at_rewind = []
    win.controller.rewound.connect(lambda _step: at_rewind.append(_banner_gone(win)))
    with qtbot.waitSignal(win.controller.rewound, timeout=10_000) as rewound:
        qtbot.mouseClick(win.timeTravel.bar.coachButton, Qt.MouseButton.LeftButton)
    # back before the step that diverged
    assert rewound.args[0] < step and at_rewind == [True]


@pytest.mark.real_engine
def test_turning_stop_at_loss_off_after_it_ended_the_run_trains_on(qtbot, win):
    s = load_preset("linreg")
    _choose_preset(win, "linreg")
    wait_state(qtbot, win, "ready")
    win.controls.maxStepsSpin.setValue(1000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished", timeout=60_000)
    k = next(k for k, loss, _, _ in replay(s, 1000) if loss < s.options.until_loss)
    c = win.controls
    assert win.controller.end_reason == "until_loss" and win.controller.step_count == k
    assert not c.startButton.isEnabled() and "Stop at loss" in c.reasonLabel.text()
    assert c.reasonLabel.styleSheet() == ""  # a note, not an error
    c.untilLossSpin.setValue(0)  # off
    assert c.startButton.isEnabled() and c.stepButton.isEnabled() and c.reasonLabel.text() == ""
    c.maxStepsSpin.setValue(k + 20)
    qtbot.mouseClick(c.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == k + 20, timeout=30_000)
    h = win.controller.history
    assert win.controller.end_reason == "max_steps"
    assert list(h.steps) == list(range(1, k + 21))  # step k computed again, once in the history
    ref = list(replay(s, k + 20))  # float64; the engine's float32 drifts by ~1e-4 over these steps
    np.testing.assert_allclose(h.loss, [r[1] for r in ref], rtol=2e-3, atol=1e-7)
    last = h.param_layout.unflatten(h.params[-1])
    for name, value in ref[-1][3].items():
        np.testing.assert_allclose(last[name], value, rtol=2e-3, atol=1e-6)
    # exactly the run that never stopped at the loss: Reset with stop-at-loss off, train as far
    went_on = (h.loss.copy(), h.params.copy(), h.grads.copy())
    qtbot.mouseClick(c.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    qtbot.mouseClick(c.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == k + 20, timeout=30_000)
    h = win.controller.history
    for a, b in zip(went_on, (h.loss, h.params, h.grads)):
        np.testing.assert_array_equal(a, b)
    # a target lowered, not off, also lets it go on; one still above the loss does not
    c.untilLossSpin.setValue(float(h.loss[-1]) * 2)
    c.maxStepsSpin.setValue(k + 40)
    qtbot.mouseClick(c.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.end_reason == "until_loss", timeout=30_000)
    assert win.controller.step_count == k + 21 and list(h.steps) == list(range(1, k + 22))
    assert not c.startButton.isEnabled()
    c.untilLossSpin.setValue(float(h.loss[-1]) / 2)
    assert c.startButton.isEnabled()


def test_lowering_max_steps_while_training_says_what_happened(qtbot, win):
    c = win.controls
    c.speedSpin.setValue(100)
    c.maxStepsSpin.setValue(100_000)
    qtbot.mouseClick(c.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 6, timeout=30_000)
    c.maxStepsSpin.setValue(3)
    wait_state(qtbot, win, "finished")
    n = win.controller.step_count
    assert n > 3 and win.controller.end_reason == "max_steps"
    assert win.statusBar().currentMessage() == (
        f"Finished at step {n:,}: Max steps was set to 3, below the steps already done ({n:,} updates kept)."
    )


@pytest.mark.real_engine
def test_one_step_from_ready_says_one_step_was_done(qtbot, win):
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    assert win.stateLabel.text() == "1 step done" and win.stepLabel.text() == "step 1 (parameters after 0 updates)"
    win.controls.maxStepsSpin.setValue(100_000)
    win.controls.speedSpin.setValue(50)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 3, timeout=30_000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)  # Pause
    wait_state(qtbot, win, "paused")
    assert win.stateLabel.text() == "paused"
    # Graph mode compiles its first step: still "1 step done" after it
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    wait_state(qtbot, win, "ready", timeout=60_000)
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    wait_state(qtbot, win, "paused")
    assert win.stateLabel.text() == "1 step done"


def test_waiting_for_mindspore_is_not_shown_as_an_error(qtbot):
    from gradviz.ui.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    try:
        assert w.controller.state == "starting"
        # Start is offered (it waits for the run to be ready); Step waits, and says why
        assert w.controls.startButton.isEnabled() and w.controls.reasonLabel.text() == ""
        assert "MindSpore is starting…" in w.controls.stepButton.toolTip()
        assert "color" not in w.controls.reasonLabel.styleSheet()
        wait_state(qtbot, w, "ready", timeout=60_000)
        assert w.controls.reasonLabel.text() == ""
        w.scene.items_by_name["w"].setSelected(True)  # a graph problem is one: red
        w.inspector.shapeEdit.setText("4, 3")
        qtbot.mouseClick(w.inspector.applyButton, Qt.MouseButton.LeftButton)
        assert "Fix the graph first" in w.controls.reasonLabel.text()
        assert "#dc2626" in w.controls.reasonLabel.styleSheet()
    finally:
        w.close()


def _scale(frames) -> float:
    """The colour scale written independently of model/colorscale.py: frames (step, array) in
    order; the largest |value| discounted by half per 100 steps, up to 1, 2 or 5 x 10^k."""
    at = frames[-1][0]
    raw = max(float(np.max(np.abs(a))) * 0.5 ** ((at - k) / 100) for k, a in frames if at - k < 1000)
    return min(m * 10.0**e for e in range(-12, 12) for m in (1, 2, 5) if m * 10.0**e >= raw * (1 - 1e-9))


@pytest.mark.real_engine
def test_heat_maps_have_a_steady_symmetric_scale_and_a_colour_bar(qtbot, win):
    from gradviz.ui.heatmap import diverging_rgb

    s = load_preset("tutorial")
    steps = 3
    wait_nodes_at(qtbot, win, 0)  # the first frame: the initial parameters
    for k in range(steps):
        qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
        wait_nodes_at(qtbot, win, k + 1)
    ref = list(replay(s, steps + 1))  # float64: (step, loss, gradients, parameters before it)
    # the nodes: frames at 0, 1, 2, 3 updates (the parameters before steps 1 to 4)
    item = win.scene.items_by_name["w"]
    value_scale = _scale([(r[0] - 1, r[3]["w"]) for r in ref])
    grad_scale = _scale([(r[0] - 1, r[2]["w"]) for r in ref])
    assert item.scales == (value_scale, grad_scale)
    # a gradient far below the scale is pale, not fully red (as it would be were each frame
    # scaled to its own largest value)
    g = np.asarray(item.grad)
    small = np.unravel_index(np.argmin(np.abs(g)), g.shape)
    pale = diverging_rgb(g, grad_scale)[small]
    assert abs(g[small]) < grad_scale / 20 and pale.min() > 230
    # the plots' heat maps: the history's rows (steps 1 to 3), the same rule
    win.plots.refresh(force=True)
    w_scale, g_scale = win.plots.heat_scales
    assert w_scale == _scale([(r[0], r[3]["w"]) for r in ref[:steps]])
    assert g_scale == _scale([(r[0], r[2]["w"]) for r in ref[:steps]])
    (img_w, *_), (img_g, *_) = win.plots.images
    assert tuple(img_g.levels) == (-g_scale, g_scale) and tuple(img_w.levels) == (-w_scale, w_scale)
    bar = win.plots.heat_bars[1]
    ticks = bar.getAxis("right")._tickLevels[0]
    assert ticks == [(-g_scale, f"−{g_scale:g}"), (g_scale, f"+{g_scale:g}")]
    assert tuple(bar.levels()) == (-g_scale, g_scale)
    assert "step 3" in win.plots.heat_caption.text


def test_deleting_an_edge_with_live_values_in_the_window_raises_nothing(qtbot, win, monkeypatch):
    hooked = []
    monkeypatch.setattr(sys, "excepthook", lambda *exc: hooked.append(exc))
    wait_nodes_at(qtbot, win, 0)
    for dst, port in [("matmul", "b"), ("loss", "logits"), ("z", "a")]:
        edge = _edge(win.scene, dst, port)
        _delete(qtbot, win.scene, win.graphView, [edge])
        assert port not in win.document.graph[dst].inputs
        assert "cannot be generated" in win.codeView.toPlainText()
        win.undoAction.trigger()
        wait_state(qtbot, win, "ready")
    QCoreApplication.processEvents()
    assert not hooked, [repr(e[1]) for e in hooked]


def test_a_history_that_already_holds_steps_is_drawn_when_set(qtbot):
    """An opened run's history arrives full: the panel draws it, heat maps and caption at its last
    step (the reset at the start of set_history once drew the heat maps before they existed)."""
    from gradviz.model.history import History
    from gradviz.model.layout import Layout
    from gradviz.ui.plots import PlotPanel

    pl = Layout(["w", "b"], [(5, 3), (3,)])
    h = History(pl, pl, Layout([], []))
    rng = np.random.default_rng(0)
    params, grads = rng.standard_normal((4, 18)), rng.standard_normal((4, 18))
    h.append(np.arange(1, 5), rng.random(4), params, grads, np.zeros((4, 0)), np.ones(4))
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.set_history(h)
    assert "step 4" in panel.heat_caption.text
    shown = [img.image for img, _, _, _ in panel.images]
    np.testing.assert_allclose(shown[0], params[3, :15].reshape(5, 3), rtol=1e-6)  # float32 history
    np.testing.assert_allclose(shown[1], grads[3, :15].reshape(5, 3), rtol=1e-6)
    x, y = panel.loss_curve.getData()
    assert list(x) == [1, 2, 3, 4]


def _summarised_history():
    """Four steps of a run whose 1000x1000 w is recorded as a summary (the big preset's)."""
    from gradviz.model.history import History
    from gradviz.model.layout import Layout
    from gradviz.model.recording import summary_width

    pl = Layout(["w", "b"], [(summary_width((1000, 1000)),), (3,)], {"w": (1000, 1000)})
    h = History(pl, pl, Layout([], []))
    rng = np.random.default_rng(0)
    h.append(np.arange(1, 5), rng.random(4), *rng.standard_normal((2, 4, pl.total)), np.zeros((4, 0)), np.ones(4))
    return h


@pytest.fixture(params=["en", "zh"])
def lang(request, qapp):
    from PySide6.QtCore import QLocale

    from gradviz.ui import language

    from conftest import _delete_closed_widgets

    before = QLocale()
    language.install("zh_CN" if request.param == "zh" else "en")
    yield request.param
    # the test's widgets (closed by now) deleted in the locale they were made in: a pyqtgraph
    # menu's spin boxes, told of another locale while being deleted, crash
    _delete_closed_widgets()
    language.set_language("en")
    QLocale.setDefault(before)


@pytest.mark.parametrize("width", [745, 990])  # the plots dock's width at 1024x768 and at 1280x720
def test_a_large_runs_plot_notes_fit_over_their_plots(qtbot, lang, width):
    """The note under the Parameters and Gradients titles of a run with summarised tensors (the big
    preset) is wrapped to its plot: it once set the title's minimum width, which pushed the plot
    past its widget's right edge and cut the note's last letters."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFont, QFontMetricsF

    from gradviz.ui.plots import PlotPanel

    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.resize(width, 260)
    with qtbot.waitExposed(panel):
        panel.show()
    panel.set_history(_summarised_history())
    QCoreApplication.processEvents()
    for w in (panel.paramPlot, panel.gradPlot):
        note = w.gv_note
        assert note == QCoreApplication.translate("PlotPanel", "large tensors: summaries and sampled elements")
        item = w.plotItem.titleLabel.item
        shown = w.mapFromScene(item.mapRectToScene(item.boundingRect())).boundingRect()
        plot = w.mapFromScene(w.plotItem.vb.sceneBoundingRect()).boundingRect()
        inside = QRectF(w.viewport().rect())
        assert shown.left() >= 0 and shown.right() <= inside.right() + 1, (w.objectName(), shown, inside)
        assert plot.right() <= inside.right() + 1, (w.objectName(), plot, inside)  # not pushed off the edge
        # every line of the note and title as wrapped is within the width shown, and over the plot
        assert item.document().idealWidth() <= shown.width() + 0.5
        assert shown.top() >= 0 and shown.bottom() <= plot.top() + 1, (shown, plot)
        if lang == "en" and width == 745:  # the case that needs wrapping: one line is wider than the plot
            small = QFont(item.font())
            small.setPointSizeF(9)
            assert QFontMetricsF(small).horizontalAdvance(note) > plot.width()


def _bar_texts(bar) -> list:
    """The numbers a colour bar's axis draws, with where: [(QRectF, text)]."""
    from PySide6.QtGui import QImage, QPainter

    axis = bar.getAxis("right")
    img = QImage(10, 10, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    try:
        specs = axis.generateDrawSpecs(p)
    finally:
        p.end()
    return [] if specs is None else [(rect, text) for rect, _flags, text in specs[2]]


@pytest.mark.parametrize("height", [170, 400])
def test_colour_bar_numbers_never_overlap(qtbot, height):
    """A flat matrix (the mlp preset's 2x8 w1): its colour bar's numbers never overlap (they
    did, as "=±5"); where the row is short the maps keep their height and the column scrolls,
    so every bar has room for -S and +S at its ends (a bar too short for both says ±S once)."""
    from gradviz.model.history import History
    from gradviz.model.layout import Layout
    from gradviz.ui.plots import PlotPanel

    pl = Layout(["w1", "w2"], [(2, 8), (8, 2)])
    h = History(pl, pl, Layout([], []))
    rng = np.random.default_rng(0)
    params, grads = 4 * rng.standard_normal((2, 32)), rng.standard_normal((2, 32))
    h.append(np.arange(1, 3), rng.random(2), params, grads, np.zeros((2, 0)), np.ones(2))
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, height)
    panel.set_history(h)
    with qtbot.waitExposed(panel):
        panel.show()
    panel.refresh(force=True)
    QCoreApplication.processEvents()  # the layout gives the bars their heights
    both = 0
    for bar, s in zip(panel.heat_bars, panel.heat_scales):
        texts = _bar_texts(bar)
        assert texts, "a colour bar without its scale"
        for i, (a, ta) in enumerate(texts):
            for b, tb in texts[i + 1 :]:
                assert not a.intersects(b), (ta, tb, a, b)
        shown = sorted(t for _r, t in texts)
        assert shown in ([f"±{s:g}"], sorted([f"−{s:g}", f"+{s:g}"])), shown
        both += len(texts) == 2
    assert both == len(panel.heat_bars)  # room for both ends on every bar, the short row too
