"""`gradviz screenshot`: open the window offscreen on a screen of the size asked for, train N
steps, and write the window as a PNG or SVG picture, or an animated GIF of the run (the
time-travel cursor moved across it, as File > Export does). The options were checked by the
command line (gradviz/cli.py) before anything here starts."""

from __future__ import annotations

import json
import os
import sys
import tempfile

SCREEN_DPI = 96
# the window's dock of each bottom tab --tab names (cli.SCREENSHOT_TABS)
TAB_DOCKS = {
    "plots": "plotsDock",
    "experiments": "experimentsDock",
    "program": "codeDock",
    "images": "imagesDock",
    "data": "dataDock",
}


def _application(size: tuple[int, int]):
    """The QApplication; offscreen, its screen is `size` (the offscreen default is 800x800, which
    a window that fits its screen would shrink to)."""
    from PySide6.QtWidgets import QApplication

    from ..safe_io import atomic_write_text
    from .garbage import collect_on_the_gui_thread

    app = QApplication.instance()
    if app is not None:
        return app
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform != "offscreen":
        app = QApplication(["gradviz"])
    else:
        screen = {"name": "screenshot", "x": 0, "y": 0, "width": size[0], "height": size[1]}
        screen.update(logicalDpi=SCREEN_DPI, logicalBaseDpi=SCREEN_DPI, dpr=1)
        with tempfile.TemporaryDirectory(prefix="gradviz-") as folder:
            config = os.path.join(folder, "screen.json")
            atomic_write_text(config, json.dumps({"screens": [screen]}))
            app = QApplication(["gradviz", "-platform", f"offscreen:configfile={config}"])
    collect_on_the_gui_thread(app)  # the window trains here as in the app
    return app


def _language(lang: str | None) -> str | None:
    """The app's language code for --lang (zh or en); None: the system's."""
    from . import language

    return {"zh": "zh_CN", "en": language.SOURCE}.get(lang or "")


def take_screenshot(
    session,
    steps: int,
    out: str,
    fmt: str,
    size: tuple[int, int] = (1600, 1000),
    lang: str | None = None,
    presentation: bool = False,
    frames: int = 20,
    timeout_s: float = 120.0,
    tab: str | None = None,
    make_client=None,
) -> int:
    """`make_client`: the engine client's factory (MainWindow's; the tests' stand-in)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QDeadlineTimer, QEventLoop, QTimer
    from PySide6.QtGui import QAction

    from ..formats.frames import frame_steps, gif_bytes
    from ..model.runstate import Phase
    from ..safe_io import FileProblem, atomic_write_bytes
    from . import language, theme
    from .main_window import MainWindow

    cmd = "gradviz screenshot"
    app = _application(size)
    app.setFont(theme.font(theme.BASE_POINT_SIZE))
    language.install(_language(lang))  # --lang, else the system's; and the bundled Chinese font
    w = MainWindow(session, make_client=make_client)
    w.show()
    w.resize(*size)  # after show, which fits the window to the (offscreen) screen
    w.size_docks()
    if presentation:
        act = w.findChild(QAction, "presentationAction")
        if act is None:
            print(f"{cmd}: error: --presentation: this build has no presentation mode", file=sys.stderr)
            w.close()
            return 2
        if not act.isChecked():
            act.trigger()
    c = w.controller
    deadline = QDeadlineTimer(int(timeout_s * 1000))
    loop = QEventLoop()

    def wait(cond) -> bool:
        while not cond():
            if deadline.hasExpired() or c.state in (Phase.ERROR, Phase.ENGINE_LOST):
                return False
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return True

    ok = wait(lambda: c.state == Phase.READY)
    if ok and steps > 0:
        c.start()
        ok = wait(lambda: c.state in (Phase.FINISHED, Phase.DIVERGED))
        # what the window comes to show once the run ended: its last nodes, or the step time
        # travel shows by default with its numbers (TimeTravel.settled)
        ok = ok and wait(w.timeTravel.settled)
    elif ok:
        ok = wait(lambda: c.nodes is not None)
    if not ok:
        print(f"{cmd}: error: training did not finish ({c.last_error or c.state})", file=sys.stderr)
        w.close()
        return 1
    if ok and tab is not None:
        from PySide6.QtWidgets import QDockWidget

        dock = w.findChild(QDockWidget, TAB_DOCKS[tab])
        if dock is None or dock.isHidden():
            print(f"{cmd}: error: --tab {tab}: this run has no such tab", file=sys.stderr)
            w.close()
            return 2
        dock.raise_()
        if tab == "data":  # the picture of the step shown, once the engine has drawn it
            panel = w.dataPanel
            ok = wait(lambda: panel.in_flight is None and panel.drawn_key == panel.wanted())
    w.plots.refresh()
    w.graphView.fit()
    app.processEvents()
    try:
        if fmt == "gif":
            rec = w.exports.gif_recorder(frame_steps(c.history.steps, frames)).start()
            if not wait(lambda: rec.done) or rec.error:
                print(f"{cmd}: error: the GIF could not be recorded ({rec.error or c.state})", file=sys.stderr)
                w.close()
                return 1
            atomic_write_bytes(out, gif_bytes(rec.frames))
            height, width = rec.frames[0].shape[:2]
            what = f"{width}x{height}, {len(rec.frames)} frames"
        else:
            data, picture = w.exports.picture("window", fmt)
            atomic_write_bytes(out, data)
            what = f"{picture.width()}x{picture.height()}"
    except FileProblem as e:
        print(f"{cmd}: error: {e}", file=sys.stderr)
        w.close()
        return 4
    shot = (w.width(), w.height())
    w.close()
    if shot != tuple(size):
        print(f"{cmd}: note: the window cannot be smaller than {shot[0]}x{shot[1]}", file=sys.stderr)
    print(f"wrote {out} ({what})")
    return 0
