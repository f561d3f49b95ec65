"""The engine watchdog and the window's side of engine faults: a stopped (SIGSTOP) engine is
noticed within about 2 s, the window says so and stays responsive (commands never block the GUI
thread; live options are coalesced), and Wait or Restart keep the session and the history. An
engine error keeps its traceback for the Details… view."""

import os
import signal
import time

import numpy as np
import pytest
from conftest import READY, alive, wait_nodes_at, wait_state
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit

from gradviz.engine import protocol as msg


def _resume(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGCONT)
    except ProcessLookupError:
        pass


def _train(qtbot, win, speed=200):
    win.controls.speedSpin.setValue(speed)
    win.controls.maxStepsSpin.setValue(100000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 5, timeout=30_000)


def _stop_and_wait_for_the_watchdog(qtbot, win, pid):
    os.kill(pid, signal.SIGSTOP)
    t = time.perf_counter()
    wait_state(qtbot, win, "not_answering", timeout=10_000)
    return time.perf_counter() - t


@pytest.mark.real_engine
def test_a_stopped_engine_is_noticed_and_the_window_stays_responsive(qtbot, win):
    c = win.controller
    _train(qtbot, win)
    pid = c.engine_pid
    try:
        noticed = _stop_and_wait_for_the_watchdog(qtbot, win, pid)
        assert 1.5 < noticed < 4.0  # the 2 s watchdog, seen on the next 33 ms tick
        assert win.rateLabel.text() == ""  # no "training at N steps/s" from a stopped engine
        assert win.stateLabel.text() == "engine not answering (was training)"
        assert win.error_shown and "has not answered" in win.errorBanner.text()
        assert win.waitButton.isVisible() and win.restartButton.isVisible()
        assert not win.controls.modeCombo.isEnabled() and "Restart" in win.controls.modeCombo.toolTip()
        assert win.controls.cancelButton.isVisible() and win.controls.cancelButton.text() == "Restart the engine"
        # a command that fills the pipe the stopped engine no longer reads: the sender thread
        # waits, the GUI thread does not; learning-rate changes queue up as one (the latest)
        c._send(msg.Fault("x" * 4_000_000))
        qtbot.waitUntil(lambda: c._client.pending == 0, timeout=5_000)  # taken by the sender
        worst = 0.0
        for i in range(300):
            t = time.perf_counter()
            win.controls.lrSpin.setValue(0.001 + 0.0001 * i)
            worst = max(worst, time.perf_counter() - t)
        assert worst < 0.5, worst  # (a blocking send held it for seconds; this is the GUI's own work)
        assert c._client.pending == 1  # 300 changes, one SetOption waiting
        n = c.history.n
        qtbot.mouseClick(win.waitButton, Qt.MouseButton.LeftButton)
        assert not win.error_shown and c.state == "not_answering" and c.history.n == n
    finally:
        _resume(pid)
    wait_state(qtbot, win, "training", timeout=10_000)  # it answers again: back where it was
    assert c.engine_pid == pid and c.history.n >= n
    qtbot.waitUntil(lambda: c.step_count >= n + 5, timeout=30_000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "paused")
    for _ in range(2):  # commands arrive in order: these steps come after the coalesced change
        k = c.step_count
        qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
        wait_nodes_at(qtbot, win, k + 1)
    h = c.history
    # the last learning rate reached the engine: p[k+1] = p[k] - lr * g[k] with lr = 0.0309
    np.testing.assert_allclose(h.params[-1] - h.params[-2], -0.0309 * h.grads[-2], rtol=1e-3, atol=1e-6)


@pytest.mark.real_engine
def test_restart_keeps_the_session_and_the_history(qtbot, win):
    c = win.controller
    win.controls.seedSpin.setValue(5)
    wait_state(qtbot, win, "ready")
    _train(qtbot, win)
    pid = c.engine_pid
    try:
        _stop_and_wait_for_the_watchdog(qtbot, win, pid)
        n, loss = c.history.n, c.history.loss.copy()
        session = win.document.session.to_json()
        qtbot.mouseClick(win.restartButton, Qt.MouseButton.LeftButton)
        assert not win.error_shown
    finally:
        _resume(pid)
    wait_state(qtbot, win, "reviewing", timeout=READY)
    assert c.engine_pid != pid and not alive(pid)
    assert c.history.n == n and np.array_equal(c.history.loss, loss) and c.recorded
    assert win.document.session.to_json() == session
    assert "saved run" in win.controls.reasonLabel.text() and not win.controls.startButton.isEnabled()
    assert win.saveRunAction.isEnabled()  # the kept history can be saved
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    assert c.history.n == 0 and win.controls.startButton.isEnabled()


@pytest.mark.real_engine
def test_an_engine_error_offers_its_traceback(qtbot, win):
    win.controller._send(msg.Fault("raise"))
    wait_state(qtbot, win, "error")
    assert win.errorBanner.text() == "⚠ RuntimeError: injected fault: the engine raised on purpose"
    assert win.detailsButton.isVisible() and not win.waitButton.isVisible()
    qtbot.mouseClick(win.detailsButton, Qt.MouseButton.LeftButton)
    dialog = win.findChild(object, "detailsDialog")
    text = dialog.findChild(QPlainTextEdit, "detailsText")
    assert text.isReadOnly() and text.toPlainText().startswith("Traceback (most recent call last):")
    assert "in inject" in text.toPlainText()
    dialog.close()
    win.show_error("a message of the window itself")
    assert not win.detailsButton.isVisible()  # no traceback behind it


def test_the_banner_shows_names_as_text_never_markup(qtbot, win):
    win.show_error('Could not open "<h1>big</h1><img width=20000 src=x>"')
    assert win.errorBanner.textFormat() == Qt.TextFormat.PlainText
    assert win.errorBanner.sizeHint().width() < 5000
