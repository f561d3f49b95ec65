"""Test set-up: offscreen Qt, quiet MindSpore, and a guard that fails any test leaving a
thread, timer or process running."""

import os

os.environ.setdefault("GLOG_v", "3")

import gc
import multiprocessing
import threading
from pathlib import Path

import pytest

# offscreen (read when the QApplication is made), with three screens (Qt orders them by name;
# the first is the primary): a 1920x1080 monitor, a 1280x720 and a 1024x768 projector
# (tests/test_presentation.py opens windows on each)
SCREENS = Path(__file__).with_name("screens.json")
if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={SCREENS}"


def _delete_closed_widgets():
    """Delete closed windows now, at a safe point: left to Python's garbage collector, a window
    can be destroyed in the middle of a later test's signal connection and deadlock Qt."""
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


@pytest.fixture(autouse=True)
def no_leftover_threads_or_processes(request):
    before = {t.ident for t in threading.enumerate()}
    yield
    _delete_closed_widgets()
    leftover = [t for t in threading.enumerate() if t.ident not in before and t.is_alive() and not t.daemon]
    kids = multiprocessing.active_children()
    for p in kids:
        p.kill()
        p.join(5)
    assert not kids, f"test left processes running: {kids}"
    assert not leftover, f"test left threads running: {leftover}"


READY = 60_000  # ms: the engine process imports MindSpore first


@pytest.fixture
def win(qtbot):
    from PySide6.QtCore import QTimer

    from gradviz.ui.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.controller.state == "ready", timeout=READY)
    yield w
    w.close()
    assert not w.controller.engine_running
    active = [
        (t.parent().__class__.__name__, t.objectName(), t.interval()) for t in w.findChildren(QTimer) if t.isActive()
    ]
    assert not active, f"timers still running: {active}"


def alive(pid: int) -> bool:
    """Whether a process (an engine) still exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_state(qtbot, w, *states, timeout=30_000):
    qtbot.waitUntil(lambda: w.controller.state in states, timeout=timeout)


def wait_nodes_at(qtbot, w, step, timeout=30_000):
    """Until the nodes show the parameters after `step` updates."""
    qtbot.waitUntil(lambda: w.controller.nodes is not None and w.controller.nodes.updates == step, timeout=timeout)
