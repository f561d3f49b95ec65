"""`gradviz screenshot`: open the window offscreen, train N steps, save a PNG of the window."""

from __future__ import annotations

import os
import sys


def take_screenshot(
    preset: str, steps: int, out: str, aux_output: bool = False, mode: str | None = None, timeout_s: float = 120.0
) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QDeadlineTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from ..model.presets import load_preset
    from ..model.session import SessionError
    from . import theme
    from .main_window import MainWindow

    try:
        session = load_preset(preset)
    except SessionError as e:
        print(f"gradviz screenshot: error: {e}", file=sys.stderr)
        return 2
    session.options.aux_output = aux_output and bool(session.graph.aux_outputs())
    session.options.steps = max(steps, 1)
    session.options.until_loss = None
    if mode:
        session.options.mode = mode
    app = QApplication.instance() or QApplication([])
    app.setFont(theme.font(theme.BASE_POINT_SIZE))
    w = MainWindow(session)
    w.show()
    w.resize(1600, 1000)  # after show, which fits the window to the (offscreen) screen
    w.size_docks()
    c = w.controller
    deadline = QDeadlineTimer(int(timeout_s * 1000))
    loop = QEventLoop()

    def wait(cond) -> bool:
        while not cond():
            if deadline.hasExpired() or c.state in ("error", "engine_lost"):
                return False
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return True

    ok = wait(lambda: c.state == "ready")
    if ok and steps > 0:
        c.start()
        ok = wait(lambda: c.state in ("finished", "diverged"))
        ok = ok and wait(lambda: c.nodes is not None and c.nodes.updates == c.updates)
    elif ok:
        ok = wait(lambda: c.nodes is not None)
    if not ok:
        print(f"gradviz screenshot: error: training did not finish ({c.last_error or c.state})", file=sys.stderr)
        w.close()
        return 1
    w.plots.refresh()
    w.graphView.fit()
    app.processEvents()
    img = w.grab()
    saved = img.save(out)
    w.close()
    if not saved:
        print(f"gradviz screenshot: error: could not write {out}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({img.width()}x{img.height()})")
    return 0
