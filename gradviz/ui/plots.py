"""Live plots: loss, every parameter element, every gradient element and the gradient norm,
plus heat maps of matrix parameters and their gradients.

Curves are created once per run (when its layout is known): one curve item per tensor, whose
elements are separate lines of the same colour as the node in the graph editor. They are fed
from History.view(), which gives every step when few are visible and a min/max envelope of
about a thousand points otherwise, so a million-step run redraws as fast as a short one."""

from __future__ import annotations

from collections.abc import Callable
import html
import re
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QGraphicsItem,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QFrame,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..i18n import QT_TRANSLATE_NOOP
from ..model.colorscale import bar_labels, bar_span, row_scale
from ..model.formatting import fmt_number
from ..model.history import History
from ..model.layout import Layout
from ..model.recording import STATS, numel
from ..model.steps import heatmap_title, last_eval, state_at
from . import theme
from .heatmap import LUT
from .language import tr_msg
from .presentation import _scale_pt

pg.setConfigOptions(antialias=False, background="w", foreground="k")
TICK_GAP = 1.1  # a y axis's labelled ticks at least this many text heights apart
TICK_GAP_X = 1.0  # an x axis's labels at least this many digits' width apart, besides their own widths


def _nice_spacing(want: float) -> float:
    """The finest 1, 2 or 5 x 10^k at least `want`."""
    major = 10.0 ** np.floor(np.log10(want))
    for m in (1.0, 2.0, 5.0):
        if m * major >= want * (1 - 1e-9):
            return m * major
    return 10 * major


