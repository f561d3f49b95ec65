"""Bad input and faults, as a classroom produces them: every one gets a clear message, and
nothing is lost (the session being edited stays as it was)."""

import json
import time

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QMessageBox, QPushButton

import standin
from conftest import READY, alive, wait_state
from gradviz.engine import protocol as msg
from gradviz.model.presets import load_preset
from gradviz.model.session import save_session
from gradviz.ui.main_window import MainWindow
from gradviz.ui.persistence import AppStore
from test_session import BAD

B = QMessageBox.StandardButton


def snapshot(w):
    return w.document.session.to_json()


def finish(qtbot, job):
    """Wait for a file job (opening or saving a run on a worker thread) to be done."""
    assert job is not None
    qtbot.waitUntil(lambda: job.done, timeout=60_000)
    return job


# -- files: each bad file leaves the session untouched and names the file and the problem ------
def test_bad_session_files_table(qtbot, win, tmp_path):
    before = snapshot(win)
    cases = dict(BAD)
    cases["binary"] = (None, "not a text file")
    cases["missing"] = (None, "no such file")
    for name, (text, expected) in cases.items():
        p = tmp_path / f"{name.replace(' ', '_')}.json"
        if name == "binary":
            p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
        elif text is not None:
            p.write_text(text)
        win.dismiss_error()
        assert finish(qtbot, win.files.open_session_file(str(p))).error is not None, name
        msg = win.errorBanner.text()
        assert win.error_shown and str(p) in msg and expected in msg, (name, msg)
        assert snapshot(win) == before, name
    assert win.controller.state == "ready"


# -- fields: refused where typed, with the reason -----------------------------------------------
@pytest.mark.parametrize(
    "field,value,expected",
    [
        ("shape", "0, 3", "size 0"),
        ("shape", "-5", "size -5"),
        ("shape", "2000, 2000", "at most 1,000,000"),
        ("shape", "1, 2, 3", "at most 2 are supported"),
        ("shape", "abc", "not a shape"),
        ("name", "ops", "a name the generated program uses itself"),
        ("name", "1w", "not a valid name"),
        ("name", "x", "already used"),
        ("values", "[1, 2", "not a list of numbers"),
        ("values", "[1, 2]", "do not match" if False else "values have shape"),
    ],
)
def test_bad_fields_in_the_inspector(qtbot, win, field, value, expected):
    before = snapshot(win)
    win.scene.items_by_name["w"].setSelected(True)
    if field == "shape":
        win.inspector.shapeEdit.setText(value)
    elif field == "name":
        win.inspector.nameEdit.setText(value)
    else:
        win.inspector.initCombo.setCurrentText("values")
        win.inspector.valuesEdit.setPlainText(value)
    qtbot.mouseClick(win.inspector.applyButton, Qt.MouseButton.LeftButton)
    err = win.inspector.error.text() + " ".join(win.document.session.problems())
    assert expected in err, err
    if field != "values" or expected == "not a list of numbers":
        assert snapshot(win) == before  # refused before anything changed
    else:  # a well-formed list of the wrong shape is an edit with a problem: undo brings it back
        assert not win.controls.startButton.isEnabled()
        win.undoAction.trigger()
        assert snapshot(win) == before


def test_learning_rate_and_steps_inputs_are_bounded(qtbot, win):
    c = win.controls
    c.lrSpin.setValue(-3)
    assert c.lrSpin.value() == c.lrSpin.minimum() > 0  # clamped to the smallest positive rate
    c.maxStepsSpin.setValue(0)
    assert c.maxStepsSpin.value() == 1


# -- graph edits that break the graph: Start disabled with the reason; undo recovers ---------------
@pytest.mark.parametrize(
    "edit,expected",
    [
        (lambda d: d.disconnect_port("z", "b"), "input port 'b' is not connected"),
        (lambda d: d.connect_ports("z", "matmul", "a"), "cycle"),
        (lambda d: d.remove_nodes(["out_loss", "out_z"]), "no Output node"),
        (lambda d: d.remove_nodes(["out_loss"]), "must be a scalar"),
        (lambda d: d.update_node("b", "shape", shape=(4,)), "do not broadcast"),
        (
            lambda d: (
                d.update_node("w", "frozen", requires_grad=False) or d.update_node("b", "frozen", requires_grad=False)
            ),
            "nothing to train",
        ),
    ],
)
def test_graph_edits_that_break_the_graph(qtbot, win, edit, expected):
    before = snapshot(win)
    edit(win.document)
    assert not win.controls.startButton.isEnabled()
    assert expected in win.controls.reasonLabel.text() or any(
        expected in win.problemsList.item(i).text() for i in range(win.problemsList.count())
    )
    while win.document.undo_stack.canUndo():
        win.undoAction.trigger()
    assert snapshot(win) == before
    wait_state(qtbot, win, "ready")
    assert win.controls.startButton.isEnabled()


