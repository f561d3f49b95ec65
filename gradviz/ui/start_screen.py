"""The start screen: on screen a fraction of a second after launch, saying what is happening.

The main window needs pyqtgraph and numpy (a noticeable part of start-up) and MindSpore needs
more than a second in the engine process; this screen needs neither, so `app.open_window` paints
it first (within the start-up budget of benchmarks/bench.py) and closes it when the main window is shown,
where the status bar takes over ("MindSpore is starting…" until the engine is ready). Qt only:
imported before anything heavy."""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QRect, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QLabel, QWidget

WIDTH, HEIGHT = 560, 200  # logical pixels: fits the smallest projector (1024x768) with room
painted_at: float | None = None  # time.time() when a start screen was last painted (the benchmark reads it)


def _picture(lines: list[str]) -> QPixmap:
    """The screen's picture: the name, a line on what GradViz is, and what is happening."""
    ratio = (QGuiApplication.primaryScreen().devicePixelRatio() if QGuiApplication.primaryScreen() else 1.0) or 1.0
    pixmap = QPixmap(int(WIDTH * ratio), int(HEIGHT * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(QColor("#fbfbfd"))
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    p.setPen(QColor("#c8ccd4"))
    p.drawRect(0, 0, WIDTH - 1, HEIGHT - 1)
    title = QFont("DejaVu Sans")
    title.setPixelSize(40)
    title.setBold(True)
    p.setFont(title)
    p.setPen(QColor("#1f3b73"))
    p.drawText(QRect(32, 28, WIDTH - 64, 56), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, "GradViz")
    body = QFont("DejaVu Sans")
    body.setPixelSize(18)
    p.setFont(body)
    p.setPen(QColor("#333842"))
    top = 96
    for line in lines:
        p.drawText(QRect(32, top, WIDTH - 64, 30), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)
        top += 32
    p.end()
    return pixmap


class StartScreen(QLabel):
    """A frameless window with the picture, shown and painted at once by `show_now`. (Not a
    QSplashScreen: its show waits up to a second for the window system to expose it, offscreen.)"""

    def __init__(self):
        super().__init__(None, Qt.WindowType.SplashScreen | Qt.WindowType.FramelessWindowHint)
        self.setObjectName("startScreen")
        self.lines = [
            QCoreApplication.translate("StartScreen", "Building the window…"),
            QCoreApplication.translate("StartScreen", "Starting MindSpore in the engine process…"),
        ]
        self.setPixmap(_picture(self.lines))
        self.setFixedSize(WIDTH, HEIGHT)
        screen = QGuiApplication.primaryScreen()
        if screen is not None:
            self.move(screen.availableGeometry().center() - self.rect().center())

    @classmethod
    def show_now(cls) -> StartScreen:
        """Show the screen and paint it before returning (the main window is built next, and the
        event loop does not run until it is)."""
        global painted_at
        screen = cls()
        screen.show()
        screen.repaint()
        QApplication.processEvents()
        painted_at = time.time()
        return screen

    def hand_over(self, window: QWidget) -> None:
        """The main window is shown: close this screen (and free it)."""
        self.close()
        self.deleteLater()
