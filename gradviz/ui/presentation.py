"""Presentation mode and the light/dark themes, applied to a whole window.

The look itself (the font scale, the colours) is theme.LOOK; this module carries it to what was
built before it changed: the application font, every widget that set its own font, every plot
(tick fonts, axis labels, titles, legends, curve widths and colours, background), the graph
editor, and, in presentation mode, hides what a lecture does not need. Each thing's original is
recorded the first time it is restyled and put back exactly when the look returns to normal.

Widgets made while presenting are already at the look's scale (theme.font scales); what set no
font of its own follows the application font."""

from __future__ import annotations

import re

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QHBoxLayout,
    QMainWindow,
    QSizePolicy,
    QStyleFactory,
    QWidget,
)

from . import theme

# Presentation mode keeps what a lecture needs and gives the graph the window's whole width.
# Hidden: the Training dock (its lecture part, Start, Step, Reset and the three options the
# tutorial is about, moves to the menu bar's row; the keys Space, S and Ctrl+R work too), the
# node palette, the editing docks, the status bar (the caption over the graph says the step, the
# plots the loss) and the plots' options row. The Lesson stays, as a tab beside the plots (the
# graph keeps the window's width), and goes back under the training options on leaving. The options go under the call where the menu
# bar's row is too narrow for them. The window goes full screen. Leaving puts every widget back
# where it was and restores the dock layout and the window's geometry.
HIDDEN_DOCKS = ("controlsDock", "inspectorDock", "problemsDock", "codeDock")
CURVE_WIDTH = 2.5  # px: every curve's width at least, in presentation mode
_PT = re.compile(r"font-size:\s*([0-9.]+)pt")

_FONT = "gvBaseFont"  # a widget property: its own font at scale 1


def _scaled_font(f: QFont, k: float) -> QFont:
    out = QFont(f)
    if f.pointSizeF() > 0:
        out.setPointSizeF(f.pointSizeF() * k)
    elif f.pixelSize() > 0:
        out.setPixelSize(max(1, round(f.pixelSize() * k)))
    return out


def _scale_pt(text: str, k: float) -> str:
    return _PT.sub(lambda m: f"font-size:{float(m.group(1)) * k:g}pt", text)


class _Places:
    """Where borrowed widgets came from (their layout and index), to put them back exactly."""

    def __init__(self):
        self._places: list[tuple] = []

    @staticmethod
    def find(layout, widget):
        """(the layout that holds widget, its index there), searching nested layouts."""
        for i in range(layout.count()):
            item = layout.itemAt(i)
            if item.widget() is widget:
                return layout, i
            if item.layout() is not None:
                found = _Places.find(item.layout(), widget)
                if found is not None:
                    return found
        return None

    def borrow(self, widgets: list[QWidget], into, at: int = -1, stretch: int = 0) -> None:
        places = [self.find(w.parentWidget().layout(), w) for w in widgets]  # all before moving any
        for i, (w, place) in enumerate(zip(widgets, places)):
            self._places.append((w, place, w.isVisibleTo(w.parentWidget())))
            into.insertWidget(at if at < 0 else at + i, w, stretch)
            w.setVisible(True)

    def give_back(self) -> None:
        for w, (layout, index), visible in sorted(self._places, key=lambda p: p[1][1]):
            layout.insertWidget(index, w)
            w.setVisible(visible)
        self._places = []