# -- engine faults ------------------------------------------------------------------------------
@pytest.mark.real_engine
def test_exception_in_the_engine_reaches_the_window_and_reset_recovers(qtbot, win):
    win.controller._send(msg.Fault("raise"))
    wait_state(qtbot, win, "error")
    assert "injected fault" in win.errorBanner.text()
    assert not win.controls.startButton.isEnabled() and "Reset" in win.controls.reasonLabel.text()
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count == 1, timeout=30_000)


@pytest.mark.real_engine
def test_engine_exit_mid_run_keeps_the_session(qtbot, win):
    before = snapshot(win)
    win.controls.maxStepsSpin.setValue(100000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count > 3, timeout=30_000)
    win.controller._send(msg.Fault("exit"))
    wait_state(qtbot, win, "engine_lost")
    assert "stopped unexpectedly" in win.errorBanner.text() and "exit code 3" in win.errorBanner.text()
    assert json.loads(snapshot(win))["graph"] == json.loads(before)["graph"]
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready", timeout=READY)


@pytest.mark.real_engine
def test_hung_engine_is_cancelled(qtbot, win):
    win.controller._send(msg.Fault("hang"))
    win.controller.cancel()
    wait_state(qtbot, win, "ready", timeout=READY)


@pytest.mark.real_engine
def test_unavailable_device_in_a_session_is_explained(qtbot, win, tmp_path):
    s = load_preset("tutorial")
    s.options.device = "GPU"
    p = tmp_path / "gpu.json"
    save_session(s, p)
    assert finish(qtbot, win.files.open_session_file(str(p))).error is None
    wait_state(qtbot, win, "error", timeout=READY)
    assert "GPU is not available" in win.errorBanner.text()
    assert win.document.options.device == "GPU"  # kept: the user chooses what to do
    win.controls.deviceCombo.setCurrentIndex(0)
    wait_state(qtbot, win, "ready", timeout=READY)


# -- closing at the worst moment, twice at each in a row ------------------------------------------
def test_close_at_the_worst_moment_twice_each(qtbot):
    moments = ["running", "compiling", "starting", "building", "stepping", "hung"]
    for i in range(2 * len(moments)):
        w = MainWindow()
        qtbot.addWidget(w)
        w.show()
        moment = moments[i % len(moments)]
        if moment != "starting":
            qtbot.waitUntil(lambda w=w: w.controller.state == "ready", timeout=READY)
            if moment == "compiling":
                w.controls.modeCombo.setCurrentIndex(w.controls.modeCombo.findData("graph"))
                qtbot.waitUntil(lambda w=w: w.controller.state == "ready", timeout=READY)
                w.controller.start()
            elif moment == "running":
                w.controller.start()
                qtbot.waitUntil(lambda w=w: w.controller.step_count > 0, timeout=30_000)
            elif moment == "building":
                w.controls.seedSpin.setValue(7)
            elif moment == "hung":  # the engine is stuck in a long computation
                w.controller._send(msg.Fault("hang"))
            else:
                w.controller.step()
        pid = w.controller._client.process.pid
        t = time.perf_counter()
        w.close()
        elapsed = time.perf_counter() - t
        assert elapsed < 2.0, (moment, elapsed)
        assert not alive(pid), moment


# -- unsaved changes, autosave and crash recovery ----------------------------------------------------
@pytest.fixture
def store(tmp_path):
    return AppStore(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), tmp_path / "data")


def _window(qtbot, store, answer=B.Cancel):
    w = MainWindow(store=store, ask=lambda *a: answer, make_client=standin.client)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.controller.state == "ready", timeout=READY)
    return w


def test_unsaved_changes_are_not_discarded_without_asking(qtbot, store, tmp_path):
    w = _window(qtbot, store, answer=B.Cancel)
    w.document.rename_node("w", "weights")
    assert w.document.modified and w.windowTitle().endswith("*")
    w.files.load_preset("linreg")  # cancelled: nothing replaced
    assert w.document.session.name == "tutorial" and w.document.graph.get("weights") is not None
    w.close()
    assert w.isVisible()  # close cancelled too
    w.files.ask = lambda *a: B.Discard
    w.close()
    assert not w.isVisible()


def test_save_open_and_recent_files(qtbot, store, tmp_path):
    w = _window(qtbot, store)
    w.controls.seedSpin.setValue(11)
    w.document.rename_node("w", "weights")
    p = tmp_path / "mine.json"
    assert w.files.save_session_file(str(p))
    assert not w.document.modified and store.recent_files() == [str(p.resolve())]
    w.files.load_preset("linreg")
    assert finish(qtbot, w.files.open_session_file(str(p))).error is None and w.document.options.seed == 11
    w.close()


