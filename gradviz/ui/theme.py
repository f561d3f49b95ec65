"""Colours and fonts, chosen to read on a classroom projector.

The look has two settings, changed only through `set_look` (by the window's View menu):
`scale`, the factor every font is drawn at (1.5 in presentation mode), and `dark`, the dark
theme. The colour names below (VALUE_COLOR, GRAD_COLOR, ...) are rebound by `set_look`, so code
that reads `theme.X` when it paints follows the look; what was built with a colour (a plot's pen)
is recoloured by the window (gradviz/ui/presentation.py)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QFontMetricsF

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
BRANCH_COLOR = "#818cf8"  # time travel: a future abandoned by a rewind, lighter than the run
# the graph editor's surfaces
SCENE_BG = "#f8fafc"
CARD = "#ffffff"  # a node's body
CARD_TEXT = "#374151"  # a node's secondary text and border
RULE = "#e5e7eb"  # thin separators, the "not computed" hatching
LABEL = "#6b7280"  # the small labels above the numbers
PLOT_BG = "#ffffff"
PLOT_FG = "#000000"

BASE_POINT_SIZE = 11
PRESENTATION_SCALE = 1.5

# each theme's colours; presentation mode raises the contrast of the faint ones
_LIGHT = dict(
    GRAD_COLOR="#c2410c",
    VALUE_COLOR="#111827",
    MUTED="#9ca3af",
    ERROR_COLOR="#dc2626",
    LOSS_COLOR="#111827",
    NORM_COLOR="#000000",
    CURSOR_COLOR="#7c3aed",
    BRANCH_COLOR="#818cf8",
    SCENE_BG="#f8fafc",
    CARD="#ffffff",
    CARD_TEXT="#374151",
    RULE="#e5e7eb",
    LABEL="#6b7280",
    PLOT_BG="#ffffff",
    PLOT_FG="#000000",
)
_LIGHT_CONTRAST = dict(MUTED="#6b7280", LABEL="#374151", CARD_TEXT="#111827", BRANCH_COLOR="#6366f1")
_DARK = dict(
    GRAD_COLOR="#fb923c",
    VALUE_COLOR="#f3f4f6",
    MUTED="#9ca3af",
    ERROR_COLOR="#f87171",
    LOSS_COLOR="#f3f4f6",
    NORM_COLOR="#e5e7eb",
    CURSOR_COLOR="#c4b5fd",
    BRANCH_COLOR="#6366f1",
    SCENE_BG="#0b1220",
    CARD="#1e293b",
    CARD_TEXT="#cbd5e1",
    RULE="#334155",
    LABEL="#94a3b8",
    PLOT_BG="#0f172a",
    PLOT_FG="#e5e7eb",
)
_DARK_CONTRAST = dict(MUTED="#cbd5e1", LABEL="#e2e8f0", CARD_TEXT="#f1f5f9", CARD="#111827", SCENE_BG="#000000")


@dataclass(frozen=True)
class Look:
    scale: float = 1.0  # every font's factor: PRESENTATION_SCALE in presentation mode
    dark: bool = False

    @property
    def presenting(self) -> bool:
        return self.scale != 1.0


LOOK = Look()


def set_look(look: Look) -> None:
    """Make `look` the current one: fonts drawn from now on and the colour names follow it."""
    global LOOK
    LOOK = look
    colours = dict(_DARK if look.dark else _LIGHT)
    if look.presenting:
        colours.update(_DARK_CONTRAST if look.dark else _LIGHT_CONTRAST)
    globals().update(colours)


def param_color(index: int) -> QColor:
    return QColor(PARAM_COLORS[index % len(PARAM_COLORS)])


def pt(size: float) -> float:
    """A point size at the current look's scale."""
    return size * LOOK.scale


def font(
    size: float = BASE_POINT_SIZE, bold: bool = False, italic: bool = False, mono: bool = False, scaled: bool = True
) -> QFont:
    """A font of `size` points at the current look's scale (`scaled=False`: the graph's nodes,
    which the view's zoom fits to the room instead)."""
    f = QFont("DejaVu Sans Mono" if mono else "DejaVu Sans")
    if mono:
        f.setStyleHint(QFont.StyleHint.TypeWriter)  # a monospace font where DejaVu is missing
    f.setPointSizeF(pt(size) if scaled else size)
    f.setBold(bold)
    f.setItalic(italic)
    return f


def digit_height(f: QFont) -> float:
    """How tall the digits of font `f` are, in px at zoom 1: what a reader at the back sees."""
    return QFontMetricsF(f).tightBoundingRect("0123456789").height()
