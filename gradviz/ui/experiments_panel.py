"""The Experiments dock: the four ways of returning z side by side, the gradient check, what Graph
mode costs, and the loss landscape with the optimizer's path on it.

Every number here is computed in the engine process (protocol.TASKS, engine/experiments/tasks.py);
this module only asks (TrainingController.run_task) and draws the replies. Each tab owns one
LessonTask: the id of its latest request, its progress bar and Cancel; replies with another id
(an earlier request, or one of a run that was reset) are dropped."""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QTextDocument, QTextOption
from PySide6.QtWidgets import (
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..engine import protocol as msg
from ..experiments.landscape import Plane
from ..model.formatting import fmt_number, fmt_tensor
from ..model.layout import Layout
from ..i18n import QT_TRANSLATE_NOOP
from ..model.steps import at_parameters
from . import theme
from .language import tr_msg
from .fields import ComboBox, DoubleSpinBox, SpinBox

TITLES = {
    "loss": QT_TRANSLATE_NOOP("VariantsTab", "loss only"),
    "return_z": QT_TRANSLATE_NOOP("VariantsTab", "{z} returned too"),
    "stop_gradient": QT_TRANSLATE_NOOP("VariantsTab", "{z} behind stop_gradient"),
    "has_aux": QT_TRANSLATE_NOOP("VariantsTab", "{z} as has_aux"),
}
DIFFERS = "#fed7aa"  # a gradient that differs from the loss-only column
OK_COLOR, FAIL_COLOR = "#15803d", theme.ERROR_COLOR
DIRECTIONS_ABOVE = 6  # more parameter elements than this: random directions by default
MAX_PATH_POINTS = 4000  # the trajectory drawn: every step up to this, then evenly thinned
_CODE = "font-family: 'DejaVu Sans Mono'; font-size: 10pt"


def fmt_grad(v: float) -> str:
    """3 decimals, so that 0.016 and 1.016 line up; other magnitudes as fmt_number."""
    return f"{v:.3f}" if 1e-3 <= abs(v) < 1e4 or v == 0 else fmt_number(v, 4)


def _widest_word(label: QLabel) -> int:
    """The width of a rich-text label's widest word as laid out: its text wraps only between
    words, so narrower it cuts a long one off mid-name ("mindspore.value_and_grad(")."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    opt = doc.defaultTextOption()
    opt.setWrapMode(QTextOption.WrapMode.WordWrap)  # as QLabel wraps: between words, never inside one
    doc.setDefaultTextOption(opt)
    doc.setHtml(label.text())
    doc.setTextWidth(1)  # every line as short as it can be: its widest word
    return math.ceil(doc.idealWidth()) + 2


def _label(text: str = "", size: float = 11, bold: bool = False, name: str = "") -> QLabel:
    w = QLabel(text)
    w.setFont(theme.font(size, bold=bold))
    w.setWordWrap(True)
    w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if name:
        w.setObjectName(name)
    return w


class LessonTask(QObject):
    """One kind of engine task (the protocol.TASKS row `name`): asks, shows progress with Cancel,
    and hands its result on."""

    def __init__(self, controller, name: str, on_result, row: QHBoxLayout, button: QPushButton, on_failed=None):
        super().__init__(button)
        self.command = msg.TASK_NAMED[name].command
        self.controller, self.on_result, self.on_failed = controller, on_result, on_failed
        self.task_id: int | None = None
        self.button = button
        self.progress = QProgressBar()
        self.progress.setObjectName(f"{name}Progress")
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.cancelButton = QPushButton(self.tr("Cancel"))
        self.cancelButton.setObjectName(f"{name}Cancel")
        self.cancelButton.clicked.connect(self.cancel)
        self.status = _label(name=f"{name}Status")
        for w in (button, self.progress, self.cancelButton):
            row.addWidget(w)
        row.addWidget(self.status, 1)
        self._busy(False)
        controller.taskReplied.connect(self.reply)

    @property
    def busy(self) -> bool:
        return self.task_id is not None

    def _busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancelButton.setVisible(busy)
        self.button.setEnabled(not busy)

    def start(self, **fields) -> bool:
        if self.busy:
            self.cancel()
        self.task_id = self.controller.run_task(self.command, **fields)
        if self.task_id is None:
            self.say(self.tr("Waiting for the engine: try again once the graph is built"), FAIL_COLOR)
            return False
        self.progress.setValue(0)
        self.say(self.tr("Computing in the engine…"))
        self._busy(True)
        return True

    def cancel(self) -> None:
        if self.task_id is not None:
            self.controller.cancel_task(self.task_id)
            self.forget(self.tr("Cancelled"))

    def forget(self, text: str = "") -> None:
        """Drop the task in flight: whatever it answers later is stale."""
        self.task_id = None
        self._busy(False)
        if text:
            self.say(text)

    def say(self, text: str, color: str = theme.VALUE_COLOR) -> None:
        self.status.setStyleSheet(f"color: {color};")
        self.status.setText(text)

    def reply(self, m) -> None:
        if self.task_id is None or m.task_id != self.task_id:
            return  # an earlier request's, or another tab's
        if isinstance(m, msg.TaskProgress):
            self.progress.setValue(int(m.fraction * 1000))
            return
        self.forget()
        if isinstance(m, msg.TaskFailed):
            self.say(tr_msg(m.message), FAIL_COLOR)
            self.status.setToolTip(m.detail)
            if self.on_failed is not None:
                self.on_failed()
        elif isinstance(m, msg.TaskCancelled):
            self.say(self.tr("Cancelled"))
        else:
            self.say("")
            self.on_result(m)


def _button(text: str, name: str) -> QPushButton:
    b = QPushButton(text)
    b.setObjectName(name)
    b.setFont(theme.font(11, bold=True))
    return b


# -- 4. the four variants ----------------------------------------------------------------------------
class VariantsTab(QWidget):
    TASK = "variants"  # its row of protocol.TASKS

    def __init__(self, controller):
        super().__init__()
        self.controller = controller
        self.result: msg.VariantsResult | None = None
        self.stale = True
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.computeButton = _button(self.tr("Compute"), "variantsCompute")
        self.task = LessonTask(controller, self.TASK, self.show_result, row, self.computeButton, on_failed=self.failed)
        self.computeButton.clicked.connect(self.compute)
        self.whyLabel = _label(size=12, name="variantsWhy")
        self.whyLabel.setStyleSheet("background: #fff7ed; padding: 4px;")
        self.whyLabel.setVisible(False)
        row.addWidget(self.whyLabel, 6)
        lay.addLayout(row)
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(6)
        lay.addLayout(self.grid, 1)
        self.cells: dict[tuple[str, str], QLabel] = {}

    def compute(self) -> None:
        self.stale = not self.task.start()

    def graph_changed(self) -> None:
        """A new build (graph, seed or options): recompute now if shown, else when shown. With
        no run (File > New), the last graph's table goes."""
        self.stale = True
        if self.controller.dropped:
            self.result = None
            self._clear()
            self.whyLabel.setVisible(False)
        if self.isVisible():
            self.compute()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.stale and not self.task.busy:
            self.compute()

    def _clear(self) -> None:
        while self.grid.count():
            w = self.grid.takeAt(0).widget()
            if w is not None:  # out of the window now (a language switch reads every label), deleted later
                w.setParent(None)
                w.deleteLater()
        self.cells.clear()

    def show_result(self, m: msg.VariantsResult) -> None:
        self.result = m
        self._clear()
        base = m.variants[0]
        z = ", ".join(base.aux)  # what the tutorial calls z
        corner = _label(self.tr("∂L/∂ parameter"), 11, True)
        self.grid.addWidget(corner, 0, 0, Qt.AlignmentFlag.AlignBottom)
        for c, v in enumerate(m.variants, start=1):
            head = _label(name=f"variantHead_{v.name}")
            head.setTextFormat(Qt.TextFormat.RichText)
            head.setText(
                f"<b style='font-size:12pt'>{html.escape(self.tr(TITLES.get(v.name, v.name)).format(z=z))}</b>"
                f"<span style='color:{theme.GRAD_COLOR}'> L = {html.escape(v.differentiated)}</span><br>"
                f'<span style="{_CODE}">{html.escape(v.function_returns)}<br>'
                f"grad_fn = {html.escape(v.call)}<br>→ {html.escape(v.returns)}</span>"
            )
            head.setMinimumWidth(max(170, _widest_word(head)))  # the table scrolls sideways instead
            self.grid.addWidget(head, 0, c, Qt.AlignmentFlag.AlignTop)
        # the smallest tensors first: the tutorial's +1 (in db) is in view without scrolling
        for r, p in enumerate(sorted(base.grads, key=lambda k: np.size(base.grads[k])), start=1):
            name = _label(f"∂L/∂{p}", 12, True)
            name.setStyleSheet(f"color: {theme.GRAD_COLOR};")
            self.grid.addWidget(name, r, 0, Qt.AlignmentFlag.AlignTop)
            ref = np.asarray(base.grads[p], np.float64)
            for c, v in enumerate(m.variants, start=1):
                g = np.asarray(v.grads[p], np.float64)
                differs = ~np.isclose(g, ref, rtol=1e-5, atol=1e-6)
                cell = _label(name=f"variantCell_{v.name}_{p}")
                cell.setTextFormat(Qt.TextFormat.RichText)
                cell.setText(_matrix_html(g, differs))
                cell.setStyleSheet(f"background: {DIFFERS if differs.any() else '#f9fafb'}; padding: 3px;")
                cell.setToolTip(
                    self.tr("differs from the loss-only column")
                    if differs.any()
                    else self.tr("same as the loss-only column")
                )
                self.cells[(v.name, p)] = cell
                self.grid.addWidget(cell, r, c, Qt.AlignmentFlag.AlignTop)
        self.grid.setRowStretch(len(base.grads) + 1, 1)
        self.whyLabel.setText(tr_msg(m.why))
        self.whyLabel.setVisible(True)
        self.stale = False
        QTimer.singleShot(0, self, self._claim_width)  # once the new cells are laid out (not after the tab is gone)

    def _claim_width(self) -> None:
        """The scroll area around the table is as wide as the table needs: a narrower dock then
        scrolls sideways with its own bar, at the bottom of the dock, in view."""
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.setMinimumWidth(self.minimumSizeHint().width() + area.verticalScrollBar().sizeHint().width())

    def failed(self) -> None:
        self.result = None
        self.stale = False  # the reason stays shown until the graph changes
        self._clear()
        self.whyLabel.setVisible(False)


MAX_TABLE_ELEMENTS = 256  # beyond, a tensor is said in one line: Qt took minutes to lay out a million cells


def _matrix_html(a: np.ndarray, bold: np.ndarray) -> str:
    """Every element, 3 decimals, in rows as the tensor's; the ones in `bold` stand out."""
    if a.size > MAX_TABLE_ELEMENTS:
        return f'<span style="{_CODE}; font-size:11pt">{html.escape(fmt_tensor(a))}</span>'
    a2, b2 = np.atleast_2d(a), np.atleast_2d(bold)
    if a.ndim == 1 and a.size > 4:
        a2, b2 = a.reshape(-1, 1), bold.reshape(-1, 1)  # a long vector reads down a column
    rows = []
    for vals, marks in zip(a2, b2):
        cells = "".join(
            f"<td align='right' style='padding-right:8px'>{'<b>' if m else ''}{fmt_grad(x)}{'</b>' if m else ''}</td>"
            for x, m in zip(vals, marks)
        )
        rows.append(f"<tr>{cells}</tr>")
    return f'<table style="{_CODE}; font-size:11pt">{"".join(rows)}</table>'


# -- 5. the gradient check ---------------------------------------------------------------------------
class GradCheckTab(QWidget):
    TASK = "gradcheck"  # its row of protocol.TASKS

    def __init__(self, controller):
        super().__init__()
        self.controller = controller
        self.result: msg.GradCheckResult | None = None
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.checkButton = _button(self.tr("Check gradients"), "gradcheckButton")
        self.task = LessonTask(controller, self.TASK, self.show_result, row, self.checkButton)
        self.checkButton.clicked.connect(lambda: self.task.start())
        lay.addLayout(row)
        self.verdict = _label(size=13, bold=True, name="gradcheckVerdict")
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.verdict)
        self.settings = _label(size=11, name="gradcheckSettings")
        lay.addWidget(self.settings)
        self.plots = pg.GraphicsLayoutWidget()
        self.plots.setObjectName("gradcheckMaps")
        self.plots.setMinimumHeight(120)
        lay.addWidget(self.plots, 1)
        self.images: dict[str, pg.ImageItem] = {}

    def show_result(self, m: msg.GradCheckResult) -> None:
        self.result, check = m, m.check
        ok = check.ok
        where = tr_msg(at_parameters(m.updates))
        n = sum(p.checked for p in check.params.values())
        bad = sum(int(np.nansum(p.rel_error > check.tolerance)) for p in check.params.values())
        self.verdict.setText(
            (
                self.tr("PASS: all {n} elements agree ({where})")
                if ok
                else self.tr("FAIL: {bad} of {n} elements disagree ({where})")
            ).format(n=n, bad=bad, where=where)
        )
        self.verdict.setStyleSheet(f"color: {OK_COLOR if ok else FAIL_COLOR};")
        self.settings.setText(
            self.tr(
                "MindSpore against float64 central differences: eps = {eps:g}, "
                "tolerance {tolerance:g} (relative error = |error| / max(1, |difference|))"
            ).format(eps=check.eps, tolerance=check.tolerance)
        )
        self.plots.clear()
        self.images.clear()
        lo, hi = -12.0, 0.0
        cmap = pg.colormap.get("viridis")
        for c, (name, p) in enumerate(check.params.items()):
            worst = [fmt_number(float(np.nanmax(e)) if p.checked else 0.0, 2) for e in (p.abs_error, p.rel_error)]
            color = OK_COLOR if p.ok else FAIL_COLOR
            verdict = self.tr("✓ agrees") if p.ok else self.tr("✗ DISAGREES")
            title = (
                f"<span style='font-size:11pt; color:{theme.GRAD_COLOR}'><b>∂L/∂{html.escape(name)}</b></span> "
                f"<span style='font-size:11pt; color:{color}'>{verdict}"
                "</span><br><span style='font-size:10pt'>"
                + self.tr("max abs {abs}, max rel {rel}").format(abs=worst[0], rel=worst[1])
                + "</span>"
            )
            item = self.plots.addPlot(row=0, col=c, title=title)
            item.hideAxis("left")
            item.hideAxis("bottom")
            item.invertY(True)
            item.setAspectLocked(True)
            err = np.atleast_2d(np.asarray(p.rel_error, np.float64))
            with np.errstate(divide="ignore", invalid="ignore"):
                logs = np.clip(np.log10(np.where(err > 0, err, 1e-16)), lo, hi)
            img = pg.ImageItem(np.where(np.isnan(err), lo, logs), axisOrder="row-major")
            img.setColorMap(cmap)
            img.setLevels((lo, hi))
            item.addItem(img)
            self.images[name] = img
        if self.images:
            bar = pg.ColorBarItem(
                values=(lo, hi), colorMap=cmap, label=self.tr("log₁₀ relative error"), interactive=False
            )
            bar.setImageItem(list(self.images.values()))
            self.plots.addItem(bar, row=0, col=len(check.params))


