"""Start-up as `gradviz` launches: a start screen painted before the heavy imports,
saying what is loading, then the main window, which takes over."""

import gc
import os
import subprocess
import sys
import weakref
from pathlib import Path

from PySide6.QtWidgets import QApplication

from conftest import READY

ROOT = Path(__file__).resolve().parents[1]

# a fresh interpreter: what is imported by the time the start screen is on screen
BEFORE_THE_WINDOW = r"""
import sys, time
from gradviz import app as gv_app
from gradviz.ui import start_screen
shown = {}
real = start_screen.StartScreen.show_now.__func__
def spy(cls):
    screen = real(cls)
    shown["modules"] = {m for m in ("pyqtgraph", "gradviz.ui.main_window", "mindspore") if m in sys.modules}
    shown["visible"] = screen.isVisible()
    return screen
start_screen.StartScreen.show_now = classmethod(spy)
if __name__ == "__main__":
    application, window = gv_app.open_window([])
    print(sorted(shown["modules"]), shown["visible"], start_screen.painted_at is not None)
    window.close()
"""


def test_the_start_screen_is_painted_before_the_window_and_its_imports(tmp_path):
    script = tmp_path / "launch.py"
    script.write_text(BEFORE_THE_WINDOW)
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_CONFIG_HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "QT_QPA_PLATFORM": "offscreen",
    }
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    # painted (visible) while neither pyqtgraph, the window's modules nor MindSpore were imported
    assert r.stdout.split("\n")[-2] == "[] True True"


def test_open_window_hands_over_from_the_start_screen_to_a_window_that_gets_ready(qtbot, monkeypatch, tmp_path):
    from gradviz.app import open_window

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    font = QApplication.instance().font()
    gc.enable()  # as in a fresh process (the tests' fixture turns it off in Qt tests, as the app does)
    app, w = open_window([])
    try:
        qtbot.addWidget(w)
        screens = [t for t in QApplication.topLevelWidgets() if t.objectName() == "startScreen"]
        assert not any(s.isVisible() for s in screens)  # closed once the window is shown
        assert w.isVisible()
        qtbot.waitUntil(lambda: w.controller.state == "ready", timeout=READY)
        # no automatic garbage collection (it could free a widget on the engine client's reader
        # thread); cyclic garbage is collected from the GUI thread's event loop
        assert not gc.isenabled()
        cycle = _Cycle()
        cycle.me, gone = cycle, weakref.ref(cycle)
        del cycle
        ballast = [[] for _ in range(2 * gc.get_threshold()[0])]  # allocations enough for a collection
        qtbot.waitUntil(lambda: gone() is None, timeout=5_000)
        del ballast
        w.close()
    finally:
        app._gradviz_collector.timer.stop()
        del app._gradviz_collector
        QApplication.instance().setFont(font)  # the rest of this process's tests keep Qt's default font


class _Cycle:
    """An object that refers to itself: only a garbage collection frees it."""


def test_the_start_screen_says_what_is_loading_in_the_chosen_language(qtbot):
    from PySide6.QtCore import QLocale

    from gradviz.ui import language
    from gradviz.ui.start_screen import StartScreen

    before = QLocale()
    try:
        for lang, lines in (
            ("en", ["Building the window…", "Starting MindSpore in the engine process…"]),
            ("zh_CN", ["正在构建窗口…", "正在引擎进程中启动 MindSpore…"]),
        ):
            language.install(lang)
            s = StartScreen()
            qtbot.addWidget(s)
            assert s.lines == lines
    finally:
        language.install("en")
        QLocale.setDefault(before)