class SpacedAxis(pg.AxisItem):
    """An axis whose labels never overlap or run together, also in a short or narrow plot:
    on a linear scale labelled ticks 1, 2 or 5 x 10^k apart, at least TICK_GAP text heights on
    a y axis (pyqtgraph's own spacing put "0.6", "0.4", "0.2" over each other in a 70-pixel
    plot) and the widest label plus TICK_GAP_X digits on an x axis (it wrote "100200300" in a
    narrow plot); on a log scale the decades, then 2 and 5 x 10^k, then every 1-9 x 10^k, the
    finest set whose labels are all apart by two text heights."""

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802, N803 (pyqtgraph's names)
        span = abs(maxVal - minVal)
        if self.logMode or self._tickSpacing is not None or not np.isfinite(span) or span <= 0 or size <= 0:
            return super().tickSpacing(minVal, maxVal, size)
        fm = QFontMetricsF(self.style["tickFont"] or theme.font(10))
        if self.orientation in ("left", "right"):
            # a label's height as pyqtgraph lays the labels out (its ascent: the leading is not drawn)
            most = max(1, int(size // (TICK_GAP * fm.ascent())))  # labelled ticks that fit the axis's length
            major = _nice_spacing(span / most)
        else:  # the widest label at the spacing chosen, which sets the decimals: twice settles it
            major = _nice_spacing(span * fm.horizontalAdvance("0") * (TICK_GAP_X + 1) / size)
            for _ in range(2):
                ends = self.tickStrings([minVal, maxVal], self.scale, major)
                box = QRectF(0, 0, 100, 100)  # as pyqtgraph measures a label (a little wider than its advance)
                widest = max(fm.boundingRect(box, Qt.AlignmentFlag.AlignCenter, t).width() for t in ends)
                room = widest + TICK_GAP_X * fm.horizontalAdvance("0")
                # neighbours' centres `room` px apart; pyqtgraph's `size` runs a pixel or two past the line's ends
                major = _nice_spacing(span * room / max(size - 4, 1))
        return [(major, 0.0)]  # one level: pyqtgraph labels its minor levels too where they seem to fit

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        """An x axis's thousands as "5k", "100k": the long "100000" left no room for a second label."""
        if self.orientation in ("top", "bottom") and spacing * scale >= 1000 and not self.logMode:
            return [f"{v * scale / 1000:g}k" if v else "0" for v in values]
        return super().tickStrings(values, scale, spacing)

    def boundingRect(self):  # noqa: N802 (Qt's name)
        """An x axis's labels may stand past the ends of its line up to the plot's own edges
        (pyqtgraph drops a label not inside: a narrow plot's "0" and last step went, leaving one
        label); no further, where the plot widget would cut them."""
        rect = super().boundingRect()
        if self.orientation in ("top", "bottom") and self.parentItem() is not None:
            outer = self.mapRectFromParent(self.parentItem().boundingRect())
            rect.setLeft(min(rect.left(), outer.left()))
            rect.setRight(max(rect.right(), outer.right()))
        return rect

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802, N803 (pyqtgraph's names)
        if not (np.isfinite(minVal) and np.isfinite(maxVal)) or maxVal <= minVal or size <= 0:
            return []
        per_decade = size / (maxVal - minVal)
        room = 2 * QFontMetricsF(self.style["tickFont"] or theme.font(10)).height()
        lo, hi = int(np.floor(minVal)), int(np.ceil(maxVal))
        decades = [float(v) for v in range(lo, hi + 1) if minVal <= v <= maxVal]
        step = max(1, int(np.ceil(room / per_decade))) if per_decade > 0 else 1
        levels = [(float(step), [v for v in decades if int(v) % step == 0])]
        for mantissas in ((1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 5)):
            gaps = np.diff(np.log10(mantissas + (10,)))
            if step == 1 and gaps.min() * per_decade >= room:
                minor = [v + np.log10(m) for v in range(lo, hi) for m in mantissas[1:]]
                levels.append((None, [v for v in minor if minVal <= v <= maxVal]))
                break
        return levels


def _plot(name: str, title: str, ylabel: str) -> pg.PlotWidget:
    w = pg.PlotWidget(axisItems={"left": SpacedAxis("left"), "bottom": SpacedAxis("bottom")})
    w.setObjectName(name)
    _title(w, title, ylabel)
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMenuEnabled(True)
    for ax in ("left", "bottom"):
        w.getAxis(ax).setTickFont(theme.font(10))
        w.getAxis(ax).enableAutoSIPrefix(False)  # "(x1e+27)" beside 8e+10 ticks misleads
    w.setMinimumHeight(160)
    return w


def _title(w: pg.PlotWidget, title: str, ylabel: str, note: str = "") -> None:
    """The title and axis labels in the current language (title, ylabel: marked in context
    PlotPanel), the key of the plot's lines after the title (`w.gv_key`: (name, colour, dashed));
    `note`, already translated, in small type under the title (what the plot shows of a large
    run). The key is in the title row, not over the lines: a legend inside a plot 100 pixels
    high covered the curves it named. `w.gv_fit` (fit_titles): how many entries of the key fit,
    whether on a line of their own, and the note as cut to one line; the plot's tooltip names
    the rest."""
    w.gv_titles = (title, ylabel)
    new_note = note != getattr(w, "gv_note", note)
    w.gv_note = note
    if new_note and getattr(w, "gv_fit", None) is not None:  # the fit made for the last note would not do
        w.gv_fit = _key_fit(w, np.floor(_fit_room(w)))
    key = getattr(w, "gv_key", ())
    shown, own_line, note_line, first = getattr(w, "gv_fit", None) or (len(key), False, note, "")
    small = "<br>" + _note_html(note_line) if note_line else ""
    text = (
        _head_html(w)
        + ("<br>" if own_line and key else "")
        + _key_html(key, shown, lead=not own_line, first=first)
        + small
    )
    label = w.plotItem.titleLabel
    if theme.LOOK.scale != 1.0:  # presentation mode's sizes, as its restyle writes them
        w.setTitle(_scale_pt(text, theme.LOOK.scale))
        label._gv_text, label._gv_shown = text, label.text
    else:
        w.setTitle(text)
    w.setLabel("bottom", QCoreApplication.translate("PlotPanel", "step"))
    w.setLabel("left", QCoreApplication.translate("PlotPanel", ylabel))
    w.plotItem.showLabel("bottom", not _short(w))  # setLabel shows it
    tip = [getattr(w, "gv_tip", "")] + ([note] if note != note_line else [])  # what the row leaves out
    w.setToolTip("\n".join(t for t in tip if t))


TITLE_PT, KEY_MARK_PT, KEY_NAME_PT, NOTE_PT = 13, 12, 11, 9  # the title row's sizes (x the look's scale)
TITLE_SHARE = 0.4  # of a plot's height at most for its title row with the note under it
SHORT_PLOT = 180  # px (x the look's scale): a plot shorter than this keeps its key on the title's line


def _head_html(w: pg.PlotWidget) -> str:
    """The plot's title as its title row writes it, bold, in the current language."""
    title = QCoreApplication.translate("PlotPanel", w.gv_titles[0])
    return f"<span style='font-size:{TITLE_PT}pt; font-weight:bold'>{title}</span>"


def _short(w: pg.PlotWidget) -> bool:
    """A plot too short for a key line of its own and for its x axis's label ("step": the ticks
    say it): the lines keep the room."""
    return w.height() < SHORT_PLOT * theme.LOOK.scale


def _key_html(key, shown: int | None = None, lead: bool = True, first: str = "") -> str:
    """The key after a title: each line's mark in its colour, then its name; the entries may
    wrap between them, never inside one. `shown`: the first entries written, then "+n" for the
    others (the plot's tooltip names them all); -1: no key. `first`: the first name as cut to fit."""
    shown = len(key) if shown is None else shown
    if shown < 0:  # no room for any of it: the plot's tooltip names the lines
        return ""
    marks = [
        f"<span style='font-size:{KEY_MARK_PT}pt; color:{QColor(color).name()}'>{'┅' if dashed else '━'}</span>"
        f"&nbsp;<span style='font-size:{KEY_NAME_PT}pt'>{html.escape(name)}</span>"
        for name, color, dashed in ([(first, *key[0][1:])] + list(key[1:]) if first and key else key)[:shown]
    ]
    if shown < len(key):
        marks.append(f"<span style='font-size:{KEY_NAME_PT}pt'>+{len(key) - shown}</span>")
    return (("&nbsp; " if lead else "") + " &nbsp; ".join(marks)) if marks else ""


def _html_width(w: pg.PlotWidget, text: str) -> float:
    """How wide the title label draws `text` (HTML, at the look's scale) on one line."""
    label = w.plotItem.titleLabel
    # A document of our own, not document().clone(): a clone's wrapper can be a stale one of a
    # deleted object at the same address (PySide), and deleteLater raced the measurement.
    src, doc = label.item.document(), QTextDocument()
    doc.setDefaultFont(src.defaultFont())
    doc.setDocumentMargin(src.documentMargin())
    doc.setDefaultTextOption(src.defaultTextOption())
    size = f"font-size: {label.opts['size']}; " if "size" in label.opts else ""  # as LabelItem.setText wraps it
    doc.setHtml(f"<span style='{size}'>{_scale_pt(text, theme.LOOK.scale) if theme.LOOK.scale != 1.0 else text}</span>")
    return doc.size().width()


def _key_fit(w: pg.PlotWidget, room: float) -> tuple[int, bool, str, str]:
    """How much of the title row fits `room` px: (entries of the key shown, on a line of their
    own, the note cut to one line, the first name cut with "…" where no whole one fits). The key
    shares the title's line where it fits there whole, or where the plot is short (a line of its own would take the lines' room: the lines keep
    their nodes' colours); else it takes one line of its own. The entries that do not fit are
    "+n"; with no name shown there is no key (-1)."""
    key, head = getattr(w, "gv_key", ()), _head_html(w)
    room -= 4  # not to the last pixel: the label's own rounding

    def fits(n: int, beside: bool) -> bool:
        line = (head if beside else "") + _key_html(key, n, lead=beside)
        return _html_width(w, line) <= room  # on one line

    # "+n" follows a name, never stands alone ("参数 +2" said nothing the tooltip does not): -1, no key
    same = next((n for n in range(len(key), 0, -1) if fits(n, True)), -1 if key else 0)
    alone = next((n for n in range(len(key), 0, -1) if fits(n, False)), 0)
    short = _short(w)
    if same == len(key) or alone <= same or short:
        shown, own_line = same, False
    else:
        shown, own_line = alone, True
    first = ""
    if own_line and shown == 0 and key:  # not even one name whole: the first one cut
        name = key[0][0]
        for k in range(len(name) - 1, 1, -1):
            if _html_width(w, _key_html(key, 1, lead=False, first=name[:k] + "…")) <= room:
                shown, first = 1, name[:k] + "…"
                break
        else:
            shown, own_line = -1, False
    fm, cut = QFontMetricsF(theme.font(NOTE_PT)), room
    note = w.gv_note
    rows = QFontMetricsF(theme.font(TITLE_PT, bold=True)).height() * (2 if own_line and key else 1)
    if note and (rows + fm.height() > TITLE_SHARE * w.height() or short and theme.LOOK.scale > 1.0):
        # no room for the note under the title (presentation's type on a short plot): in the tooltip
        note = ""
    while note and cut > 20 and _html_width(w, _note_html(note)) > room:  # measured as the label draws it
        cut -= 8
        note = fm.elidedText(w.gv_note, Qt.TextElideMode.ElideRight, cut)
    return shown, own_line, note, first


def _note_html(note: str) -> str:
    """The note under a title, on one line: its spaces do not break (it is cut to fit instead)."""
    return f"<span style='font-size:{NOTE_PT}pt'>{html.escape(note).replace(' ', '&nbsp;')}</span>"


TITLE_ROW = 30  # px: pyqtgraph's title row, kept while the title is one line


AXIS_ALLOWANCE = 48  # px (x the look's scale): a y axis's width as the key's fit assumes it


def _fit_room(w: pg.PlotWidget) -> float:
    """The title's width for fitting the key and note: the plot item less its margins and its y
    axis's width, the widest it has been since the plot was set up (`gv_axis`, at least the
    allowance). Not the axis's width of the moment, which changes with its tick labels, which
    change with the plot's height, which the key's lines change: that went round for ever; a
    width that only grows settles, and a fixed allowance alone was narrower than a real axis
    ("0.8" and a label): the key was drawn past the title's edge."""
    pi = w.plotItem
    left, _top, right, _bottom = pi.layout.getContentsMargins()
    w.gv_axis = max(getattr(w, "gv_axis", 0.0), AXIS_ALLOWANCE * theme.LOOK.scale, pi.getAxis("left").width())
    # the widget's width, not the item's: a title wider than the room widens the item past it
    return min(pi.width(), w.contentsRect().width()) - left - right - w.gv_axis


def _wrap_title(w: pg.PlotWidget) -> float:
    """The title and its note wrapped to the room over the plot: unwrapped, a long note (a large
    run's, in a narrow column) sets the title's minimum width, which widens the plot past the
    widget's edge and cuts the note's end. The height its lines take."""
    label = w.plotItem.titleLabel
    item = label.item
    room = max(40.0, np.floor(_fit_room(w)))  # not the axis's own width: see _fit_room
    before = item.textWidth()
    item.setTextWidth(-1.0)  # its width unwrapped
    width = room if item.boundingRect().width() > room else -1.0
    item.setTextWidth(width)
    if width != before:
        label.setText(label.text)  # its minimum size from the lines as wrapped
    return label.itemRect().height()


HEAT_COLUMN = 200  # px: the heat maps' column at least (x the look's scale)
HEAT_MAP_MIN = 48  # px (x the look's scale): a heat map's height at least; the column scrolls for more
HEAT_TITLE_PT = 11  # a heat map's title (x the look's scale)
HEAT_MARGIN, HEAT_SPACING = 4, 6  # px: around the heat maps' column, and between its rows


def _label_metrics(label: pg.LabelItem) -> QFontMetricsF:
    """The metrics of a pyqtgraph label's text as drawn: its font at the size it was given."""
    f = QFont(label.item.font())
    f.setPointSizeF(float(str(label.opts.get("size", f"{HEAT_TITLE_PT}pt")).rstrip("pt")))
    return QFontMetricsF(f)


def _heat_title(name: str, grads: bool, fm: QFontMetricsF, room: float) -> str:
    """A heat map's title as it fits `room` px: on one line; else broken after "∂L/∂"; else
    the name cut with "…"."""
    head = "∂L/∂" if grads else ""
    if fm.horizontalAdvance(head + name) <= room:
        return html.escape(head + name)
    cut = name if fm.horizontalAdvance(name) <= room else fm.elidedText(name, Qt.TextElideMode.ElideRight, room)
    return f"{head}<br>{html.escape(cut)}" if head else html.escape(cut)


PLOT_BODY = 100  # px (x the look's scale): a plot's lines at least, beside its y axis
# The row's panels, most wanted first: where the row is too narrow for all of them, the last
# ones fold into its "more" button (a 1024-pixel screen, presentation mode's larger type).
ROW_ORDER = ("lossPlot", "accuracyPlot", "gradPlot", "paramPlot", "heatMaps")
# how the width the shown panels do not need is shared among them
ROW_SHARE = {"lossPlot": 4, "paramPlot": 5, "gradPlot": 5, "heatMaps": 1, "accuracyPlot": 4}
POINTS_PER_PIXEL = 2  # per line: a min and a max for each horizontal pixel of the widest plot
MIN_POINTS = 200  # a plot not laid out yet (zero wide) still draws its line
# a single step draws no line: while few steps are in view every sample is also a dot
FEW_POINTS = 30
MAX_DOTS = 2000  # per tensor (a large tensor's dots would slow the first redraws; one step always has them)
DOT_SIZE = 7
EXPLODED = 2.0  # an abandoned branch's loss above this times the run's largest is left out of the y range
HEAT_SECONDS = 0.25  # heat maps show the latest values, a few times a second


def _curve(w: pg.PlotWidget, color, name: str | None = None, width: float = 1.0, style=Qt.PenStyle.SolidLine):
    return w.plot(pen=pg.mkPen(color, width=width, style=style), name=name)


def _lines(w: pg.PlotWidget, color, name: str) -> pg.PlotCurveItem:
    """The lines of a tensor's elements, redrawn 30 times a second while training: a bare
    PlotCurveItem (PlotDataItem's data pipeline is not needed) drawn as line segments
    (QPainter.drawLines, no QPainterPath to build each frame), which keeps the window's CPU use
    low while training."""
    item = pg.PlotCurveItem(pen=pg.mkPen(color, width=1.0), name=name)
    item.setSegmentedLineMode("on")
    w.addItem(item)
    return item


class ElidedLabel(QLabel):
    """One line of text that never asks for more width than it is given: it is cut with "…" to
    fit (the whole text is its tooltip), so a long readout cannot widen the window."""

    def __init__(self, text: str = ""):
        super().__init__()
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._full = text
        self.setToolTip(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def _elide(self) -> None:
        super().setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(self.width(), 1)))

    def resizeEvent(self, e) -> None:  # noqa: N802
        super().resizeEvent(e)
        self._elide()

    def changeEvent(self, e) -> None:  # noqa: N802
        super().changeEvent(e)
        if e.type() == QEvent.Type.FontChange:
            self._elide()

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(0, super().sizeHint().height())


class HoverReadout:
    """Shows the values under the mouse in a label: 'step 120: loss 0.5312'."""

    def __init__(self, plot: pg.PlotWidget, label: QLabel, text_at):
        self.plot, self.label, self.text_at = plot, label, text_at
        self.proxy = pg.SignalProxy(plot.scene().sigMouseMoved, rateLimit=30, slot=self._moved)

    def _moved(self, evt) -> None:
        pos = evt[0]
        vb = self.plot.getPlotItem().vb
        if not self.plot.sceneBoundingRect().contains(pos):
            return
        x = vb.mapSceneToView(pos).x()
        self.label.setText(self.text_at(int(round(x))))


class PlotPanel(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.lossPlot = _plot(
            "lossPlot", QT_TRANSLATE_NOOP("PlotPanel", "Loss"), QT_TRANSLATE_NOOP("PlotPanel", "loss")
        )
        self.paramPlot = _plot(
            "paramPlot", QT_TRANSLATE_NOOP("PlotPanel", "Parameters"), QT_TRANSLATE_NOOP("PlotPanel", "value")
        )
        self.gradPlot = _plot(
            "gradPlot", QT_TRANSLATE_NOOP("PlotPanel", "Gradients"), QT_TRANSLATE_NOOP("PlotPanel", "dL/dp")
        )
        # over a Dataset node: the accuracy after each epoch, on the training and the test set
        self.accuracyPlot = _plot(
            "accuracyPlot", QT_TRANSLATE_NOOP("PlotPanel", "Accuracy"), QT_TRANSLATE_NOOP("PlotPanel", "accuracy")
        )
        self.accuracyPlot.setVisible(False)
        self.logCheck = QCheckBox(self.tr("log scale"))
        self.logCheck.setObjectName("lossLogCheck")
        self.logCheck.toggled.connect(self._log_toggled)
        self.readout = ElidedLabel(self._readout_hint())
        self.readout.setObjectName("plotReadout")
        self.readout.setFont(theme.font(11, mono=True))
        self.heat = pg.GraphicsLayoutWidget()
        self.heat.setObjectName("heatMaps")
        # the maps scroll (a visible bar) where the row is too short for each at HEAT_MAP_MIN:
        # squeezed, three matrices' maps were lines a pixel high
        self.heatPanel = QScrollArea()
        self.heatPanel.setObjectName("heatPanel")
        self.heatPanel.setWidget(self.heat)
        self.heatPanel.setWidgetResizable(True)
        self.heatPanel.setFrameShape(QFrame.Shape.NoFrame)
        self.heatPanel.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.heatPanel.setMinimumWidth(HEAT_COLUMN)
        self.heatPanel.setVisible(False)
        self.heatPanel.viewport().installEventFilter(self)
        self._heat_rows: dict[str, int] = {}  # each matrix's title row in the heat maps' layout
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(self.logCheck)
        self.followCheck = QCheckBox(self.tr("follow the run"))
        self.followCheck.setObjectName("followCheck")
        self.followCheck.setChecked(True)
        self.followCheck.setToolTip(self.tr("Keep the whole run in view. Zooming or panning a plot turns this off."))
        self.followCheck.toggled.connect(self.set_follow)
        top.addWidget(self.followCheck)
        top.addWidget(self.readout, 1)
        self.foldedPlotsButton = QToolButton()
        self.foldedPlotsButton.setObjectName("foldedPlotsButton")
        self.foldedPlotsButton.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.foldedPlotsButton.setMenu(QMenu(self.foldedPlotsButton))
        self.foldedPlotsButton.menu().triggered.connect(lambda a: self.unfold(a.data()))
        self.foldedPlotsButton.setVisible(False)
        top.addWidget(self.foldedPlotsButton)
        lay.addLayout(top)
        grid = QGridLayout()
        self.panels = {  # the row, left to right
            "lossPlot": self.lossPlot,
            "paramPlot": self.paramPlot,
            "gradPlot": self.gradPlot,
            "heatMaps": self.heatPanel,
            "accuracyPlot": self.accuracyPlot,
        }
        for c, panel in enumerate(self.panels.values()):
            grid.addWidget(panel, 0, c)
        self._grid = grid
        self._wanted = {"lossPlot": True, "paramPlot": True, "gradPlot": True, "heatMaps": False, "accuracyPlot": False}
        self._unfolded: str | None = None  # the panel chosen on the "more" button: kept in the row
        self.folded: tuple[str, ...] = ()
        self._desk = True  # set_desk_controls
        lay.addLayout(grid, 1)
        self.history = None
        self._version = -1
        self._range_dirty = False
        self._connect_cache: dict = {}
        self._heat_time, self._heat_version = 0.0, -1  # when the heat maps were drawn, of which history
        self.follow = True
        self._ranges: dict = {}
        for w in (self.paramPlot, self.gradPlot, self.accuracyPlot):
            w.setXLink(self.lossPlot)
        self.accuracyPlot.setYRange(0.0, 1.0, padding=0.02)
        self.accuracyPlot.getPlotItem().hideButtons()
        self.accuracyPlot.getPlotItem().vb.setMouseEnabled(y=False)
        self.evals: tuple = ()
        self._evals_drawn: tuple | None = None
        for w in (self.lossPlot, self.paramPlot, self.gradPlot):
            w.getPlotItem().vb.disableAutoRange()
            w.getPlotItem().hideButtons()
            w.getPlotItem().vb.sigRangeChangedManually.connect(self._manual_range)
            for ax in ("left", "bottom"):  # axes are redrawn from a cache unless their range changed
                w.getAxis(ax).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.loss_curve = _curve(self.lossPlot, theme.LOSS_COLOR, width=2)
        # the evaluations: the test loss on the loss plot, both accuracies on theirs
        self.test_loss_curve = self.lossPlot.plot(
            [],
            [],
            pen=pg.mkPen(theme.GRAD_COLOR, width=2, style=Qt.PenStyle.DashLine),
            symbol="o",
            symbolSize=6,
            symbolBrush=theme.GRAD_COLOR,
            symbolPen=None,
        )
        self.accuracyPlot.addLegend(offset=(-10, -10))
        self.train_accuracy_curve = self.accuracyPlot.plot(
            [],
            [],
            pen=pg.mkPen(theme.PARAM_COLORS[0], width=2),
            symbol="o",
            symbolSize=6,
            symbolBrush=theme.PARAM_COLORS[0],
            symbolPen=None,
            name=self.tr("train"),
        )
        self.test_accuracy_curve = self.accuracyPlot.plot(
            [],
            [],
            pen=pg.mkPen(theme.GRAD_COLOR, width=2, style=Qt.PenStyle.DashLine),
            symbol="o",
            symbolSize=6,
            symbolBrush=theme.GRAD_COLOR,
            symbolPen=None,
            name=self.tr("test"),
        )
        self.bad_marks = pg.ScatterPlotItem(
            symbol="x", size=16, pen=pg.mkPen(theme.ERROR_COLOR, width=2.5), brush=pg.mkBrush(theme.ERROR_COLOR)
        )
        self.bad_marks.setVisible(False)  # hidden items are not painted: an empty scatter still costs a frame
        self.lossPlot.addItem(self.bad_marks)
        self.bad_lines: list[pg.InfiniteLine] = []
        self._fitting_titles = False
        for w in (self.lossPlot, self.paramPlot, self.gradPlot):
            w.plotItem.vb.sigResized.connect(self.fit_titles)
        for w in (self.lossPlot, self.paramPlot, self.gradPlot, self.accuracyPlot):
            # and when the widget is resized: a title wider than a narrowed widget holds the
            # plot item (and its view box) at their old width, past the widget's edge
            w.installEventFilter(self)
        self.param_curves: list = []
        self.param_dots: list = []
        self.grad_dots: list = []
        self._dots_shown = False
        self.grad_curves: list = []
        self.norm_curve = None
        self.images: list[tuple[pg.ImageItem, str, int, tuple]] = []
        self.heat_bars: list[pg.ColorBarItem] = []  # under each heat map: its colours' numbers
        self.heat_scales: list[float] = []  # each heat map's S: colours from -S to +S (model/colorscale.py)
        self.heat_titles: list[tuple[pg.LabelItem, str, bool]] = []  # (label, tensor, is a gradient)
        self.heat_caption: pg.LabelItem | None = None  # the step the heat maps show
        self.heat_step = 0  # the step the heat maps show (the history's last), 0 before any
        self.shown_step: int | None = None  # time travel: the step shown (None: the last)
        # the step the window's labels name (model.shown's named_step; None: the history's last):
        # with no step chosen in time travel the heat maps show it, so they name it too
        self.named_step: Callable[[], int | None] = lambda: None
        self.cursors: list[pg.InfiniteLine] = []
        self.branch_curves: list = []  # faint loss curves of futures abandoned by a rewind
        self.branch_marks: list = []  # where an abandoned future stopped being finite
        self._branch_sorted = {log: _by_size(np.zeros(0)) for log in (False, True)}  # see set_branches
        self._hover = [
            HoverReadout(p, self.readout, t)
            for p, t in (
                (self.lossPlot, self._text_loss),
                (self.paramPlot, lambda s: self._text_elements(s, False)),
                (self.gradPlot, lambda s: self._text_elements(s, True)),
            )
        ]

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Resize:
            if obj is self.heatPanel.viewport():  # its scroll bar came or went
                self.fit_heat_maps()
            else:
                self.fit_titles()
        return False

    def _retranslate(self) -> None:
        """Titles, keys, axes and line labels in the new language (language.py does the widgets)."""
        self._note_thinning(force=True)
        self._describe_lines()
        for c in self.cursors:
            c.label.setFormat(self.tr("step {value:.0f}"))
        for ln in self.bad_lines:
            ln.label.setFormat(self.tr("not finite"))
        self.readout.setText(self._readout_hint())
        self._name_folded()
        self.heat_step = -1  # retitle the heat maps
        self.fit_labels()
        if self.history is not None and self.history.n:
            self.refresh(force=True)

    def _describe_lines(self) -> None:
        """The parameter and gradient plots' keys (each tensor in its node's colour, the norm
        dashed) and, as their tooltips, what each tensor's lines are (its elements, or a summary)."""
        for w, curves in ((self.paramPlot, self.param_curves), (self.gradPlot, self.grad_curves)):
            key = [(item.name(), item.opts["pen"].color(), False) for item, _off, _size in curves]
            if w is self.gradPlot and curves:
                key.append(("‖grad‖", theme.NORM_COLOR, True))
            w.gv_key, w.gv_fit = tuple(key), None
            w.gv_tip = "\n".join(self._element_label(item.name(), size) for item, _off, size in curves)
            w.setToolTip(w.gv_tip)

    def _element_label(self, name: str, size: int) -> str:
        full = self.history.param_layout.summaries.get(name) if self.history is not None else None
        if full is not None:  # model/recording.py: what a summarised tensor's lines are
            return self.tr("{name} (summary: min, max, mean, quantiles; {samples} of {size} elements)").format(
                name=name, samples=size - len(STATS), size=f"{numel(full):,}"
            )
        return name if size == 1 else self.tr("{name} ({size} elements)").format(name=name, size=size)

    def _note_thinning(self, force: bool = False) -> None:
        """Under each title, what a large run's plots show: large tensors as summaries, and the
        steps kept once the history's budget made it thin out old ones."""
        h = self.history
        key = (h.stride, h.budget) if h is not None else None
        if key == getattr(self, "_noted", None) and not force:
            return
        self._noted = key
        notes = []
        if h is not None and h.param_layout.summaries:
            notes.append(self.tr("large tensors: summaries and sampled elements"))
        if h is not None and h.stride > 1:
            notes.append(
                self.tr("every {n}th step kept (history budget {mb} MB)").format(n=h.stride, mb=h.budget >> 20)
            )
        for w in (self.lossPlot, self.paramPlot, self.gradPlot):
            _title(w, *w.gv_titles, "; ".join(notes) if w is not self.lossPlot or h and h.stride > 1 else "")
        self.fit_titles()

    def fit_titles(self, *_args) -> None:
        """Each plot's title and note wrapped to its plot's width, its title row as tall as its
        lines (not the tallest of the three: in presentation mode at 1280x720 that left the loss
        plot, which has no note, a few pixels high). Also whenever a plot's width changes (its left
        axis widens with its tick labels)."""
        if self._fitting_titles:
            return
        self._fitting_titles = True
        try:
            for w in (self.lossPlot, self.paramPlot, self.gradPlot, self.accuracyPlot):
                fit = _key_fit(w, np.floor(_fit_room(w)))
                if fit != getattr(w, "gv_fit", None):  # the key and note as much as fits one line each
                    w.gv_fit = fit
                    _title(w, *w.gv_titles, w.gv_note)
                height = max(TITLE_ROW, float(np.ceil(_wrap_title(w))))
                label = w.plotItem.titleLabel
                # a short plot's lines take the x axis label's row ("step": the ticks say it)
                w.plotItem.showLabel("bottom", not _short(w))
                if label.maximumHeight() != height:
                    label.setMaximumHeight(height)
                    w.plotItem.layout.setRowFixedHeight(0, height)
        finally:
            self._fitting_titles = False

    # -- fitting narrow plots (a 1024-pixel screen, presentation mode's larger text) -------------
    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        self.fit_labels()

    def fit_labels(self, new_look: bool = False) -> None:
        """Nothing cut off: the panels the row has room for, the titles (with their keys) wrapped
        to their plots, and the heat maps' state line wrapped to their column. `new_look`: the
        type's scale changed, the axes' widths are measured anew."""
        if new_look:
            for w in (self.lossPlot, self.paramPlot, self.gradPlot, self.accuracyPlot):
                w.gv_axis = 0.0
        self.heatPanel.setMinimumWidth(round(HEAT_COLUMN * theme.LOOK.scale))
        self.arrange()
        self.fit_titles()
        self.fit_heat_maps()

    def fit_heat_maps(self) -> None:
        """The heat maps' state line wrapped to their column, each map's title whole (a long
        "∂L/∂fc1_weight" on two lines, broken after "∂L/∂", never inside the name; a name too
        long even alone cut with "…", its tooltip says it all), and each map at least
        HEAT_MAP_MIN high: the column scrolls where the row is shorter."""
        if self.heat_caption is None:
            return
        k = theme.LOOK.scale
        inner = self.heatPanel.viewport().width() - 2 * HEAT_MARGIN
        width = max(80.0, inner - 8.0)
        if self.heat_caption.item.textWidth() != width:
            self.heat_caption.item.setTextWidth(width)
            self.heat_caption.setText(self.heat_caption.text)
        bar = max((b.getAxis("right").width() + 10 for b in self.heat_bars), default=0)
        column = max(20.0, inner / 2 - bar - 8)  # a map's title over the map and its colour bar
        height = self.heat_caption.itemRect().height() + HEAT_MARGIN * 2
        for label, name, grads in self.heat_titles:
            text = _heat_title(name, grads, _label_metrics(label), column + bar)
            if text != label.text:
                label.setText(text)
        rows: dict[str, float] = {}
        for label, name, _grads in self.heat_titles:  # a tensor's row: its taller title, then the maps
            rows[name] = max(rows.get(name, 0.0), label.itemRect().height())
        layout = self.heat.ci.layout
        # the text rows as tall as their text, the maps the rest (shared alike, they were as tall)
        for row, h in [(0, self.heat_caption.itemRect().height())] + [(self._heat_rows[n], t) for n, t in rows.items()]:
            if layout.rowMaximumHeight(row) != h:
                layout.setRowFixedHeight(row, h)
        height += sum(t + HEAT_MAP_MIN * k + 2 * HEAT_SPACING for t in rows.values())
        # the last colour bar's "-S" is centred on the bar's end: half a line below the maps
        axis = self.heat_bars[-1].getAxis("right") if self.heat_bars else None
        below = QFontMetricsF(axis.style["tickFont"] or theme.font(10)).height() / 2 if axis else 0.0
        if layout.getContentsMargins()[3] != HEAT_MARGIN + below:
            layout.setContentsMargins(HEAT_MARGIN, HEAT_MARGIN, HEAT_MARGIN, HEAT_MARGIN + below)
        height += below
        if self.heat.minimumHeight() != round(height):
            self.heat.setMinimumHeight(round(height))

    # -- which panels the row shows ---------------------------------------------------------------
    def _need(self, name: str) -> float:
        """The width a panel needs, in px: a plot's bold title on one line beside its y axis (and
        lines at least PLOT_BODY wide); the heat maps their column."""
        k = theme.LOOK.scale
        if name == "heatMaps":  # room for each tensor's name whole, over its map and colour bar
            widest = max((_label_metrics(t).horizontalAdvance(n) for t, n, _g in self.heat_titles), default=0.0)
            bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
            return max(HEAT_COLUMN * k, 2 * (widest + 8) + 2 * HEAT_MARGIN + bar + 4)
        w = self.panels[name]
        left, _top, right, _bottom = w.plotItem.layout.getContentsMargins()
        axis = max(getattr(w, "gv_axis", 0.0), AXIS_ALLOWANCE * k)  # as _fit_room counts it
        return max(_html_width(w, _head_html(w)) + 8, PLOT_BODY * k) + axis + left + right + 2 * w.frameWidth() + 4

    def arrange(self) -> None:
        """Shows the wanted panels the row's width has room for, in ROW_ORDER (the one chosen on
        the "more" button second), and folds the rest into that button. Each shown panel gets its
        need and a ROW_SHARE of the width left over (stretch factors in px, not minimum widths,
        which would keep the window from being made narrower). A pure function of the panel's
        width, so a resize that folds or unfolds one settles."""
        order = [n for n in ROW_ORDER if self._wanted[n]]
        if self._unfolded in order[1:]:
            order.remove(self._unfolded)
            order.insert(1, self._unfolded)
        left, _top, right, _bottom = self.layout().getContentsMargins()
        room, gap = self.width() - left - right, max(0, self._grid.horizontalSpacing())
        shown, used = set(), 0.0
        needs = {n: self._need(n) for n in order}
        for n in order:
            if not shown or used + gap * bool(shown) + needs[n] <= room:
                shown.add(n)
                used += gap * (len(shown) > 1) + needs[n]
        spare = max(0.0, room - used) / sum(ROW_SHARE[n] for n in shown)
        for c, (n, panel) in enumerate(self.panels.items()):
            self._grid.setColumnStretch(c, round(needs[n] + spare * ROW_SHARE[n]) if n in shown else 0)
            if panel.isVisibleTo(self) != (n in shown):
                panel.setVisible(n in shown)
        folded = tuple(n for n in ROW_ORDER if n in order and n not in shown)
        if folded != self.folded:
            self.folded = folded
            self._name_folded()

    def _panel_title(self, name: str) -> str:
        if name == "heatMaps":
            return self.tr("Heat maps")
        return QCoreApplication.translate("PlotPanel", self.panels[name].gv_titles[0])

    def _name_folded(self) -> None:
        """The "more" button: the folded panels' names, each an entry of its menu."""
        b, menu = self.foldedPlotsButton, self.foldedPlotsButton.menu()
        menu.clear()
        for n in self.folded:
            menu.addAction(self._panel_title(n)).setData(n)
        names = [self._panel_title(n) for n in self.folded]
        b.setText(self.tr("Also: {names} ▾").format(names=", ".join(names)))
        b.setToolTip(self.tr("The row has no room for these plots: choose one to show it instead of another"))
        b.setVisible(bool(self.folded) and self._desk)

    def set_desk_controls(self, on: bool) -> None:
        """The row's options, hover readout and "more" button: for the desk, hidden while
        presenting (the room sees the plots; a panel chosen on the button stays chosen)."""
        self._desk = on
        for wd in (self.logCheck, self.followCheck, self.readout):
            wd.setVisible(on)
        self._name_folded()

    def unfold(self, name: str) -> None:
        """Shows a folded panel, second in the row's order (the lowest wanted one folds instead)."""
        self._unfolded = name
        self.fit_labels()

    def _want(self, name: str, on: bool) -> None:
        self._wanted[name] = on
        if not on and self._unfolded == name:
            self._unfolded = None
        self.arrange()

    def _readout_hint(self) -> str:
        return self.tr("Hover a plot to read values")

    def _log_toggled(self, on: bool) -> None:
        self.lossPlot.setLogMode(y=on)
        self.lossPlot.getPlotItem().vb.disableAutoRange()  # setLogMode turns it on; the ranges are ours
        self._ranges.pop("loss", None)
        self._ranges.pop("x", None)
        self.refresh(force=True)

    # -- building ------------------------------------------------------------------------------
    def set_history(self, history) -> None:
        """A new run: create its curves once, coloured like the graph editor's parameters."""
        self.history = history
        self._version = -1
        for w in (self.paramPlot, self.gradPlot):
            w.clear()
        self.loss_curve.setData([], [])
        self.bad_marks.setData([], [])
        for ln in self.bad_lines:
            for w in (self.lossPlot, self.paramPlot, self.gradPlot):
                if ln.scene() is w.scene():
                    w.removeItem(ln)
        self.bad_lines = []
        self.set_branches([])
        self.param_curves, self.grad_curves = [], []
        self.param_dots, self.grad_dots = [], []
        self._dots_shown = False
        self.loss_curve.setSymbol(None)
        self.readout.setText(self._readout_hint())  # the last run's numbers are not this run's
        self.heat.clear()
        self.images = []
        self.heat_bars = []
        self.heat_scales = []
        self.heat_titles, self._heat_rows = [], {}
        self.heat_caption = None
        self.heat_step = 0
        self._ranges = {}
        self.lossPlot.getPlotItem().vb.setXRange(0, 10, padding=0)  # until the first steps arrive
        if history is None:
            self._describe_lines()
            self._note_thinning(force=True)
            self.show_step(None)
            return
        pl, gl = history.param_layout, history.grad_layout
        self.param_curves = self._tensor_curves(self.paramPlot, pl, pl, "params")
        self.grad_curves = self._tensor_curves(self.gradPlot, gl, pl, "grads")
        self.param_dots = self._tensor_dots(self.paramPlot, pl, pl)
        self.grad_dots = self._tensor_dots(self.gradPlot, gl, pl)
        self.norm_curve = _curve(self.gradPlot, theme.NORM_COLOR, name="‖grad‖", width=1.0, style=Qt.PenStyle.DashLine)
        # the step shown above them all; then per matrix Parameter its value and beside it its
        # gradient, each a name over the map and its colour bar (value and gradient side by side:
        # the plots dock is short on a projector)
        self.heat_caption = self.heat.addLabel("", row=0, col=0, colspan=4, size="10pt")
        self.heat.ci.layout.setVerticalSpacing(HEAT_SPACING)
        self.heat.ci.layout.setContentsMargins(*(HEAT_MARGIN,) * 4)
        for col in (0, 2):  # the maps take the width the colour bars leave
            self.heat.ci.layout.setColumnStretchFactor(col, 3)
        grad_off = dict(zip(gl.names, np.cumsum([0, *gl.sizes[:-1]]).tolist()))
        row, off = 1, 0
        for name, shape, size in zip(pl.names, pl.shapes, pl.sizes):
            if len(shape) == 2:
                for col, kind, at in ((0, "params", off), (2, "grads", grad_off.get(name))):
                    if at is None:  # a frozen Parameter: no gradient
                        continue
                    title_item = self.heat.addLabel(
                        name if kind == "params" else f"∂L/∂{name}",
                        row=row,
                        col=col,
                        colspan=2,
                        size=f"{HEAT_TITLE_PT}pt",
                        color=theme.GRAD_COLOR if kind == "grads" else theme.VALUE_COLOR,
                    )
                    self.heat_titles.append((title_item, name, kind == "grads"))
                    self._heat_rows[name] = row
                    vb = self.heat.addViewBox(row=row + 1, col=col, lockAspect=True, enableMouse=False)
                    img = pg.ImageItem(axisOrder="row-major")
                    vb.addItem(img)
                    vb.invertY(True)
                    self.images.append((img, kind, at, shape))
                    self.heat_bars.append(self._colour_bar(row + 1, col + 1))
                row += 2
            off += size
        self._want("heatMaps", bool(self.images))  # no empty column without matrices
        self._describe_lines()
        self.fit_labels(new_look=True)  # a new run: its axes measured anew
        self._note_thinning(force=True)
        self.show_step(None)  # last: a history that holds steps already (an opened run) is drawn

    def _colour_bar(self, row: int, col: int) -> pg.ColorBarItem:
        """A colour bar beside a heat map, +S and -S written at its ends."""
        bar = pg.ColorBarItem(
            values=(-1.0, 1.0),
            colorMap=pg.ColorMap(np.linspace(0.0, 1.0, len(LUT)), LUT),
            orientation="vertical",
            interactive=False,
            width=10,
        )
        bar.getAxis("right").setTickFont(theme.font(10))
        self.heat.addItem(bar, row=row, col=col)
        _label_bar(bar, 1.0)
        # its height comes from the layout: the numbers are chosen again when it changes
        bar.getAxis("right").geometryChanged.connect(lambda: _label_bar(bar, bar.levels()[1]))
        return bar

    def _tensor_curves(self, w: pg.PlotWidget, layout: Layout, color_layout: Layout, kind: str) -> list:
        """One curve item per tensor: (item, first column in the history's view, element count)."""
        out = []
        off = self.history.columns(kind).start
        for name, size in zip(layout.names, layout.sizes):
            pi = color_layout.names.index(name) if name in color_layout.names else 0
            item = _lines(w, theme.param_color(pi), name)
            out.append((item, off, size))
            off += size
        return out

    def _tensor_dots(self, w: pg.PlotWidget, layout: Layout, color_layout: Layout) -> list:
        """One scatter item per tensor, in its colour: the samples as dots while few are in view."""
        out = []
        for name in layout.names:
            pi = color_layout.names.index(name) if name in color_layout.names else 0
            dots = pg.ScatterPlotItem(size=DOT_SIZE, pen=None, brush=pg.mkBrush(theme.param_color(pi)))
            dots.setVisible(False)
            w.addItem(dots)
            out.append(dots)
        return out

    def _draw_dots(self, x: np.ndarray, Y: np.ndarray) -> None:
        """Every sample as a dot while few steps are in view (one step draws no line), else none."""
        m = len(x)
        few = 0 < m <= FEW_POINTS
        if not few and not self._dots_shown:
            return
        self._dots_shown = few
        symbol = "o" if few else None
        for item in (self.loss_curve, self.norm_curve):
            if item is not None and item.opts["symbol"] != symbol:
                item.setSymbol(symbol)
                item.setSymbolSize(DOT_SIZE)
                item.setSymbolPen(None)
                item.setSymbolBrush(item.opts["pen"].color())
        for curves, dots in ((self.param_curves, self.param_dots), (self.grad_curves, self.grad_dots)):
            for (_item, off, size), d in zip(curves, dots):
                if few and (m * size <= MAX_DOTS or m == 1):
                    dx, dy = np.tile(x, size), Y[:, off : off + size].T.reshape(-1)
                    ok = np.isfinite(dy)
                    d.setData(dx[ok], dy[ok])
                    d.setVisible(True)
                else:
                    d.setData([], [])
                    d.setVisible(False)

    # -- drawing --------------------------------------------------------------------------------
    def max_points(self) -> int:
        """Points per line for the plots as wide as they are now (they share their x range)."""
        widest = max(p.getPlotItem().vb.width() for p in (self.lossPlot, self.paramPlot, self.gradPlot))
        return max(MIN_POINTS, int(POINTS_PER_PIXEL * widest))

    def refresh(self, force: bool = False) -> None:
        """Redraw from the history if it (or the visible range) changed; called on the GUI timer."""
        h = self.history
        if h is None:
            return
        if h.version != self._version or force or self._range_dirty:
            self._redraw_curves(h)
        self._refresh_heat_maps(h, force)

    def _redraw_curves(self, h: History) -> None:
        self._version, self._range_dirty = h.version, False
        self._note_thinning()
        vb = self.lossPlot.getPlotItem().vb
        x0, x1 = (None, None) if self.follow else vb.viewRange()[0]
        x, Y = h.view(x0, x1, self.max_points())
        m = len(x)
        self.loss_curve.setData(x, Y[:, 0], connect="finite")
        for curves in (self.param_curves, self.grad_curves):
            for item, off, size in curves:
                item.setData(np.tile(x, size), Y[:, off : off + size].T.reshape(-1), connect=self._breaks(m, size))
        if self.norm_curve is not None:
            self.norm_curve.setData(x, Y[:, -1], connect="finite")
        self._draw_dots(x, Y)
        self._mark_non_finite(h)
        if self.follow and len(x):
            self._follow(x, Y)

    def _refresh_heat_maps(self, h: History, force: bool) -> None:
        """The heat maps at the step the labels name whenever it moves, also between two of the
        history's changes (live nodes of a step the history has come later: the maps stayed a
        block of steps behind the caption); else the latest row a few times a second."""
        now = time.perf_counter()
        named = self.named_step() if self.shown_step is None else None
        if self.shown_step is not None:
            i = h.index(self.shown_step)
        else:
            i = h.index_at_or_before(named) if named else None
        i = h.n - 1 if i is None else i
        moved = named is not None and h.n and int(h.steps[i]) != self.heat_step
        latest = named is None and h.version != self._heat_version and now - self._heat_time > HEAT_SECONDS
        if h.n and (force or moved or latest):
            self._heat_time, self._heat_version = now, h.version
            scales = []
            for (img, kind, off, shape), bar in zip(self.images, self.heat_bars):
                src = (h.params if kind == "params" else h.grads)[:, off : off + shape[0] * shape[1]]
                s = row_scale(h.steps, src, i)  # steady from step to step, unlike the frame's own max
                img.setImage(src[i].reshape(shape), levels=(-s, s), lut=LUT)
                if s != bar.levels()[1]:
                    _label_bar(bar, s)
                scales.append(s)
            self.heat_scales = scales
            self._title_heat_maps(int(h.steps[i]))

    # -- time travel ------------------------------------------------------------------------------
    def show_step(self, step: int | None) -> None:
        """A cursor on every plot at `step`, and the heat maps at that step (None: the last step,
        no cursor)."""
        self.shown_step = step
        if step is None:
            for c in self.cursors:
                c.setVisible(False)
        else:
            if not self.cursors:
                for w in (self.lossPlot, self.paramPlot, self.gradPlot, self.accuracyPlot):
                    c = pg.InfiniteLine(
                        angle=90,
                        pen=pg.mkPen(theme.CURSOR_COLOR, width=2, style=Qt.PenStyle.DashLine),
                        label=self.tr("step {value:.0f}"),
                        labelOpts={"color": theme.CURSOR_COLOR, "position": 0.08, "fill": (255, 255, 255, 200)},
                    )
                    c.setZValue(50)
                    w.addItem(c)
                    self.cursors.append(c)
            for c in self.cursors:
                c.setVisible(True)  # first: a hidden line's label does not follow its position
                c.setPos(float(step))
        self._title_accuracy()
        if self.history is not None and self.history.n:
            self.heat_step = -1  # retitle
            self.refresh(force=True)

    # -- a data set's evaluations -----------------------------------------------------------------
    def set_data_set(self, on: bool) -> None:
        """Whether the run trains over a Dataset node: the accuracy plot is shown then."""
        self._want("accuracyPlot", on)
        if not on:
            self.set_evals(())

    def set_evals(self, evals: tuple) -> None:
        """The evaluation after each epoch (engine Eval.to_dict()); redrawn when they change."""
        self.evals = tuple(evals)
        if self.evals == self._evals_drawn:
            return
        self._evals_drawn = self.evals
        x = np.array([e["step"] for e in self.evals], float)

        def column(key: str) -> np.ndarray:
            return np.array([np.nan if e[key] is None else e[key] for e in self.evals], float)

        self.test_loss_curve.setData(x, column("test_loss") if len(x) else x)
        self.train_accuracy_curve.setData(x, column("train_accuracy") if len(x) else x)
        self.test_accuracy_curve.setData(x, column("accuracy") if len(x) else x)
        self._title_accuracy()

    def _title_accuracy(self) -> None:
        """The accuracy plot's note: the evaluation the shown step shows (the last at or before it)."""
        e = last_eval(self.evals, self.shown_step)
        note = ""
        if e is not None:
            pct = "–" if e["accuracy"] is None else f"{100 * e['accuracy']:.1f}%"
            train = "–" if e["train_accuracy"] is None else f"{100 * e['train_accuracy']:.1f}%"
            note = self.tr("epoch {epoch}: test {test}, train {train}, test loss {loss}").format(
                epoch=e["epoch"], test=pct, train=train, loss=fmt_number(e["test_loss"])
            )
        _title(self.accuracyPlot, *self.accuracyPlot.gv_titles, note=note)

    def set_branches(self, branches: list) -> None:
        """Faint loss curves for the futures a rewind abandoned: (steps, loss) each; where one
        stopped being finite, a red dotted line on the loss plot keeps the spike marked."""
        for item in self.branch_curves + self.branch_marks:
            self.lossPlot.removeItem(item)
        self.branch_curves, self.branch_marks = [], []
        log, ys = self.logCheck.isChecked(), [np.zeros(0)]
        for x, y in branches:
            x, y = np.asarray(x, float), np.asarray(y, float)
            ys.append(y)
            item = pg.PlotDataItem(  # a data item: it follows the loss plot's log scale
                x, y, connect="finite", pen=pg.mkPen(theme.BRANCH_COLOR, width=2, style=Qt.PenStyle.DotLine)
            )
            item.setLogMode(False, log)
            item.setZValue(-5)
            self.lossPlot.addItem(item)
            self.branch_curves.append(item)
            bad = np.flatnonzero(~np.isfinite(y))
            if len(bad):
                mark = pg.InfiniteLine(
                    pos=float(x[bad[0]]),
                    angle=90,
                    pen=pg.mkPen(theme.ERROR_COLOR, width=1.5, style=Qt.PenStyle.DotLine),
                    label=self.tr("abandoned: not finite"),
                    labelOpts={"color": theme.ERROR_COLOR, "position": 0.92, "anchors": [(0, 0.5), (0, 0.5)]},
                )
                mark.setZValue(-4)
                self.lossPlot.addItem(mark)
                self.branch_marks.append(mark)
        y = np.concatenate(ys)
        with np.errstate(invalid="ignore"):
            self._branch_sorted = {on: _by_size(y[np.isfinite(y) & ((y > 0) | (not on))]) for on in (False, True)}
        self._ranges.pop("loss", None)

    def _branch_values(self, current: np.ndarray, log: bool) -> np.ndarray:
        """The smallest and largest abandoned-branch loss the loss plot's y range takes in:
        finite (positive on a log scale) and not exploded (at most EXPLODED times the current
        run's largest), so a spike that a rewind left behind does not squash the run on screen.
        Cheap on every refresh: the branches' values are sorted once (set_branches)."""
        top = np.abs(current[np.isfinite(current)])
        a, lo, hi = self._branch_sorted[log]
        if not len(top) or not len(a):
            return current[:0]
        k = int(np.searchsorted(a, EXPLODED * float(top.max()), side="right"))
        return np.array([lo[k - 1], hi[k - 1]]) if k else current[:0]

    def _title_heat_maps(self, step: int) -> None:
        """The heat maps say which state they show (model.steps), as the node heat maps do."""
        if step == self.heat_step:
            return
        self.heat_step = step
        # "step 300 (parameters after 299 updates)": the parenthesis on a line of its own
        self.heat_caption.setText(re.sub(r" ?([(（])", r"<br>\1", tr_msg(state_at(step)), count=1))
        for label, name, grads in self.heat_titles:
            label.setToolTip(tr_msg(heatmap_title(name, step, grads)))
        self.fit_heat_maps()  # the caption's lines may have changed

    def _follow(self, x: np.ndarray, Y: np.ndarray) -> None:
        """Keep everything in view with ranges that change rarely: redrawing axes is the costly
        part of a plot, so ranges snap to round numbers and grow with headroom."""
        xmax = _nice_ceil(max(float(x[-1]) * 1.1, 10.0))
        if xmax != self._ranges.get("x"):
            self._ranges["x"] = xmax
            self.lossPlot.getPlotItem().vb.setXRange(0, xmax, padding=0)
        h = self.history
        log = self.logCheck.isChecked()
        for key, plot, cols in (
            ("loss", self.lossPlot, [h.columns("loss")]),
            ("params", self.paramPlot, [h.columns("params")]),
            ("grads", self.gradPlot, [h.columns("grads"), h.columns("norm")]),
        ):
            vals = np.concatenate([Y[:, c].reshape(-1) for c in cols])
            if key == "loss":
                vals = np.concatenate([vals, self._branch_values(vals, log)])
            if key == "loss" and log:
                vals = np.log10(vals[vals > 0]) if (vals > 0).any() else vals[:0]
            vals = vals[np.isfinite(vals)]
            if not len(vals):
                continue
            lo, hi = float(vals.min()), float(vals.max())
            cur = self._ranges.get(key)
            if (
                cur is not None
                and cur[2] == log
                and cur[0] <= lo
                and hi <= cur[1]
                and (hi - lo) > 0.3 * (cur[1] - cur[0])
            ):
                continue  # still a good fit
            span = (hi - lo) or max(abs(hi), 1.0)
            new = (_nice_floor(lo - 0.08 * span, span), _nice_ceil_step(hi + 0.08 * span, span), log)
            self._ranges[key] = new
            plot.getPlotItem().vb.setYRange(new[0], new[1], padding=0)

    def set_follow(self, on: bool) -> None:
        """Follow the run (ranges chosen for you) or keep the range the user zoomed to."""
        self.follow = on
        if self.followCheck.isChecked() != on:
            self.followCheck.setChecked(on)
        self._ranges = {}
        self.refresh(force=True)

    def _manual_range(self, *_args) -> None:
        if self.follow:
            self.set_follow(False)
        self._range_dirty = True

    def _breaks(self, m: int, size: int) -> np.ndarray:
        """connect array: each element's line ends where the next element's begins."""
        key = (m, size)
        if key not in self._connect_cache:
            c = np.ones(m * size, bool)
            if m:
                c[m - 1 :: m] = False
            self._connect_cache = {key: c}
        return self._connect_cache[key]

    def _mark_non_finite(self, h) -> None:
        """A red x on the loss plot and a red line on every plot at the first non-finite step."""
        if not h.bad_steps and self.bad_lines:  # a rewind took them back
            self.bad_marks.setData([], [])
            self.bad_marks.setVisible(False)
            for ln, w in zip(self.bad_lines, (self.lossPlot, self.paramPlot, self.gradPlot)):
                w.removeItem(ln)
            self.bad_lines = []
        if not h.bad_steps or len(h.bad_steps) == len(self.bad_marks.data):
            return
        bx = np.asarray(h.bad_steps, float)
        i = int(bx[0]) - int(h.steps[0])
        before = h.loss[max(0, i - 1000) : i]
        before = before[np.isfinite(before)]
        last = float(before[-1]) if len(before) else 0.0
        self.bad_marks.setData(bx, np.full(len(bx), last))
        self.bad_marks.setVisible(True)
        if not self.bad_lines:
            for w in (self.lossPlot, self.paramPlot, self.gradPlot):
                ln = pg.InfiniteLine(
                    pos=float(bx[0]),
                    angle=90,
                    pen=pg.mkPen(theme.ERROR_COLOR, width=2),
                    label=self.tr("not finite"),
                    labelOpts={"color": theme.ERROR_COLOR, "position": 0.92, "anchors": [(0, 0.5), (0, 0.5)]},
                )
                w.addItem(ln)
                self.bad_lines.append(ln)

    # -- hover text ------------------------------------------------------------------------------
    def _index(self, step: int) -> int | None:
        h = self.history
        if h is None or not h.n:
            return None
        i = int(np.searchsorted(h.steps, step))
        return min(max(i, 0), h.n - 1)

    def _text_loss(self, step: int) -> str:
        i = self._index(step)
        if i is None:
            return ""
        return self.tr("step {step}: loss {loss}").format(
            step=self.history.steps[i], loss=fmt_number(self.history.loss[i])
        )

    def _text_elements(self, step: int, grads: bool) -> str:
        """'step 120: w[0,0]=0.49  w[0,1]=-0.14 ...' for the parameter or gradient plot."""
        i = self._index(step)
        if i is None:
            return ""
        h = self.history
        layout, vals = (h.grad_layout, h.grads[i]) if grads else (h.param_layout, h.params[i])
        head = self.tr("step {step}: ").format(step=h.steps[i]) + (
            f"‖grad‖={fmt_number(h.grad_norm[i])}  " if grads else ""
        )
        return head + "  ".join(f"{lab}={fmt_number(v)}" for lab, v in list(zip(layout.labels(), vals))[:8])


def _by_size(y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(|y| sorted, the smallest and the largest y among the first k of that order, per k)."""
    order = np.argsort(np.abs(y), kind="stable")
    ys = y[order]
    return np.abs(ys), np.minimum.accumulate(ys), np.maximum.accumulate(ys)


def _nice(v: float, up: bool) -> float:
    """The nearest 1, 2, 2.5 or 5 times a power of ten above (or below) v."""
    if v == 0:
        return 0.0
    sign = 1 if v > 0 else -1
    a = abs(v)
    e = np.floor(np.log10(a))
    steps = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)
    for m in steps if (up == (sign > 0)) else steps[::-1]:
        c = m * 10**e
        if (c >= a) if (up == (sign > 0)) else (c <= a):
            return float(sign * c)
    return float(v)


def _nice_ceil(v: float) -> float:
    return _nice(v, True)


def _nice_ceil_step(v: float, span: float) -> float:
    step = 10 ** np.floor(np.log10(span)) / 2 if span > 0 else 1.0
    return float(np.ceil(v / step) * step)


def _nice_floor(v: float, span: float) -> float:
    step = 10 ** np.floor(np.log10(span)) / 2 if span > 0 else 1.0
    return float(np.floor(v / step) * step)


def _label_bar(bar: pg.ColorBarItem, s: float) -> None:
    """-S and +S at the bar's ends (white is 0), or ±S once at its middle where the bar is too
    short for two lines (a flat matrix's map: the ends' numbers were drawn over each other)."""
    lo, hi = bar_labels(s)
    bar.setLevels((-s, s))
    axis = bar.getAxis("right")
    fm = QFontMetricsF(axis.style["tickFont"] or theme.font(10))
    ticks = [(-s, lo), (s, hi)] if axis.height() >= 2 * fm.height() + 2 else [(0.0, bar_span(s))]
    if axis._tickLevels != [ticks]:
        axis.setTicks([ticks])
    # every number in full, as wide in both forms: a resize that changes the form moves nothing
    axis.setWidth(int(max(fm.horizontalAdvance(t) for t in (lo, hi, bar_span(s))) + 14))
