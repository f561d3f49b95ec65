"""The window's spin boxes and combo boxes: the mouse wheel changes one only while it has the
focus (a click or Tab gives it), so that scrolling a panel over them never changes the
experiment. Unfocused, the wheel goes on to the panel behind (its scroll area scrolls). A combo
box narrower than its text cuts the text with "…" (Qt clipped it mid-letter: "mindspore.grac")."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox, QStyle, QStyleOptionComboBox, QStylePainter, QToolTip


class _WheelWhenFocused:
    """Mixed in before a Qt field class: strong focus (click or Tab, never the wheel) and the
    wheel ignored while unfocused, so it propagates to the parent."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, e) -> None:
        if self.hasFocus():
            super().wheelEvent(e)
        else:
            e.ignore()


class SpinBox(_WheelWhenFocused, QSpinBox):
    pass


class DoubleSpinBox(_WheelWhenFocused, QDoubleSpinBox):
    pass


class ComboBox(_WheelWhenFocused, QComboBox):
    def _option(self) -> QStyleOptionComboBox:
        """The box's style option as QComboBox paints it: the placeholder, muted, where no item
        is chosen."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        if self.currentIndex() < 0 and self.placeholderText():
            opt.palette.setBrush(QPalette.ColorRole.ButtonText, opt.palette.placeholderText())
            opt.currentText = self.placeholderText()
        return opt

    def shown_text(self) -> str:
        """The text as drawn: cut with "…" to the box's text field."""
        opt = self._option()
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        return self.fontMetrics().elidedText(opt.currentText, Qt.TextElideMode.ElideRight, field.width())

    def paintEvent(self, e) -> None:  # noqa: N802 (Qt's name)
        if self.isEditable():
            super().paintEvent(e)
            return
        p = QStylePainter(self)  # as QComboBox paints itself, with the text elided
        opt = self._option()
        p.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        opt.currentText = self.shown_text()
        p.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)

    def event(self, e) -> bool:
        # a cut text is said whole on hover (where the box has no tooltip of its own)
        if e.type() == QEvent.Type.ToolTip and not self.toolTip() and self.shown_text().endswith("…"):
            QToolTip.showText(e.globalPos(), self.currentText(), self)
            return True
        return super().event(e)