class Presenter(QObject):
    """Applies theme.LOOK to one window, and records what to put back. `host` is used as a Qt
    window only (its docks, state, geometry, menu bar, widgets and fonts); the parts it moves or
    restyles are given: the node palette and the menu bar's corner row, the call, the graph, the
    training controls (their run buttons and options move in presentation mode) and the plots."""

    def __init__(
        self, host: QMainWindow, controller, node_palette, corner_bar, call_view, scene, graph_view, controls, plots
    ):
        super().__init__(host)
        self.host = host
        self.node_palette, self.corner_bar, self.call_view = node_palette, corner_bar, call_view
        self.scene, self.graph_view, self.controls, self.plots = scene, graph_view, controls, plots
        self._applied = theme.Look()  # what the widgets are styled for now
        self._normal_state = None  # the window's dock layout before presenting
        self._palette_visible = True
        self._status_visible = True
        self._light_palette = QApplication.palette()
        self._app_font = QFont(QApplication.font())
        self._style = QApplication.style().name()
        # a new run's curves and legends are made by the window's own slot: restyle after it
        controller.built.connect(lambda: QTimer.singleShot(0, self._restyle_plots))
        self._geometry = None  # the window's geometry and state before presenting (full screen)
        self._window_state = Qt.WindowState.WindowNoState
        self._lesson_title = False  # the Lesson dock's own title bar while presenting (False: none kept)
        self._pending_state = None  # the dock layout to restore once the window is back to normal size
        self._places = _Places()
        self.runButtons = QWidget()  # Start, Step, Reset in the menu bar's row
        self.runButtons.setObjectName("lectureButtons")
        self.runButtons.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        QHBoxLayout(self.runButtons).setContentsMargins(4, 0, 4, 0)
        self.runButtons.setVisible(False)
        self.optionsRow = QWidget()  # the three options: in the menu bar's row, or under the call
        self.optionsRow.setObjectName("lectureOptions")
        QHBoxLayout(self.optionsRow).setContentsMargins(8, 0, 8, 0)
        self.optionsRow.setVisible(False)
        corner_bar.layout().addWidget(self.runButtons)

    @property
    def look(self) -> theme.Look:
        return self._applied

    def apply(self, look: theme.Look) -> None:
        """Switch the window to `look` (presentation mode and/or the dark theme)."""
        before = self._applied
        if look == before:
            return
        entering, leaving = look.presenting and not before.presenting, before.presenting and not look.presenting
        if entering:
            self._normal_state = self.host.saveState()
            self._geometry, self._window_state = self.host.geometry(), self.host.windowState()
            self._palette_visible = self.node_palette.isVisibleTo(self.corner_bar)
            self._status_visible = self.host.statusBar().isVisibleTo(self.host)
        theme.set_look(look)
        app = QApplication.instance()
        if look.dark != before.dark:
            self._apply_palette(app, look.dark)
        if look.scale != before.scale:
            if before.scale == 1.0:
                self._app_font = QFont(app.font())  # put back exactly on leaving
            app.setFont(_scaled_font(self._app_font, look.scale) if look.scale != 1.0 else self._app_font)
        self._scale_widget_fonts(before.scale, look.scale)
        self._applied = look
        self._restyle_plots()
        self.call_view.restyle()
        self.scene.restyle()
        if entering:
            self._enter()
        elif leaving:
            self._leave()
        self.graph_view.viewport().update()
        QTimer.singleShot(0, self.graph_view.fit)  # once the docks have their new sizes

    def _enter(self) -> None:
        w, c = self.host, self.controls
        self.node_palette.setVisible(False)
        for name in HIDDEN_DOCKS:
            d = w.findChild(QDockWidget, name)
            if d is not None:
                d.setVisible(False)
        w.statusBar().setVisible(False)
        lesson = w.findChild(QDockWidget, "lessonDock")
        if lesson is not None and not lesson.isHidden():
            w.tabifyDockWidget(w.findChild(QDockWidget, "experimentsDock"), lesson)
            self._lesson_title = lesson.titleBarWidget()
            lesson.setTitleBarWidget(QWidget())  # its tab is its title, as for the plots' docks
        w.findChild(QDockWidget, "plotsDock").raise_()
        self.plots.set_desk_controls(False)  # the plots' options and hover readout: for the desk, not the room
        self._places.borrow([c.startButton, c.stepButton, c.resetButton], self.runButtons.layout())
        self._places.borrow([c.auxOutputCheck, c.stopGradientCheck, c.hasAuxCheck], self.optionsRow.layout())
        self.runButtons.setVisible(True)
        self.optionsRow.setVisible(True)
        self._place_options()
        w.installEventFilter(self)
        w.showFullScreen()

    def _leave(self) -> None:
        w = self.host
        w.setWindowState(self._window_state)
        if self._geometry is not None and not self._window_state & Qt.WindowState.WindowMaximized:
            w.setGeometry(self._geometry)
        self.plots.set_desk_controls(True)
        self.optionsRow.parentWidget().layout().removeWidget(self.optionsRow)
        self.optionsRow.setVisible(False)
        self._places.give_back()
        self.runButtons.setVisible(False)
        if self._normal_state is not None:
            # now, and again once the layouts have taken the normal fonts' sizes (a dock is
            # never laid out smaller than its contents' minimum, which is still the larger one)
            # and, if it leaves full screen later, the window its normal size
            w.restoreState(self._normal_state)
            self._pending_state = self._normal_state
            QTimer.singleShot(0, self._restore_layout)
        lesson = w.findChild(QDockWidget, "lessonDock")
        if lesson is not None and self._lesson_title is not False:
            lesson.setTitleBarWidget(self._lesson_title)
            self._lesson_title = False
        self.node_palette.setVisible(self._palette_visible)
        w.statusBar().setVisible(self._status_visible)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.host and event.type() == QEvent.Type.Resize:
            if self._applied.presenting:
                self._place_options()
            elif self._pending_state is not None and self.host.size() == self._geometry.size():
                QTimer.singleShot(0, self._restore_layout)
        return False

    def _restore_layout(self) -> None:
        if self._pending_state is None or self._applied.presenting:
            return
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the normal fonts' sizes first
        self.host.restoreState(self._pending_state)
        if self.host.size() == self._geometry.size():
            self._pending_state = None
            self.host.removeEventFilter(self)

    def _place_options(self) -> None:
        """The options in the menu bar's row where they fit beside the menus and run buttons,
        else in a row under the call."""
        bar = self.host.menuBar()
        menus = sum(bar.actionGeometry(a).width() for a in bar.actions() if a.isVisible())
        need = menus + self.runButtons.sizeHint().width() + self.optionsRow.sizeHint().width() + 24
        corner = self.corner_bar.layout()
        in_corner = corner.indexOf(self.optionsRow) >= 0
        if need <= self.host.width() and not in_corner:
            self._detach_options()
            corner.addWidget(self.optionsRow)
        elif need > self.host.width() and (in_corner or self.optionsRow.parentWidget() is None):
            self._detach_options()
            layout, index = _Places.find(self.call_view.parentWidget().layout(), self.call_view)
            layout.insertWidget(index + 1, self.optionsRow)
        self.optionsRow.setVisible(True)

    def _detach_options(self) -> None:
        parent = self.optionsRow.parentWidget()
        if parent is not None and parent.layout() is not None:
            found = _Places.find(parent.layout(), self.optionsRow)
            if found is not None:
                found[0].removeWidget(self.optionsRow)

    # -- widgets ------------------------------------------------------------------------------
    def _scale_widget_fonts(self, old: float, new: float) -> None:
        """Every widget that set its own font gets it at the new scale. A widget first met now
        was made at the old scale (theme.font), so its font at scale 1 is its font / old."""
        widgets = [self.host, *self.host.findChildren(QWidget)]
        for wd in widgets:
            if not wd.testAttribute(Qt.WidgetAttribute.WA_SetFont):
                continue
            base = wd.property(_FONT)
            if not isinstance(base, QFont):
                base = _scaled_font(wd.font(), 1.0 / old)
                wd.setProperty(_FONT, base)
            wd.setFont(QFont(base) if new == 1.0 else _scaled_font(base, new))

    def _apply_palette(self, app, dark: bool) -> None:
        if dark:
            app.setStyle(QStyleFactory.create("Fusion"))
            app.setPalette(dark_palette())
        else:
            app.setStyle(QStyleFactory.create(self._style) or QStyleFactory.create("Fusion"))
            app.setPalette(self._light_palette)

    # -- plots --------------------------------------------------------------------------------
    def _restyle_plots(self) -> None:
        """Every pyqtgraph item in the window, styled for the look (the originals recorded)."""
        look = self._applied
        for gv in self.host.findChildren(pg.GraphicsView):
            bg = getattr(gv, "_gv_background", None)
            if bg is None:
                bg = gv._gv_background = gv.backgroundBrush().color()
            gv.setBackground(QColor(theme.PLOT_BG) if look.dark else bg)
            for item in gv.scene().items():
                _restyle_item(item, look)
        self.plots.fit_labels(new_look=True)  # titles and their keys at their new size, in the room they have


