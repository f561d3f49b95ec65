"""The window's spin boxes and combo boxes: the mouse wheel changes one only while it has the
focus (a click or Tab gives it), so that scrolling a panel over them never changes the
experiment. Unfocused, the wheel goes on to the panel behind (its scroll area scrolls)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox


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
    pass
