"""A label whose text changes many times a second while training (the step, the rate, the loss).

QLabel.setText asks its layout to recompute whenever the label's size is not fixed
(QWidget.updateGeometry), and the relayout repaints the status bar and the main window behind it,
many times a second while training flat out, more often than the plots. A LiveLabel fixes
its size to the widest text it has shown at its font, so a new text that fits repaints the label
alone; it grows (one relayout) for a wider text and never shrinks while training, so the labels
beside it stay put. It keeps its width for each font it has had (presentation mode and back); a
change of language fits it afresh to its text."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel

REFIT_EVENTS = (QEvent.Type.FontChange, QEvent.Type.LanguageChange, QEvent.Type.StyleChange)


class LiveLabel(QLabel):
    def __init__(self, text: str = "", parent=None, least_text: str = ""):
        super().__init__(text, parent)
        self._least = least_text  # the label is at least as wide as this text, at its font
        self._widths: dict[str, int] = {}  # font -> the widest text's width at it
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        if text == self.text():
            return
        super().setText(text)
        self._fit()

    def _fit(self) -> None:
        """Fixed at the widest text shown at this font: back from another font (presentation
        mode) the label is exactly as wide as it was, and the window's layout with it. Measured
        from the font: QLabel's sizeHint() is never below its minimum size, here the fixed one."""
        fm = QFontMetrics(self.font())
        m, pad = self.contentsMargins(), 2 * self.margin()
        if self.text():
            text = fm.boundingRect(QRect(0, 0, 4000, 400), int(self.alignment()), self.text()).width()
        else:
            text = fm.averageCharWidth()  # as QLabel sizes an empty label
        width = max(text, fm.horizontalAdvance(self._least)) + m.left() + m.right() + pad
        key = self.font().key()
        width = self._widths[key] = max(width, self._widths.get(key, 0))
        self.setFixedSize(width, fm.height() + m.top() + m.bottom() + pad)  # unchanged: no relayout

    def changeEvent(self, event) -> None:  # noqa: N802
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self._widths.clear()  # other words: fitted afresh as they come
        if event.type() in REFIT_EVENTS:
            self._fit()
