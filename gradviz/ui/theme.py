"""Colours and fonts, chosen to read on a classroom projector."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont

from ..model.ops import COLOURS

# Parameter colours, shared by the graph editor and the plots.
PARAM_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
KIND_COLORS = COLOURS  # each kind's colour is defined once, in the op table
GRAD_COLOR = "#c2410c"  # gradients are orange everywhere
VALUE_COLOR = "#111827"
MUTED = "#9ca3af"
ERROR_COLOR = "#dc2626"
LOSS_COLOR = "#111827"
NORM_COLOR = "#000000"
CURSOR_COLOR = "#7c3aed"  # time travel: the step shown
BRANCH_COLOR = "#a5b4fc"  # time travel: a future abandoned by a rewind, faint

BASE_POINT_SIZE = 11


def param_color(index: int) -> QColor:
    return QColor(PARAM_COLORS[index % len(PARAM_COLORS)])


def font(size: float = BASE_POINT_SIZE, bold: bool = False, italic: bool = False, mono: bool = False) -> QFont:
    f = QFont("DejaVu Sans Mono" if mono else "DejaVu Sans")
    f.setPointSizeF(size)
    f.setBold(bold)
    f.setItalic(italic)
    return f
