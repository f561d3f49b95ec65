"""The real window, driven as a teacher would: presets, toggles, start/pause/step/reset, both
modes, an invalid graph, closing while running. Numbers are checked against numpy."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from reference import grads_for, replay
from gradviz.model.presets import load_preset

from conftest import READY, wait_nodes_at, wait_state


@pytest.mark.real_engine
def test_opens_with_tutorial_ready_and_node_values(qtbot, win):
    assert win.controls.presetCombo.currentText() == "tutorial"
    assert win.controls.startButton.isEnabled() and win.controls.startButton.text() == "Start"
    assert win.stepLabel.text() == "no steps yet"  # the status bar names the last step computed: none
    wait_nodes_at(qtbot, win, 0)
    loss, g, v = grads_for(load_preset("tutorial"))
    item = win.scene.items_by_name["b"]
    np.testing.assert_allclose(item.value, v["b"], rtol=1e-6)
    np.testing.assert_allclose(item.grad, g["b"], rtol=1e-5)
    assert win.scene.items_by_name["loss"].value == pytest.approx(loss, rel=1e-6)
    assert "def function(x, y, w, b):" in win.codeView.toPlainText()
    for name in (
        "presetCombo",
        "auxOutputCheck",
        "stopGradientCheck",
        "hasAuxCheck",
        "deviceCombo",
        "modeCombo",
        "optimizerCombo",
        "lrSpin",
        "startButton",
        "stepButton",
        "resetButton",
        "graphView",
        "lossPlot",
        "paramPlot",
        "gradPlot",
        "stepLabel",
    ):
        assert win.findChild(object, name) is not None, name


@pytest.mark.real_engine
def test_step_button_does_exactly_one_step_and_plots_engine_numbers(qtbot, win):
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    h = win.controller.history
    assert h.n == 1 and win.stepLabel.text() == "step 1 (parameters after 0 updates)"
    loss, g, _ = grads_for(load_preset("tutorial"))
    assert h.loss[0] == pytest.approx(loss, rel=1e-6)
    win.plots.refresh()
    x, y = win.lossPlot.getPlotItem().listDataItems()[0].getData()
    assert list(x) == [1] and y[0] == pytest.approx(loss, rel=1e-6)
    grads = h.grad_layout.unflatten(h.grads[0])
    np.testing.assert_allclose(grads["b"], g["b"], rtol=1e-5)
    for _ in range(2):
        qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
        wait_nodes_at(qtbot, win, h.n + 1)
    win.plots.refresh()
    # every element of every tensor is a line of its tensor's curve, step by step
    for curves, layout, table in (
        (win.plots.param_curves, h.param_layout, h.params),
        (win.plots.grad_curves, h.grad_layout, h.grads),
    ):
        for (item, _, size), name in zip(curves, layout.names):
            x, y = item.getData()
            cols = layout.unflatten(np.arange(layout.total))[name].reshape(-1)
            assert list(x) == [1, 2, 3] * size
            np.testing.assert_array_equal(y, table[:, cols].T.reshape(-1))


@pytest.mark.real_engine
def test_aux_output_stop_gradient_and_has_aux_toggles(qtbot, win):
    c = win.controls
    assert not c.stopGradientCheck.isEnabled() and not c.hasAuxCheck.isEnabled()
    assert "Return z too" in c.stopGradientCheck.toolTip()
    _, plain, _ = grads_for(load_preset("tutorial"))

    def db_after_toggle(check):
        check.click()  # as a click on its label does
        wait_state(qtbot, win, "ready")
        wait_nodes_at(qtbot, win, 0)
        return win.scene.items_by_name["b"].grad

    db = db_after_toggle(c.auxOutputCheck)
    np.testing.assert_allclose(db, plain["b"] + 1, rtol=1e-5)  # z returned: d(loss + sum z)/db
    assert c.stopGradientCheck.isEnabled() and c.hasAuxCheck.isEnabled()
    assert "differentiated too" in win.scene.items_by_name["out_z"].role
    np.testing.assert_allclose(db_after_toggle(c.stopGradientCheck), plain["b"], rtol=1e-5)
    c.stopGradientCheck.click()
    np.testing.assert_allclose(db_after_toggle(c.hasAuxCheck), plain["b"], rtol=1e-5)
    qtbot.mouseClick(c.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)
    h = win.controller.history
    assert h.aux_layout.names == ["z"] and h.aux.shape == (1, 3)


@pytest.mark.real_engine
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_start_pause_reset(qtbot, win, mode):
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData(mode))
    wait_state(qtbot, win, "ready")
    win.controls.maxStepsSpin.setValue(100000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 20, timeout=60_000)
    assert win.controls.startButton.text() == "Pause"
    assert not win.controls.modeCombo.isEnabled()  # cannot change mid-run
    assert win.controls.lrSpin.isEnabled()  # can
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "paused")
    n = win.controller.step_count
    wait_nodes_at(qtbot, win, n)
    h = win.controller.history
    assert h.n == n and list(h.steps) == list(range(1, n + 1))  # no step lost
    # the history holds the parameters before each step; paused, the nodes show the last step
    # too, at its parameters before its update (the live ones are one update further)
    ref = list(replay(load_preset("tutorial"), n + 1))
    np.testing.assert_allclose(h.param_layout.unflatten(h.params[-1])["w"], ref[n - 1][3]["w"], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(win.controller.nodes.values["w"], ref[n][3]["w"], rtol=1e-4, atol=1e-5)
    qtbot.waitUntil(lambda: win.timeTravel.past is not None, timeout=10_000)
    np.testing.assert_allclose(win.scene.items_by_name["w"].value, ref[n - 1][3]["w"], rtol=1e-4, atol=1e-5)
    # ... and all say which state they show: step n
    win.plots.refresh(force=True)
    assert win.plots.heat_caption.text == f"step {n:,}<br>(parameters after {n - 1:,} updates)"
    titles = [(label.text, label.toolTip()) for label, _, _ in win.plots.heat_titles]
    assert titles == [
        ("w", f"w\nstep {n:,} (parameters after {n - 1:,} updates)"),
        ("∂L/∂w", f"∂L/∂w\nstep {n:,} (parameters after {n - 1:,} updates)"),
    ]
    assert f"Nodes: step {n:,} (parameters after {n - 1:,} updates), the plots' last step" in win.graphView.caption
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    assert win.controller.history.n == 0 and win.stepLabel.text() == "no steps yet"


def test_learning_rate_changes_mid_run(qtbot, win):
    win.controls.speedSpin.setValue(200)
    win.controls.maxStepsSpin.setValue(100000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 3, timeout=30_000)
    win.controls.lrSpin.setValue(0.5)
    assert win.controller.state in ("training", "compiling")
    n = win.controller.step_count
    qtbot.waitUntil(lambda: win.controller.step_count >= n + 5, timeout=30_000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "paused")
    h = win.controller.history
    p, g = h.params, h.grads
    # the last update used lr 0.5: p[k+1] = p[k] - 0.5 * g[k]
    assert np.allclose(p[-1] - p[-2], -0.5 * g[-2], rtol=1e-3, atol=1e-5)


@pytest.mark.real_engine
def test_linreg_runs_until_loss_target(qtbot, win):
    win.controls.presetCombo.setCurrentText("linreg")
    win.controls.presetCombo.activated.emit(win.controls.presetCombo.currentIndex())
    wait_state(qtbot, win, "ready")
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    wait_state(qtbot, win, "ready")
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished", timeout=60_000)
    assert win.controller.end_reason == "until_loss"
    s = load_preset("linreg")
    k = next(k for k, loss, _, _ in replay(s, 1000) if loss < s.options.until_loss)
    assert win.controller.step_count == k and win.controller.history.loss[-1] < 0.001
    assert not win.controls.startButton.isEnabled()
    assert "Reset" in win.controls.reasonLabel.text()
    # step k broke the loop before its update: k - 1 updates kept, and the nodes show step k
    # itself, at the parameters the plots' last row holds (even when k fell inside a Graph-mode batch)
    wait_nodes_at(qtbot, win, k - 1)
    assert win.stepLabel.text() == f"step {k} (parameters after {k - 1} updates)"
    assert f"Nodes: step {k} (parameters after {k - 1} updates), the plots' last step" in win.graphView.caption
    h = win.controller.history
    last = h.param_layout.unflatten(h.params[-1])
    for name in last:
        np.testing.assert_array_equal(win.scene.items_by_name[name].value, last[name])
    assert win.scene.items_by_name["loss"].value == pytest.approx(float(h.loss[-1]), rel=1e-6)


def test_divergence_is_marked_and_explained(qtbot, win):
    win.files.load_preset("linreg")
    wait_state(qtbot, win, "ready")
    win.controls.lrSpin.setValue(50)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "diverged")
    assert win.controller.end_reason == "non_finite"
    assert win.error_shown and "not finite" in win.errorBanner.text() and "learning rate" in win.errorBanner.text()
    assert win.stateLabel.text() == "stopped: not finite" and "Press Reset" in win.controls.reasonLabel.text()
    win.findChild(QPushButton, "dismissButton").click()
    assert not win.error_shown
    win.plots.refresh()
    assert len(win.plots.bad_marks.data) >= 1 and win.plots.bad_lines


def test_invalid_graph_disables_start_with_reason_and_undo_recovers(qtbot, win):
    win.scene.items_by_name["w"].setSelected(True)
    assert win.inspector.name == "w"
    win.inspector.shapeEdit.setText("4, 3")
    qtbot.mouseClick(win.inspector.applyButton, Qt.MouseButton.LeftButton)
    msg = 'MatMul "matmul": x has shape (5,) but w has shape (4, 3)'
    assert not win.controls.startButton.isEnabled()
    assert msg in win.controls.reasonLabel.text()
    assert any(msg in win.problemsList.item(i).text() for i in range(win.problemsList.count()))
    assert win.scene.items_by_name["matmul"].problems and msg in win.scene.items_by_name["matmul"].toolTip()
    win.undoAction.trigger()
    wait_state(qtbot, win, "ready")
    assert win.controls.startButton.isEnabled() and win.problemsList.count() == 0


def test_bad_shape_text_is_refused_where_typed(qtbot, win):
    win.scene.items_by_name["x"].setSelected(True)
    win.inspector.shapeEdit.setText("five")
    qtbot.mouseClick(win.inspector.applyButton, Qt.MouseButton.LeftButton)
    assert "not a shape" in win.inspector.error.text()
    assert win.document.graph["x"].shape == (5,)


def test_palette_add_delete_undo_redo(qtbot, win):
    n = len(win.document.graph)
    name = win.add_node("Mul")
    assert len(win.document.graph) == n + 1
    assert any("not connected" in p for p in win.document.session.problems())
    win.scene.items_by_name[name].setSelected(True)
    qtbot.keyClick(win.graphView, Qt.Key.Key_Delete)
    assert win.document.graph.get(name) is None
    win.undoAction.trigger()
    assert win.document.graph.get(name) is not None
    win.undoAction.trigger()
    win.redoAction.trigger()
    assert win.document.graph.get(name) is not None
    win.document.connect_ports("x", name, "a")
    win.document.connect_ports("x", name, "b")
    assert win.document.graph[name].inputs == {"a": "x", "b": "x"}
    assert any(e.dst.name == name for e in win.scene.edges)


@pytest.mark.real_engine
def test_device_combo_lists_every_device_and_disables_unavailable(qtbot, win):
    combo = win.controls.deviceCombo
    assert [combo.itemData(i) for i in range(combo.count())] == ["CPU", "GPU", "Ascend"]
    model = combo.model()
    assert model.item(0).isEnabled()
    assert not model.item(1).isEnabled() and "GPU" in model.item(1).toolTip()


@pytest.mark.real_engine
def test_close_while_running_stops_everything_quickly(qtbot, win):
    import time

    win.controls.maxStepsSpin.setValue(100000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 2, timeout=30_000)
    proc = win.controller._client.process
    t = time.perf_counter()
    win.close()
    assert time.perf_counter() - t < 2.0
    assert not proc.is_alive() if hasattr(proc, "_popen") and proc._popen is not None else True


@pytest.mark.real_engine
def test_engine_crash_is_reported_and_reset_recovers(qtbot, win):
    win.controller._client.process.kill()
    wait_state(qtbot, win, "engine_lost")
    assert "stopped unexpectedly" in win.errorBanner.text()
    assert not win.controls.startButton.isEnabled()
    assert win.document.graph.get("w") is not None  # session kept
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready", timeout=READY)
    assert win.controls.startButton.isEnabled()


@pytest.mark.real_engine
def test_graph_mode_first_step_compiles_and_can_be_cancelled(qtbot, win):
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    wait_state(qtbot, win, "ready")
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    win.controller.cancel()  # as the Cancel button does
    wait_state(qtbot, win, "ready", timeout=READY)
    assert win.controller.history.n == 0
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1)


def test_raising_max_steps_after_the_end_goes_on(qtbot, win):
    c = win.controls
    c.maxStepsSpin.setValue(3)
    qtbot.mouseClick(c.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished")
    assert win.controller.step_count == 3 and not c.startButton.isEnabled()
    c.maxStepsSpin.setValue(10)
    assert c.startButton.isEnabled()
    qtbot.mouseClick(c.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count == 10 and win.controller.state == "finished", timeout=30_000)
    c.maxStepsSpin.setValue(5)  # lowered below the steps done: Start says why it cannot go on
    assert not c.startButton.isEnabled() and "max steps" in c.reasonLabel.text().lower()


def test_graph_and_undo_are_locked_while_training(qtbot, win):
    win.scene.items_by_name["b"].setSelected(True)
    win.inspector.shapeEdit.setText("3")
    win.controls.speedSpin.setValue(20)
    win.controls.maxStepsSpin.setValue(100000)
    win.document.update_node("b", "rename-free edit", init="zeros")  # something to undo
    wait_state(qtbot, win, "ready")
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 2, timeout=30_000)
    run = win.controller.run_id
    assert not win.undoAction.isEnabled() and not win.inspector.applyButton.isEnabled()
    win.undoAction.trigger()
    win.inspector.apply()
    assert win.document.add_node("Mul", (0, 0)) and len(win.document.graph) == 9  # refused
    assert win.controller.run_id == run and win.controller.state == "training"
    win.document.move_nodes({"b": (5.0, 5.0)})  # moving is fine while training
    assert win.document.graph["b"].pos == (5.0, 5.0) and win.controller.run_id == run
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "paused")
    assert win.undoAction.isEnabled()


def test_exported_run_uses_the_trained_session_not_later_edits(qtbot, win, tmp_path):
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count == 1, timeout=30_000)
    win.document.disconnect_port("z", "b")  # the graph is now invalid; the run stays
    p = tmp_path / "run.jsonl"
    job = win.files.export_history(str(p))
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    from gradviz.formats.run_reader import read_history

    session, _, arrays, _, _ = read_history(p)
    assert session.graph["z"].inputs["b"] == "b" and len(arrays[0]) == 1


def test_caption_says_what_L_is_and_new_nodes_do_not_overlap(qtbot, win):
    wait_nodes_at(qtbot, win, 0)
    assert (
        "Nodes: step 1 (parameters after 0 updates), what the first step computes" in win.graphView.caption
        and "L = loss" in win.graphView.caption
    )
    win.controls.auxOutputCheck.click()
    assert "L = loss + sum(z)" in win.graphView.caption
    win.controls.hasAuxCheck.click()
    assert "has_aux=True" in win.graphView.caption
    win.controls.auxOutputCheck.click()  # z off clears has_aux with it
    assert not win.document.options.has_aux and win.graphView.caption.endswith("L = loss")
    names = [win.add_node(k) for k in ("MatMul", "Parameter", "Input", "Add")]
    rects = [i.sceneBoundingRect() for i in win.scene.items_by_name.values()]
    for n in names:
        r = win.scene.items_by_name[n].sceneBoundingRect()
        assert sum(r.intersects(o) for o in rects) == 1, n  # only itself


def test_drag_from_an_output_port_to_an_input_port_connects(qtbot, win):
    from PySide6.QtTest import QTest

    name = win.add_node("Mul")
    v, vp = win.graphView, win.graphView.viewport()
    v.ensureVisible(win.scene.items_by_name[name])
    src = v.mapFromScene(win.scene.items_by_name["x"].port_out.scenePos())
    dst = v.mapFromScene(win.scene.items_by_name[name].ports_in["a"].scenePos())
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, src)
    for i in range(1, 11):
        QTest.mouseMove(vp, src + (dst - src) * i / 10)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, dst)
    qtbot.waitUntil(lambda: win.document.graph[name].inputs.get("a") == "x", timeout=5000)
    assert any(e.src.name == "x" and e.dst.name == name for e in win.scene.edges)
    win.undoAction.trigger()
    assert "a" not in win.document.graph[name].inputs


def test_errors_show_in_the_banner_and_the_status_bar(qtbot, win):
    win.show_error("Something went wrong: details\nmore")
    assert win.error_shown and win.statusBar().currentMessage() == "Something went wrong: details"


@pytest.mark.real_engine
def test_switching_mode_starts_an_engine_process_set_up_for_it(qtbot, win):
    """The mode is fixed per engine process; each runs on one core (devices.prepare_process)."""
    import os

    def cpus(pid):  # the CPUs a process may run on
        with open(f"/proc/{pid}/status") as f:
            return next(line.split(":")[1].strip() for line in f if line.startswith("Cpus_allowed_list"))

    c = win.controller
    first = c._client.process.pid
    assert c._client.mode == "pynative"
    mine = sorted(os.sched_getaffinity(0))
    if len(mine) > 1:  # an engine runs on one core, the window has the others
        assert cpus(first) == str(mine[-1])
    with qtbot.waitSignal(
        c.message, timeout=5_000, check_params_cb=lambda m: m == "Starting a new engine process for Graph mode..."
    ):
        win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    qtbot.waitUntil(lambda: c.state == "ready" and c._client.mode == "graph", timeout=READY)
    assert c._client.process.pid != first
    if len(mine) > 1:
        assert cpus(c._client.process.pid) == str(mine[-1])
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1, timeout=READY)
    loss, _, _ = grads_for(load_preset("tutorial"))
    assert c.history.loss[0] == pytest.approx(loss, rel=1e-5)
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("pynative"))
    qtbot.waitUntil(lambda: c.state == "ready" and c._client.mode == "pynative", timeout=READY)
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_nodes_at(qtbot, win, 1, timeout=READY)
    assert c.history.loss[0] == pytest.approx(loss, rel=1e-5)
    # host-blocking runs: MindSpore made no pipeline queue thread in the PyNative engine
    pid = c._client.process.pid
    threads = []
    for t in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{t}/comm") as f:
            threads.append(f.read().strip())
    assert "KernelThread_0" in threads or "ActorThread_0" in threads  # MindSpore's runtime is up
    assert "frontend_queue" not in threads


@pytest.mark.real_engine
def test_mlp_preset_trains_in_the_app(qtbot, win):
    from gradviz.model import numeric

    win.controls.presetCombo.setCurrentText("mlp")
    win.controls.presetCombo.activated.emit(win.controls.presetCombo.currentIndex())
    qtbot.waitUntil(lambda: win.controller.state == "ready" and win.controller.session.name == "mlp", timeout=30_000)
    assert {"w1", "b1", "w2", "b2"} <= set(win.scene.items_by_name)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished", timeout=60_000)
    h = win.controller.history
    assert win.controller.end_reason == "until_loss" and h.loss[-1] < 0.05
    assert h.loss[0] == pytest.approx(numeric.evaluate(load_preset("mlp"))[0], rel=1e-5)
    np.testing.assert_allclose(h.lr, 0.01)


def test_start_clicked_while_mindspore_loads_is_acted_on_once_ready(qtbot):
    """A click on Start during start-up is remembered (the button offers to take it
    back), and training begins as soon as the run is ready."""
    from gradviz.ui.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.controller.state in ("starting", "building")
    start = w.controls.startButton
    assert start.isEnabled() and start.text() == "Start"
    qtbot.mouseClick(start, Qt.MouseButton.LeftButton)
    assert w.controller.run.start_queued and start.text() == "Pause"
    assert "training starts when ready" in w.statusBar().currentMessage() + w.stateLabel.text()
    wait_state(qtbot, w, "training", "compiling", timeout=READY)
    w.controller.pause()
    wait_state(qtbot, w, "paused")
    assert w.controller.history.n > 0
    w.close()


def test_a_queued_start_can_be_taken_back_before_ready(qtbot):
    from gradviz.ui.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    start = w.controls.startButton
    qtbot.mouseClick(start, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(start, Qt.MouseButton.LeftButton)  # now "Pause": takes the queued Start back
    assert not w.controller.run.start_queued and start.text() == "Start"
    wait_state(qtbot, w, "ready", timeout=READY)
    # had a Start been sent, the engine would train on and never stop after this one step
    qtbot.mouseClick(w.controls.stepButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, w, "paused")
    assert w.controller.history.n == 1 and w.controls.startButton.text() == "Start"
    w.close()
