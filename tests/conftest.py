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


class EnginePool:
    """An engine process spawned ahead: the one a test takes has imported MindSpore while
    earlier tests ran. The next is spawned when the test that took one is done (not while it
    runs, whose engine would share the CPU with that import). The spare belongs to the pool,
    not to a test."""

    MODE, DEVICE = "pynative", "CPU"

    def __init__(self):
        self.spare = None  # (process, connection) from entry.spawn, not yet taken

    def take(self):
        from gradviz.engine import entry

        started, self.spare = self.spare or entry.spawn(self.MODE, self.DEVICE), None
        return started

    def refill(self) -> None:
        from gradviz.engine import entry

        if self.spare is None:
            self.spare = entry.spawn(self.MODE, self.DEVICE)

    def owns(self, process) -> bool:
        return self.spare is not None and process is self.spare[0]

    def close(self) -> None:
        if self.spare is not None:
            process, conn = self.spare
            self.spare = None
            conn.close()
            process.kill()
            process.join(5)


POOL = EnginePool()


@pytest.fixture(scope="session", autouse=True)
def engine_pool():
    yield POOL
    POOL.close()


_collected = {"clean": False}  # no garbage made since the last full collection


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Garbage is collected at safe points only while a Qt test runs, as in the app (gradviz/ui/garbage.py):
    an automatic collection runs in whichever thread allocates (here also xdist's), and could
    free a widget there or in the middle of Qt's work (a list of top-level widgets being
    wrapped). A full collection of a worker's heap after every test cost a third of the suite's
    time, so it runs around Qt tests only (their widgets made with Qt's fixtures): before one,
    for the garbage of the tests since the last; after one, once pytest has let go of its
    fixtures' values, for its closed windows."""
    qt = bool({"qtbot", "qapp"} & set(getattr(item, "fixturenames", ())))
    if qt:
        if not _collected["clean"]:
            _delete_closed_widgets()
        gc.disable()
    try:
        yield
    finally:
        if qt:
            _delete_closed_widgets()
            gc.enable()
        _collected["clean"] = qt


@pytest.fixture(autouse=True)
def no_leftover_threads_or_processes(request):
    before = {t.ident for t in threading.enumerate()}
    yield
    leftover = [t for t in threading.enumerate() if t.ident not in before and t.is_alive() and not t.daemon]
    kids = [p for p in multiprocessing.active_children() if not POOL.owns(p)]
    for p in kids:
        p.kill()
        p.join(5)
    assert not kids, f"test left processes running: {kids}"
    assert not leftover, f"test left threads running: {leftover}"


READY = 60_000  # ms: the engine process imports MindSpore first


@pytest.fixture
def win(qtbot, request):
    """The app's window, ready to train: its engine is the stand-in (tests/standin.py), or with
    the `real_engine` marker a real engine process (taken from the pool) and MindSpore."""
    from PySide6.QtCore import QTimer

    from gradviz.engine import entry
    from gradviz.ui.main_window import MainWindow

    if request.node.get_closest_marker("real_engine"):
        entry.hand_over(POOL.MODE, POOL.DEVICE, POOL.take())  # the window's engine client takes it
        w = MainWindow()
    else:
        import standin

        w = MainWindow(make_client=standin.client)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.controller.state == "ready", timeout=READY)
    yield w
    w.close()
    assert not w.controller.engine_running
    if request.node.get_closest_marker("real_engine"):
        POOL.refill()  # for the next test that needs one
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