# -- 6. mode cost -------------------------------------------------------------------------------------
class ModeCostTab(QWidget):
    TASK = "modecost"  # its row of protocol.TASKS

    def __init__(self, controller):
        super().__init__()
        self.controller = controller
        self.result: msg.ModeCostResult | None = None
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.measureButton = _button(self.tr("Measure"), "modecostButton")
        self.stepsSpin = SpinBox()
        self.stepsSpin.setObjectName("modecostSteps")
        self.stepsSpin.setRange(2, 5000)
        self.stepsSpin.setValue(50)
        self.stepsSpin.setSuffix(self.tr(" steps in each mode"))
        row.addWidget(self.stepsSpin)
        self.task = LessonTask(controller, self.TASK, self.show_result, row, self.measureButton)
        self.measureButton.clicked.connect(lambda: self.task.start(steps=self.stepsSpin.value()))
        lay.addLayout(row)
        self.table = _label(size=13, name="modecostTable")
        self.table.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.table)
        lay.addStretch(1)

    def show_result(self, m: msg.ModeCostResult) -> None:
        self.result = m
        c = m.cost
        gain = c.pynative_ms - c.graph_ms
        pays = (
            self.tr("Graph mode saves {gain:.3f} ms a step: the compile pays for itself after {n} steps.").format(
                gain=gain, n=int(np.ceil(c.graph_compile_s * 1e3 / gain))
            )
            if gain > 0
            else self.tr("Graph mode is not faster per step on this graph.")
        )
        rows = [
            (self.tr("PyNative"), self.tr("{ms:.3f} ms/step").format(ms=c.pynative_ms)),
            (self.tr("Graph (mindspore.jit)"), self.tr("{ms:.3f} ms/step").format(ms=c.graph_ms)),
            (self.tr("first Graph step (compiles)"), self.tr("{ms:.0f} ms").format(ms=c.graph_compile_s * 1e3)),
            (
                self.tr("largest difference after {n} steps").format(n=c.steps),
                self.tr("{abs:.3g} (relative {rel:.3g})").format(abs=c.max_abs_difference, rel=c.max_rel_difference),
            ),
        ]
        body = "".join(
            f"<tr><td style='padding-right:16px'>{html.escape(a)}</td><td align='right'><b>{html.escape(b)}"
            "</b></td></tr>"
            for a, b in rows
        )
        self.table.setText(
            f"<table>{body}</table><p style='font-size:11pt'>{html.escape(pays)} "
            + self.tr(
                "Medians over the steps after the first; the difference covers the loss, parameters and "
                "gradients of every step."
            )
            + "</p>"
        )


