"""The window's status bar: its passing message never runs into the permanent labels.

QStatusBar draws a message up to 2 px before its first permanent widget and clips it there, in
the middle of a letter, so a long message's cut end runs into the first label ("finished").
This bar draws the message cut with "…" to the room left of the labels, a gap before them, and
shows the whole message as the tooltip of the message's part of the bar. `currentMessage()`
stays the whole message."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStatusBar, QStyle, QStyleOption, QToolTip, QWidget

GAP = 12  # px between the message's end and the first permanent label


class StatusBar(QStatusBar):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._permanent: list[QWidget] = []

    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 (Qt's name)
        super().addPermanentWidget(widget, stretch)
        self._permanent.append(widget)

    def removeWidget(self, widget: QWidget) -> None:  # noqa: N802
        super().removeWidget(widget)
        if widget in self._permanent:
            self._permanent.remove(widget)

    def message_rect(self) -> QRect:
        """Where the message is drawn: from Qt's left margin to a gap before the permanent labels
        (or to the size grip's room, as Qt leaves it, when none is shown)."""
        left, right = 6, self.width() - 12
        shown = [w for w in self._permanent if w.isVisible()]
        if self.layoutDirection() == Qt.LayoutDirection.RightToLeft:
            if shown:
                left = max(left, max(w.geometry().right() for w in shown) + GAP)
            right = self.width() - 6
        elif shown:
            right = min(right, min(w.x() for w in shown) - GAP)
        return QRect(left, 0, max(0, right - left), self.height())

    def shown_message(self) -> str:
        """The message as drawn: cut with "…" to its room."""
        return self.fontMetrics().elidedText(
            self.currentMessage(), Qt.TextElideMode.ElideRight, self.message_rect().width()
        )

    def paintEvent(self, event) -> None:  # noqa: N802
        if not self.currentMessage():
            super().paintEvent(event)
            return
        # what QStatusBar paints while a message is shown (the panel, the permanent labels'
        # frames), then the message cut to its room instead of clipped against the labels
        p = QPainter(self)
        opt = QStyleOption()
        opt.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, opt, p, self)
        for w in self._permanent:
            frame = w.geometry().adjusted(-2, -1, 2, 1)
            if w.isVisible() and event.rect().intersects(frame):
                item = QStyleOption()
                item.rect = frame
                item.palette = self.palette()
                item.state = QStyle.StateFlag.State_None
                self.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameStatusBarItem, item, p, w)
        p.setPen(self.palette().windowText().color())
        flags = Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine
        p.drawText(self.message_rect(), int(flags), self.shown_message())
        p.end()

    def event(self, e) -> bool:
        cut = e.type() == QEvent.Type.ToolTip and self.currentMessage() != self.shown_message()
        if cut and self.message_rect().contains(e.pos()):  # the whole message over its cut one
            QToolTip.showText(e.globalPos(), self.currentMessage(), self)
            return True
        return super().event(e)
