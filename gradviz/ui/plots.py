"""Live plots: loss, every parameter element, every gradient element and the gradient norm,
plus heat maps of matrix parameters and their gradients.

Curves are created once per run (when its layout is known) and fed from the history buffers
with setData on slices; peak downsampling and clip-to-view keep long runs fast."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ..formatting import fmt_number
from ..layout import Layout
from . import theme

pg.setConfigOptions(antialias=False, background="w", foreground="k")


def _plot(name: str, title: str, ylabel: str) -> pg.PlotWidget:
    w = pg.PlotWidget()
    w.setObjectName(name)
    w.setTitle(f"<span style='font-size:13pt; font-weight:bold'>{title}</span>")
    w.setLabel("bottom", "step")
    w.setLabel("left", ylabel)
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMenuEnabled(True)
    for ax in ("left", "bottom"):
        w.getAxis(ax).setTickFont(theme.font(10))
    w.setMinimumHeight(160)
    return w


def _curve(w: pg.PlotWidget, color, name: str | None = None, width: float = 1.0, style=Qt.PenStyle.SolidLine):
    c = w.plot(pen=pg.mkPen(color, width=width, style=style), name=name)
    c.setDownsampling(auto=True, method="peak")
    c.setClipToView(True)
    return c


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
        self.lossPlot = _plot("lossPlot", "Loss", "loss")
        self.paramPlot = _plot("paramPlot", "Parameters", "value")
        self.gradPlot = _plot("gradPlot", "Gradients", "dL/dp")
        self.logCheck = QCheckBox("log scale")
        self.logCheck.setObjectName("lossLogCheck")
        self.logCheck.toggled.connect(lambda on: self.lossPlot.setLogMode(y=on))
        self.readout = QLabel("Hover a plot to read values")
        self.readout.setObjectName("plotReadout")
        self.readout.setFont(theme.font(11, mono=True))
        self.heat = pg.GraphicsLayoutWidget()
        self.heat.setObjectName("heatMaps")
        self.heat.setMinimumWidth(200)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(self.logCheck)
        top.addWidget(self.readout, 1)
        lay.addLayout(top)
        grid = QGridLayout()
        grid.addWidget(self.lossPlot, 0, 0)
        grid.addWidget(self.paramPlot, 0, 1)
        grid.addWidget(self.gradPlot, 0, 2)
        grid.addWidget(self.heat, 0, 3)
        for c, s in enumerate((3, 4, 4, 2)):
            grid.setColumnStretch(c, s)
        lay.addLayout(grid, 1)
        self.history = None
        self._version = -1
        self.loss_curve = _curve(self.lossPlot, theme.LOSS_COLOR, width=1.5)
        self.bad_marks = pg.ScatterPlotItem(symbol="x", size=16, pen=pg.mkPen(theme.ERROR_COLOR, width=2.5),
                                            brush=pg.mkBrush(theme.ERROR_COLOR))
        self.lossPlot.addItem(self.bad_marks)
        self.bad_lines: list[pg.InfiniteLine] = []
        self.param_curves: list = []
        self.grad_curves: list = []
        self.norm_curve = None
        self.images: list[tuple[pg.ImageItem, str, int, tuple]] = []
        self._hover = [HoverReadout(p, self.readout, t) for p, t in ((self.lossPlot, self._text_loss),
                       (self.paramPlot, self._text_params), (self.gradPlot, self._text_grads))]

    # -- building ------------------------------------------------------------------------------
    def set_history(self, history) -> None:
        """A new run: create its curves once, coloured like the graph editor's parameters."""
        self.history = history
        self._version = -1
        for w in (self.paramPlot, self.gradPlot):
            w.clear()
            if w.plotItem.legend is not None:
                w.plotItem.legend.scene().removeItem(w.plotItem.legend) if w.plotItem.legend.scene() else None
                w.plotItem.legend = None
        self.loss_curve.setData([], [])
        self.bad_marks.setData([], [])
        for ln in self.bad_lines:
            for w in (self.lossPlot, self.paramPlot, self.gradPlot):
                w.removeItem(ln) if ln.scene() is w.scene() else None
        self.bad_lines = []
        self.param_curves, self.grad_curves = [], []
        self.heat.clear()
        self.images = []
        if history is None:
            return
        pl, gl = history.param_layout, history.grad_layout
        self.paramPlot.addLegend(offset=(8, 8), labelTextSize="11pt")
        self.gradPlot.addLegend(offset=(8, 8), labelTextSize="11pt")
        self.param_curves = self._element_curves(self.paramPlot, pl, pl)
        self.grad_curves = self._element_curves(self.gradPlot, gl, pl)
        self.norm_curve = _curve(self.gradPlot, theme.NORM_COLOR, name="‖grad‖", width=1.0, style=Qt.PenStyle.DashLine)
        row = 0
        for layout, kind in ((pl, "params"), (gl, "grads")):
            off = 0
            for name, shape, size in zip(layout.names, layout.shapes, layout.sizes):
                if len(shape) == 2:
                    title = name if kind == "params" else f"∂L/∂{name}"
                    vb = self.heat.addViewBox(row=row, col=0, lockAspect=True, enableMouse=False)
                    img = pg.ImageItem(axisOrder="row-major")
                    vb.addItem(img)
                    vb.invertY(True)
                    self.heat.addLabel(title, row=row, col=1, size="11pt",
                                       color=theme.GRAD_COLOR if kind == "grads" else theme.VALUE_COLOR)
                    self.images.append((img, kind, off, shape))
                    row += 1
                off += size

    def _element_curves(self, w: pg.PlotWidget, layout: Layout, color_layout: Layout) -> list:
        curves = []
        labels = layout.labels()
        i = 0
        for name, size in zip(layout.names, layout.sizes):
            pi = color_layout.names.index(name) if name in color_layout.names else 0
            for k in range(size):
                col = theme.element_color(pi, k, size)
                # one legend entry per tensor, not per element: "w (15)"
                label = (name if size == 1 else f"{name} ({size})") if k == 0 else None
                curves.append(_curve(w, col, name=label))
                i += 1
        return curves

    # -- drawing --------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw from the history if it changed; called on the GUI timer, never per step."""
        h = self.history
        if h is None or h.version == self._version:
            return
        self._version = h.version
        x = h.steps
        loss = h.loss
        finite = np.isfinite(loss)
        self.loss_curve.setData(x, loss, connect="finite")
        for j, c in enumerate(self.param_curves):
            c.setData(x, h.params[:, j], connect="finite")
        for j, c in enumerate(self.grad_curves):
            c.setData(x, h.grads[:, j], connect="finite")
        if self.norm_curve is not None:
            self.norm_curve.setData(x, h.grad_norm, connect="finite")
        bad = ~finite | ~np.isfinite(h.grad_norm)
        if bad.any():
            bx = x[bad]
            last = loss[finite][-1] if finite.any() else 0.0
            self.bad_marks.setData(bx, np.full(len(bx), last))
            if not self.bad_lines:
                for w in (self.lossPlot, self.paramPlot, self.gradPlot):
                    ln = pg.InfiniteLine(pos=float(bx[0]), angle=90, pen=pg.mkPen(theme.ERROR_COLOR, width=2),
                                         label="not finite", labelOpts={"color": theme.ERROR_COLOR, "position": 0.9})
                    w.addItem(ln)
                    self.bad_lines.append(ln)
        if h.n:
            for img, kind, off, shape in self.images:
                src = h.params if kind == "params" else h.grads
                a = src[-1, off:off + shape[0] * shape[1]].reshape(shape)
                m = float(np.nanmax(np.abs(a))) if np.isfinite(a).any() else 1.0
                img.setImage(a, levels=(-m or -1, m or 1), lut=_DIVERGING)

    # -- hover text ------------------------------------------------------------------------------
    def _index(self, step: int) -> int | None:
        h = self.history
        if h is None or not h.n:
            return None
        i = int(np.searchsorted(h.steps, step))
        return min(max(i, 0), h.n - 1)

    def _text_loss(self, step: int) -> str:
        i = self._index(step)
        return "" if i is None else f"step {self.history.steps[i]}: loss {fmt_number(self.history.loss[i])}"

    def _text_params(self, step: int) -> str:
        i = self._index(step)
        if i is None:
            return ""
        labels = self.history.param_layout.labels()
        vals = self.history.params[i]
        return f"step {self.history.steps[i]}: " + "  ".join(f"{l}={fmt_number(v)}" for l, v in list(zip(labels, vals))[:8])

    def _text_grads(self, step: int) -> str:
        i = self._index(step)
        if i is None:
            return ""
        labels = self.history.grad_layout.labels()
        vals = self.history.grads[i]
        return (f"step {self.history.steps[i]}: ‖grad‖={fmt_number(self.history.grad_norm[i])}  "
                + "  ".join(f"{l}={fmt_number(v)}" for l, v in list(zip(labels, vals))[:6]))


def _make_lut() -> np.ndarray:
    t = np.linspace(-1, 1, 256)
    r = np.where(t > 0, 1.0, 1.0 + t)
    g = 1.0 - np.abs(t) * 0.85
    b = np.where(t < 0, 1.0, 1.0 - t)
    return (np.stack([r, g, b], axis=1) * 255).astype(np.uint8)


_DIVERGING = _make_lut()