# -- 7. the loss landscape ----------------------------------------------------------------------------
class LandscapeTab(QWidget):
    TASK = "landscape"  # its row of protocol.TASKS

    def __init__(self, controller):
        super().__init__()
        self.controller = controller
        self.result: msg.LandscapeResult | None = None
        self.plane: Plane | None = None
        self.offset = np.zeros(2)
        self.path = np.zeros((0, 2))
        self._projected = 0  # history rows projected so far
        self._history = None
        self._key = None  # what the shown surface is of: graph and L's options
        outer = QHBoxLayout(self)
        side = QVBoxLayout()
        form = QFormLayout()
        self.planeCombo = ComboBox()
        self.planeCombo.setObjectName("landscapePlane")
        self.planeCombo.addItems(
            [self.tr("two parameter elements"), self.tr("two random directions (filter-normalised)")]
        )
        self.planeCombo.currentIndexChanged.connect(self._plane_kind_changed)
        self.xCombo, self.yCombo = ComboBox(), ComboBox()
        self.xCombo.setObjectName("landscapeX")
        self.yCombo.setObjectName("landscapeY")
        self.spanSpin = DoubleSpinBox()
        self.spanSpin.setObjectName("landscapeSpan")
        self.spanSpin.setRange(0.01, 1000.0)
        self.spanSpin.setDecimals(2)
        self.spanSpin.setValue(1.0)
        self.spanSpin.setPrefix("± ")
        self.gridSpin = SpinBox()
        self.gridSpin.setObjectName("landscapeGrid")
        self.gridSpin.setRange(5, 201)
        self.gridSpin.setValue(41)
        self.gridSpin.setSuffix(self.tr(" points"))
        form.addRow(self.tr("plane"), self.planeCombo)
        form.addRow(self.tr("x axis"), self.xCombo)
        form.addRow(self.tr("y axis"), self.yCombo)
        grid_row = QHBoxLayout()
        grid_row.addWidget(self.spanSpin)
        grid_row.addWidget(QLabel(self.tr("grid")))
        grid_row.addWidget(self.gridSpin)
        form.addRow(self.tr("range"), grid_row)
        side.addLayout(form)
        row = QHBoxLayout()
        self.computeButton = _button(self.tr("Compute"), "landscapeCompute")
        self.task = LessonTask(controller, self.TASK, self.show_result, row, self.computeButton)
        self.computeButton.clicked.connect(self.compute)
        side.addLayout(row)
        self.note = _label(size=10, name="landscapeNote")
        side.addWidget(self.note)
        side.addStretch(1)
        host = QWidget()
        host.setLayout(side)
        host.setMaximumWidth(360)
        outer.addWidget(host)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("landscapePlot")
        self.plot.setMinimumHeight(150)
        for ax in ("left", "bottom"):
            self.plot.getAxis(ax).setTickFont(theme.font(10))
            self.plot.getAxis(ax).enableAutoSIPrefix(False)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self.cmap = pg.colormap.get("viridis")
        self.image.setColorMap(self.cmap)
        self.bar = pg.ColorBarItem(colorMap=self.cmap, label="L", interactive=False)
        self.bar.setImageItem(self.image, insert_in=self.plot.getPlotItem())
        self.isocurves: list[pg.IsocurveItem] = []
        self.pathCurve = self.plot.plot(pen=pg.mkPen("#ffffff", width=2))
        self.startDot = self.plot.plot(symbol="o", symbolSize=9, symbolBrush="#ffffff", pen=None)
        self.nowDot = self.plot.plot(symbol="o", symbolSize=11, symbolBrush=theme.ERROR_COLOR, pen=None)
        outer.addWidget(self.plot, 1)
        controller.built.connect(self._built)
        controller.ticked.connect(self.update_path)

    # -- choosing --------------------------------------------------------------------------------
    def _built(self) -> None:
        h = self.controller.history
        if h is None:
            return
        labels = h.param_layout.labels()
        if [self.xCombo.itemText(i) for i in range(self.xCombo.count())] != labels:
            for combo, pick in ((self.xCombo, 0), (self.yCombo, 1)):
                combo.clear()
                combo.addItems(labels)
                combo.setCurrentIndex(min(pick, len(labels) - 1))
            self.planeCombo.setCurrentIndex(1 if len(labels) > DIRECTIONS_ABOVE else 0)
        self._plane_kind_changed()
        if self.task.busy:
            self.task.forget(self.tr("The run was rebuilt: compute again"))
        if self._key != self._session_key():
            self.clear(self.tr("The graph or the options changed: compute the landscape again"))
        self._history, self._projected, self.path = h, 0, np.zeros((0, 2))
        self.update_path()

    def _session_key(self):
        s = self.controller.session
        if s is None:
            return None
        o = s.options
        return s.graph.to_dict(), o.aux_output, o.stop_gradient, o.has_aux

    def _plane_kind_changed(self) -> None:
        elements = self.planeCombo.currentIndex() == 0
        self.xCombo.setEnabled(elements)
        self.yCombo.setEnabled(elements)

    def compute(self) -> None:
        elements = None
        if self.planeCombo.currentIndex() == 0:
            i, j = self.xCombo.currentIndex(), self.yCombo.currentIndex()
            if i == j or i < 0 or j < 0:
                self.task.say(self.tr("Choose two different parameter elements"), FAIL_COLOR)
                return
            elements = (i, j)
        self.task.start(elements=elements, span=float(self.spanSpin.value()), resolution=int(self.gridSpin.value()))

    # -- drawing ---------------------------------------------------------------------------------
    def clear(self, text: str = "") -> None:
        self.result, self.plane, self._key = None, None, None
        self.image.clear()
        for c in self.isocurves:
            self.plot.removeItem(c)
        self.isocurves.clear()
        for item in (self.pathCurve, self.startDot, self.nowDot):
            item.setData([], [])
        self.note.setText(text)

    def show_result(self, m: msg.LandscapeResult) -> None:
        self.clear()
        self.result = m
        self._key = self._session_key()
        self.plane = Plane(Layout.from_dict(m.layout), m.center, m.u, m.v, tuple(m.labels))
        elements = bool(np.count_nonzero(m.u) == 1 and np.count_nonzero(m.v) == 1)
        # element planes read in the elements' own values; directions in steps along them
        self.offset = (
            np.array([m.center[np.flatnonzero(m.u)[0]], m.center[np.flatnonzero(m.v)[0]]]) if elements else np.zeros(2)
        )
        a, b, z = m.alphas + self.offset[0], m.betas + self.offset[1], np.asarray(m.loss, np.float64)
        finite = z[np.isfinite(z)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        hi = hi if hi > lo else lo + 1.0
        da, db = (a[1] - a[0]), (b[1] - b[0])
        self.image.setImage(np.where(np.isfinite(z), z, hi), levels=(lo, hi))
        self.image.setRect(
            float(a[0] - da / 2), float(b[0] - db / 2), float(a[-1] - a[0] + da), float(b[-1] - b[0] + db)
        )
        self.bar.setLevels((lo, hi))
        for level in np.linspace(lo, hi, 12)[1:-1]:
            iso = pg.IsocurveItem(data=z.T, level=float(level), pen=pg.mkPen((255, 255, 255, 150), width=1))
            iso.setTransform(self._iso_transform(a, b))
            iso.setZValue(5)
            self.plot.addItem(iso)
            self.isocurves.append(iso)
        for item in (self.pathCurve, self.startDot, self.nowDot):
            item.setZValue(10)
        self.plot.setLabel("bottom", m.labels[0])
        self.plot.setLabel("left", m.labels[1])
        self.plot.setXRange(a[0], a[-1], padding=0)
        self.plot.setYRange(b[0], b[-1], padding=0)
        self.note.setText(
            self.tr(
                "L ({x}, {y}) through the parameters {at}: {lo} to {hi}. White: the optimizer's path, red: now."
            ).format(
                x=m.labels[0], y=m.labels[1], at=tr_msg(at_parameters(m.updates)), lo=fmt_number(lo), hi=fmt_number(hi)
            )
        )
        self._projected, self.path = 0, np.zeros((0, 2))
        self.update_path()

    @staticmethod
    def _iso_transform(a: np.ndarray, b: np.ndarray):
        from PySide6.QtGui import QTransform

        t = QTransform()
        t.translate(float(a[0]), float(b[0]))
        t.scale(float(a[1] - a[0]), float(b[1] - b[0]))
        return t

    def update_path(self) -> None:
        """Project the history's new steps on the plane and redraw the path (live)."""
        h = self.controller.history
        if self.plane is None or h is None or h.param_layout.to_dict() != self.plane.layout.to_dict():
            return
        if h is not self._history or h.n < self._projected:
            self._history, self._projected, self.path = h, 0, np.zeros((0, 2))
        if h.n > self._projected:
            new = self.plane.project(np.asarray(h.params[self._projected : h.n], np.float64)) + self.offset
            self.path = np.concatenate([self.path, new])
            self._projected = h.n
        p = self.path
        if not len(p):
            for item in (self.pathCurve, self.startDot, self.nowDot):
                item.setData([], [])
            return
        shown = (
            p
            if len(p) <= MAX_PATH_POINTS
            else np.concatenate([p[np.linspace(0, len(p) - 1, MAX_PATH_POINTS).astype(int)], p[-1:]])
        )
        self.pathCurve.setData(shown[:, 0], shown[:, 1])
        self.startDot.setData(p[:1, 0], p[:1, 1])
        self.nowDot.setData(p[-1:, 0], p[-1:, 1])


# -- the dock's widget ----------------------------------------------------------------------------------
# -- the PyTorch side of the seed ---------------------------------------------------------------------
class ParityTab(QWidget):
    TASK = "parity"  # its row of protocol.TASKS

    """The seed's comparison made exact: the same graph in PyTorch from the same values."""

    def __init__(self, controller):
        super().__init__()
        self.controller = controller
        self.result: msg.ParityResult | None = None
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.compareButton = _button(self.tr("Compare with PyTorch"), "parityButton")
        self.task = LessonTask(controller, self.TASK, self.show_result, row, self.compareButton)
        self.compareButton.clicked.connect(lambda: self.task.start())
        lay.addLayout(row)
        self.summary = _label(size=13, name="paritySummary")
        lay.addWidget(self.summary)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setObjectName("parityPlot")
        self.plot.setLogMode(False, True)
        self.plot.addLegend(offset=(-10, 10))
        self.label_axes()
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # the log ticks say the powers of ten
        colours = (
            ("loss", self.tr("loss"), theme.LOSS_COLOR),
            ("gradients", self.tr("gradients"), theme.GRAD_COLOR),
            ("parameters", self.tr("parameters"), "#1f77b4"),
        )
        self.curves = {k: self.plot.plot(pen=pg.mkPen(c, width=2), name=label) for k, label, c in colours}
        lay.addWidget(self.plot, 1)

    def label_axes(self) -> None:
        self.plot.setLabel("bottom", self.tr("step"))
        self.plot.setLabel("left", self.tr("difference"))

    def show_result(self, m: msg.ParityResult) -> None:
        self.result = m
        r = m.result
        for d, name in ((r.loss, "loss"), (r.grads, "gradients"), (r.params, "parameters")):
            d = np.asarray(d, np.float64)
            # a log axis: steps where the two agree exactly (0) are gaps, not a spike to 1e-12
            self.curves[name].setData(r.steps, np.where(d > 0, d, np.nan), connect="finite")
        verdict = self.tr("they agree") if r.ok else self.tr("they DIFFER")
        self.summary.setText(
            self.tr(
                "MindSpore ended by {ms_end} at step {ms_step}, PyTorch by {pt_end} at step {pt_step}. Largest "
                "difference {worst:.2g} (each divided by its largest size in the run), tolerance {tolerance:g}: {verdict}."
            ).format(
                ms_end=r.mindspore_end[0],
                ms_step=r.mindspore_end[1],
                pt_end=r.pytorch_end[0],
                pt_step=r.pytorch_end[1],
                worst=r.worst,
                tolerance=r.tolerance,
                verdict=verdict,
            )
        )


# -- MindSpore's other transforms ---------------------------------------------------------------------
def _code(text: str) -> str:
    return f'<span style="{_CODE}">{html.escape(text)}</span>'


def _vector_text(a) -> str:
    a = np.asarray(a, np.float64)
    if a.size > MAX_TABLE_ELEMENTS:
        return html.escape(fmt_tensor(a))
    return _matrix_html(a, np.zeros(a.shape, bool))


class _TransformTab(QWidget):
    """A transform of experiments/transforms.py: what to differentiate, Compute, then MindSpore's
    numbers beside the float64 reference, a verdict, and (hessian, jacobian) a heat map."""

    TASK = ""
    NODE = False  # asks for a node
    ELEMENT = False  # asks for an element of the Parameter
    SAMPLE = False  # offers a sample where too large
    VECTORS = False  # asks for v and u
    MAP = False

    def __init__(self, controller):
        super().__init__()
        self.controller = controller
        self.result = None
        self.shapes: dict = {}
        outer = QHBoxLayout(self)
        side = QVBoxLayout()
        form = QFormLayout()
        self.paramCombo = ComboBox()
        self.paramCombo.setObjectName(f"{self.TASK}Param")
        self.paramCombo.currentIndexChanged.connect(self._param_changed)
        form.addRow(self.tr("Parameter"), self.paramCombo)
        self.nodeCombo = ComboBox()
        self.nodeCombo.setObjectName(f"{self.TASK}Node")
        if self.NODE:
            form.addRow(self.tr("node"), self.nodeCombo)
        self.elementSpin = SpinBox()
        self.elementSpin.setObjectName(f"{self.TASK}Element")
        self.elementSpin.valueChanged.connect(self._element_changed)
        self.elementLabel = QLabel()
        if self.ELEMENT:
            row = QHBoxLayout()
            row.addWidget(self.elementSpin)
            row.addWidget(self.elementLabel, 1)
            form.addRow(self.tr("element"), row)
        self.sampleSpin = SpinBox()
        self.sampleSpin.setObjectName(f"{self.TASK}Sample")
        self.sampleSpin.setRange(0, 100)
        self.sampleSpin.setValue(0)
        self.sampleSpin.setSpecialValueText(self.tr("off"))
        self.sampleSpin.setSuffix(self.tr(" random elements"))
        self.sampleSpin.setToolTip(self.tr("Where the transform is too large: this many elements at random"))
        if self.SAMPLE:
            form.addRow(self.tr("sample"), self.sampleSpin)
        self.vEdit, self.uEdit = QLineEdit(), QLineEdit()
        for edit, name in ((self.vEdit, "V"), (self.uEdit, "U")):
            edit.setObjectName(f"{self.TASK}{name}")
            edit.setPlaceholderText(self.tr("ones (or numbers separated by commas)"))
        if self.VECTORS:
            form.addRow(self.tr("v (node-shaped)"), self.vEdit)
            form.addRow(self.tr("u (Parameter-shaped)"), self.uEdit)
        side.addLayout(form)
        row = QHBoxLayout()
        self.computeButton = _button(self.tr("Compute"), f"{self.TASK}Compute")
        self.task = LessonTask(controller, self.TASK, self.show_result, row, self.computeButton)
        self.computeButton.clicked.connect(self.compute)
        side.addLayout(row)
        self.verdict = _label(size=13, bold=True, name=f"{self.TASK}Verdict")
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        side.addWidget(self.verdict)
        self.summary = _label(size=11, name=f"{self.TASK}Summary")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        side.addWidget(self.summary)
        self.marks = _label(size=11, name=f"{self.TASK}Marks")
        self.marks.setStyleSheet("background: #fff7ed; padding: 4px;")
        self.marks.setVisible(False)
        side.addWidget(self.marks)
        side.addStretch(1)
        host = QWidget()
        host.setLayout(side)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(host)
        outer.addWidget(scroll, 1)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName(f"{self.TASK}Map")
        self.plot.setMinimumHeight(150)
        self.plot.invertY(True)
        self.plot.setAspectLocked(True)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        cmap = pg.colormap.get("viridis")
        self.image.setColorMap(cmap)
        self.bar = pg.ColorBarItem(colorMap=cmap, interactive=False)
        self.bar.setImageItem(self.image, insert_in=self.plot.getPlotItem())
        if self.MAP:
            outer.addWidget(self.plot, 1)
        else:
            self.plot.setVisible(False)
        controller.built.connect(self._built)

    # -- choosing ------------------------------------------------------------------------------
    def _built(self) -> None:
        s = self.controller.session
        if s is None:
            return
        if self.task.busy:
            self.task.forget(self.tr("The run was rebuilt: compute again"))
        self.shapes = s.graph.check()
        params = [n.name for n in s.graph.parameters()]
        nodes = [n for n in self.shapes if s.graph.get(n) is None or s.graph.get(n).kind not in ("Output",)]
        nodes = [n for n in nodes if n not in params and s.graph.get(n) is not None and not s.graph.get(n).is_source]
        for combo, names in ((self.paramCombo, params), (self.nodeCombo, nodes)):
            if [combo.itemText(i) for i in range(combo.count())] != names:
                keep = combo.currentText()
                combo.blockSignals(True)
                combo.clear()
                combo.addItems(names)
                combo.setCurrentIndex(max(0, names.index(keep)) if keep in names else 0)
                combo.blockSignals(False)
        outs = s.graph.outputs()
        z = (outs[1] if len(outs) > 1 else outs[0]).inputs.get("x") if outs else None
        if z in nodes and not self.result:
            self.nodeCombo.setCurrentText(z)
        self._param_changed()

    def _param_changed(self) -> None:
        shape = tuple(self.shapes.get(self.paramCombo.currentText(), ()))
        self.elementSpin.setRange(0, max(0, int(np.prod(shape)) - 1))
        self._element_changed()

    def _element_changed(self) -> None:
        from ..experiments.transforms import label

        name = self.paramCombo.currentText()
        shape = tuple(self.shapes.get(name, ()))
        self.elementLabel.setText(label(name, shape, self.elementSpin.value()) if name else "")

    def fields(self) -> dict | None:
        f = {"param": self.paramCombo.currentText() or None}
        if self.NODE:
            f["node"] = self.nodeCombo.currentText() or None
        if self.ELEMENT:
            f["element"] = int(self.elementSpin.value())
        if self.SAMPLE:
            f["sample"] = int(self.sampleSpin.value()) or None
        if self.VECTORS:
            for key, edit in (("v", self.vEdit), ("u", self.uEdit)):
                text = edit.text().strip()
                try:
                    f[key] = tuple(float(x) for x in text.split(",")) if text else None
                except ValueError:
                    self.task.say(self.tr("{name}: give numbers separated by commas").format(name=key), FAIL_COLOR)
                    return None
        return f

    def compute(self) -> None:
        f = self.fields()
        if f is not None:
            self.task.start(**f)

    # -- showing -------------------------------------------------------------------------------
    def show_result(self, m) -> None:
        self.result = m
        r = m.result
        where = tr_msg(at_parameters(m.updates))
        self.verdict.setText(
            (
                self.tr("MindSpore agrees with float64 finite differences ({where})")
                if r.ok
                else self.tr("MindSpore DISAGREES with float64 finite differences ({where})")
            ).format(where=where)
        )
        self.verdict.setStyleSheet(f"color: {OK_COLOR if r.ok else FAIL_COLOR};")
        self.summary.setText(self.body(r))
        marks = [tr_msg(k.text) for k in r.kinks]
        note = self.note(r)
        if note:
            marks.insert(0, note)
        self.marks.setText("\n".join(marks))
        self.marks.setVisible(bool(marks))
        if self.MAP:
            self.draw(self.matrix(r))

    def note(self, r) -> str:
        return self.tr("MindSpore could not compute it: {error}").format(error=r.error) if r.error else ""

    def draw(self, a: np.ndarray) -> None:
        a = np.asarray(a, np.float64)
        finite = a[np.isfinite(a)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        hi = hi if hi > lo else lo + 1.0
        self.image.setImage(np.where(np.isfinite(a), a, lo), levels=(lo, hi))
        self.bar.setLevels((lo, hi))
        self.plot.autoRange()

    def matrix(self, r) -> np.ndarray:
        return np.zeros((1, 1))

    def body(self, r) -> str:
        return ""


class HessianTab(_TransformTab):
    TASK = "hessian"  # its row of protocol.TASKS
    ELEMENT = SAMPLE = MAP = True

    def matrix(self, r) -> np.ndarray:
        return r.hessian if np.isfinite(r.hessian).any() else r.hessian_ref

    def note(self, r) -> str:
        n = r.note()
        return tr_msg(n) if n else ""

    def body(self, r) -> str:
        which = (
            self.tr("{k} elements of {param} at random (rows and columns)").format(k=len(r.elements), param=r.param)
            if r.sampled
            else self.tr("every element of {param}").format(param=r.param)
        )
        shown = "MindSpore" if np.isfinite(r.hessian).any() else self.tr("the reference (MindSpore gave none)")
        return (
            f"<p>{self.tr('Second derivative by grad of grad:')}<br>{_code(r.calls[0])}</p>"
            f"<p style='font-size:14pt'>∂²L/∂{html.escape(r.label)}² = <b>{fmt_number(r.second)}</b> "
            + html.escape(self.tr("(finite differences {ref})").format(ref=fmt_number(r.second_ref)))
            + "</p>"
            f"<p>{self.tr('The Hessian of L over {which}:').format(which=html.escape(which))}<br>{_code(r.calls[1])}<br>"
            + html.escape(self.tr("The heat map shows {shown}; row i, column j is ∂²L/∂pᵢ∂pⱼ.").format(shown=shown))
            + "</p>"
        )


class JacobianTab(_TransformTab):
    TASK = "jacobian"  # its row of protocol.TASKS
    NODE = SAMPLE = MAP = True

    def matrix(self, r) -> np.ndarray:
        return r.jacrev if np.isfinite(r.jacrev).any() else r.reference

    def body(self, r) -> str:
        same = np.allclose(r.jacrev, r.jacfwd, rtol=1e-5, atol=1e-6, equal_nan=True)
        size = (
            self.tr("{k} rows and {c} columns at random of {m} x {n}").format(
                k=len(r.rows), c=len(r.cols), m=r.outputs, n=r.inputs
            )
            if r.sampled
            else f"{r.outputs} x {r.inputs}"
        )
        rev_s, fwd_s = (f"{t * 1e3:.0f} ms" if np.isfinite(t) else "—" for t in r.seconds)
        chain = (
            self.tr("Every path from {param} to L passes through {node}: the chain rule gives ∂L/∂{param}.")
            if r.all_paths
            else self.tr("{param} also reaches L around {node}: Jᵀ · ∂L/∂{node} is only the share through {node}.")
        ).format(param=r.param, node=r.node)
        return (
            f"<p>∂{html.escape(r.node)}/∂{html.escape(r.param)} ({html.escape(size)}):<br>"
            f"{_code(r.calls[0])} ({rev_s})<br>{_code(r.calls[1])} ({fwd_s})<br>"
            + html.escape(
                self.tr("jacrev and jacfwd give the same matrix") if same else self.tr("jacrev and jacfwd DIFFER")
            )
            + "</p>"
            f"<p>{html.escape(tr_msg(r.cheaper()))}</p>"
            f"<p>{self.tr('The chain rule: the Jacobian transposed times the upstream gradient')}<br>"
            f"Jᵀ · ∂L/∂{html.escape(r.node)} = {_vector_text(r.chain)}<br>"
            f"∂L/∂{html.escape(r.param)} (grad) = {_vector_text(r.grad)}<br>{html.escape(chain)}</p>"
        )


class ProductsTab(_TransformTab):
    TASK = "vjp"  # its row of protocol.TASKS
    NODE = VECTORS = True

    def body(self, r) -> str:
        return (
            f"<p>{_code(r.calls[0])}<br>vjp_fn(v) = Jᵀ v =<br>{_vector_text(r.vjp)}</p>"
            f"<p>{_code(r.calls[1])}<br>J u =<br>{_vector_text(r.jvp)}</p>"
            f"<p>{self.tr('grad is the VJP of L with a one:')}<br>{_code(r.calls[2])} =<br>{_vector_text(r.grad)}"
            f"<br>{_code(r.calls[3])} =<br>{_vector_text(r.grad_vjp)}</p>"
        )


VIEWS = (
    VariantsTab,
    GradCheckTab,
    ModeCostTab,
    LandscapeTab,
    ParityTab,
    HessianTab,
    JacobianTab,
    ProductsTab,
)  # one per protocol.TASKS row


class ExperimentsPanel(QTabWidget):
    """The lessons as tabs of one dock, each the attribute its task's name says (self.variants...)."""

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.setObjectName("lessonsPanel")
        for view in VIEWS:
            setattr(self, view.TASK, view(controller))
        for w, title in (
            (self.variants, self.tr("Four variants")),
            (self.gradcheck, self.tr("Gradient check")),
            (self.modecost, self.tr("Mode cost")),
            (self.landscape, self.tr("Loss landscape")),
            (self.parity, self.tr("PyTorch parity")),
            (self.hessian, self.tr("Hessian")),
            (self.jacobian, self.tr("Jacobian")),
            (self.vjp, self.tr("VJP and JVP")),
        ):
            if w is self.variants:  # as many rows as the graph has parameters: it scrolls
                scroll = QScrollArea()
                scroll.setWidgetResizable(True)
                scroll.setFrameShape(QScrollArea.Shape.NoFrame)
                # never sideways in here: its bar sat below the short dock's fold, and the fourth
                # column was cut with no bar in view; the dock's own bar scrolls sideways instead
                scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
                scroll.setWidget(w)
                self.addTab(scroll, title)
            else:
                self.addTab(w, title)
        self.setFont(theme.font(11))
        controller.built.connect(self._built)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:  # the results shown, said again in the new language
            self.parity.label_axes()
            for tab in (
                self.variants,
                self.gradcheck,
                self.modecost,
                self.parity,
                self.hessian,
                self.jacobian,
                self.vjp,
            ):
                if tab.result is not None:
                    tab.show_result(tab.result)

    def _built(self) -> None:
        for t in (self.gradcheck.task, self.modecost.task, self.parity.task):
            if t.busy:
                t.forget(self.tr("The run was rebuilt: ask again"))
        if self.variants.task.busy:
            self.variants.task.forget()
        self.variants.graph_changed()