def _pt_of(size, default: float) -> float:
    m = _PT.search(f"font-size:{size}") if size else None
    return float(m.group(1)) if m else default


def _restyle_item(item, look: theme.Look) -> None:
    """One plot item in the look; its original recorded in `_gv_orig` the first time."""
    k, dark = look.scale, look.dark
    fg = QColor(theme.PLOT_FG)
    if isinstance(item, pg.AxisItem):
        tick, style, pen, text_pen, space = item.__dict__.setdefault(
            "_gv_orig",
            (
                QFont(item.style["tickFont"]) if item.style.get("tickFont") else None,
                dict(item.labelStyle),
                QPen(item.pen()),
                QPen(item.textPen()),
                (item.textWidth, item.textHeight),
            ),
        )
        item.setTickFont(_scaled_font(tick, k) if tick is not None else (theme.font(10) if k != 1 else None))
        if k == 1:  # the room for the tick labels: pyqtgraph only gives back 10 px or more
            item.textWidth, item.textHeight = space
            item._updateWidth() if item.orientation in ("left", "right") else item._updateHeight()
        new_style = dict(style)
        if k != 1:
            new_style["font-size"] = f"{_pt_of(style.get('font-size'), theme.BASE_POINT_SIZE) * k:g}pt"
        if dark:
            new_style["color"] = fg.name()
        item.labelStyle = new_style
        if item.labelText or item.labelUnits:
            item.setLabel(text=item.labelText, units=item.labelUnits, unitPrefix=item.labelUnitPrefix, **new_style)
        item.setPen(QPen(fg) if dark else pen)
        item.setTextPen(QPen(fg) if dark else text_pen)
    elif isinstance(item, pg.LegendItem):
        size, color, brush = item.__dict__.setdefault(
            "_gv_orig", (item.opts.get("labelTextSize", "9pt"), item.opts.get("labelTextColor"), item.opts.get("brush"))
        )
        item.setLabelTextSize(f"{_pt_of(size, 9.0) * k:g}pt" if k != 1 else size)
        if dark:
            item.setLabelTextColor(fg)
            item.setBrush(pg.mkBrush(15, 23, 42, 170))
        else:
            item.setLabelTextColor(color if color is not None else pg.getConfigOption("foreground"))
            item.setBrush(brush if brush is not None else pg.mkBrush(None))
        for _sample, label in item.items:  # setAttr alone does not redraw a label
            label.setText(label.text)
    elif isinstance(item, pg.LabelItem):
        if isinstance(item.parentItem(), pg.LegendItem):
            return  # its legend sets its size and colour
        size, color = item.__dict__.setdefault("_gv_orig", (item.opts.get("size"), item.opts.get("color")))
        if item.__dict__.get("_gv_shown") != item.text:  # first met, or its owner set a new text
            item._gv_text = item.text
        item.opts["size"] = size if k == 1 else f"{_pt_of(size, 9.0) * k:g}pt"
        near_black = color is None or QColor(color).lightness() < 80
        item.opts["color"] = fg.name() if dark and near_black else color
        item.setText(_scale_pt(item._gv_text, k))
        item._gv_shown = item.text
    elif isinstance(item, (pg.PlotDataItem, pg.PlotCurveItem)):
        if isinstance(item, pg.PlotCurveItem) and isinstance(item.parentItem(), pg.PlotDataItem):
            return  # its PlotDataItem sets its pen
        pen = item.opts.get("pen")
        if pen is None:
            return
        orig = item.__dict__.setdefault("_gv_orig", QPen(pg.mkPen(pen)))
        p = QPen(orig)
        if k != 1 and orig.style() != Qt.PenStyle.NoPen:
            p.setWidthF(max(orig.widthF() * k, CURVE_WIDTH))
        if dark and p.color().lightness() < 60:
            c = QColor(theme.VALUE_COLOR)
            c.setAlpha(p.color().alpha())
            p.setColor(c)
        if p != pg.mkPen(item.opts.get("pen")):
            item.setPen(p)


def dark_palette() -> QPalette:
    """A dark Fusion palette with light text (the theme's colours)."""
    p = QPalette()
    base, window, text = QColor("#0f172a"), QColor("#1e293b"), QColor("#f1f5f9")
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: window,
        QPalette.ColorRole.ToolTipBase: QColor("#334155"),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor("#94a3b8"),
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: QColor("#334155"),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor("#fca5a5"),
        QPalette.ColorRole.Highlight: QColor("#2563eb"),
        QPalette.ColorRole.HighlightedText: QColor("#ffffff"),
        QPalette.ColorRole.Link: QColor("#93c5fd"),
        QPalette.ColorRole.Light: QColor("#475569"),
        QPalette.ColorRole.Midlight: QColor("#334155"),
        QPalette.ColorRole.Mid: QColor("#1e293b"),
        QPalette.ColorRole.Dark: QColor("#0b1220"),
        QPalette.ColorRole.Shadow: QColor("#000000"),
    }
    for role, c in roles.items():
        p.setColor(role, c)
    disabled = QColor("#64748b")
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p