def test_autosave_restores_after_a_crash(qtbot, store):
    w = _window(qtbot, store, answer=B.Discard)
    w.controls.seedSpin.setValue(99)
    w.files.write_autosave()  # what the 2 s autosave timer does
    assert store.autosave_path.exists()
    # a crash: the window never closes cleanly, so the autosave stays
    saved = store.read_autosave()
    w.close()  # (clean close deletes it; put it back)
    assert not store.autosave_path.exists()
    store.write_autosave(saved)  # as a crashed window leaves it
    w2 = _window(qtbot, AppStore(store.settings, store.folder), answer=B.Yes)
    assert w2.document.options.seed == 99 and w2.document.modified
    w2.files.ask = lambda *a: B.Discard
    w2.close()


def test_run_saved_with_history_opens_as_it_was(qtbot, win, tmp_path):
    win.controls.auxOutputCheck.click()
    wait_state(qtbot, win, "ready")
    win.controls.maxStepsSpin.setValue(25)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished")
    h = win.controller.history
    p = tmp_path / "run.jsonl"
    finish(qtbot, win.files.export_history(str(p)))
    loss, params = h.loss.copy(), h.params.copy()
    win.files.load_preset("linreg")
    wait_state(qtbot, win, "ready")
    assert finish(qtbot, win.files.open_history_file(str(p))).error is None
    wait_state(qtbot, win, "reviewing")
    c = win.controller
    assert c.recorded and c.history.n == 25 and win.document.options.aux_output
    assert abs(c.history.loss - loss).max() == 0 and abs(c.history.params - params).max() == 0
    assert "saved run" in win.controls.reasonLabel.text() and not win.controls.startButton.isEnabled()
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    assert win.controller.history.n == 0 and win.controls.startButton.isEnabled()


@pytest.mark.parametrize(
    "content,expected",
    [
        ("", "empty"),
        ("not json\n", "not a GradViz history"),
        ('{"type": "step"}\n', "must be a run record"),
    ],
)
def test_bad_history_files(qtbot, win, tmp_path, content, expected):
    before = snapshot(win)
    p = tmp_path / "bad.jsonl"
    p.write_text(content)
    assert finish(qtbot, win.files.open_history_file(str(p))).error is not None
    assert expected in win.errorBanner.text() and str(p) in win.errorBanner.text()
    assert snapshot(win) == before


def test_torn_history_file_reports_the_line(qtbot, win, tmp_path):
    # a run file as `gradviz run` writes it, from the window's own export (no MindSpore in this
    # process, whose engine stand-in may be computing the lessons on another thread)
    p = tmp_path / "run.jsonl"
    wait_state(qtbot, win, "ready")
    win.controls.maxStepsSpin.setValue(5)
    win.controller.start()
    wait_state(qtbot, win, "finished")
    assert finish(qtbot, win.files.export_history(str(p))).error is None
    lines = p.read_text().splitlines()
    p.write_text("\n".join(lines[:3] + [lines[3][:40]]) + "\n")
    assert finish(qtbot, win.files.open_history_file(str(p))).error is not None
    assert "line 4" in win.errorBanner.text()


def _huge_session(path, side: int = 1000) -> None:
    """A valid session whose Parameter w holds side x side values given one by one (the
    tutorial graph otherwise)."""
    d = load_preset("tutorial").to_dict()
    for n in d["graph"]["nodes"]:
        if n["name"] == "x":
            n["shape"] = [side]
        if n["name"] in ("y", "b"):
            n["shape"] = [side]
        if n["name"] == "w":
            n.update(shape=[side, side], init="values", values="@")
    row = "[" + ", ".join(["0.001"] * side) + "]"
    path.write_text(json.dumps(d).replace('"@"', "[" + ", ".join([row] * side) + "]"))


def test_a_huge_session_opens_off_the_gui_thread_with_progress_and_cancel(qtbot, win, tmp_path):
    from gradviz.ui.jobs import FileJob

    p = tmp_path / "huge.json"
    _huge_session(p)
    before = snapshot(win)
    # Cancel: nothing changes, and the status bar says so
    job = win.files.open_session_file(str(p))
    assert isinstance(job, FileJob) and not job.done  # the window goes on while it is read
    jobs, ticks = [job], []  # ticks: whether the job then in flight was done, at each timer tick
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(jobs[-1].done))
    timer.start(10)
    try:
        qtbot.waitUntil(lambda: job.dialog is None or job.dialog.value() > 0, timeout=60_000)
        assert job.dialog.objectName() == "fileProgress"
        qtbot.mouseClick(job.dialog.findChild(QPushButton), Qt.MouseButton.LeftButton)  # Cancel
        finish(qtbot, job)
        assert type(job.error).__name__ == "Cancelled" and "cancelled" in win.statusBar().currentMessage()
        assert snapshot(win) == before and False in ticks  # the GUI thread ran meanwhile
        # opened to the end: the session is replaced, its values as written
        ticks.clear()
        jobs.append(win.files.open_session_file(str(p)))
        job = finish(qtbot, jobs[-1])
        assert job.error is None and ticks.count(False) >= 3
    finally:
        timer.stop()
    w = win.document.graph["w"]
    assert np.array_equal(np.asarray(w.values, np.float64), np.full((1000, 1000), 0.001))
    assert win.document.path == str(p) and not win.document.modified
