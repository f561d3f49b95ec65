"""What a network learned from a 2-D data set: the samples (training points filled, test points
hollow, coloured by class) over the network's output on a grid covering the input plane
(coloured by the predicted class, deeper where the probability is higher), with axes; and, on
every hidden node of the graph, a small map per unit of its value over the same plane
(ui/unit_maps.py). Only for a run over a 2-D Dataset node (protocol.BuildInfo.plane).

The grid's outputs come from the engine (protocol.PlaneAt, answered by Plane: model/plane.py),
at the step time travel shows (ShownNodes) or, live, at the run's parameters now. While
training the panel asks again at most every REFRESH_SECONDS, one request in flight at a time and
only when the run has moved on; an answer to anything but the request in flight (one of a run
since reset, or one overtaken) is dropped. `shownStep` is as the graph view's: how many updates
the parameters drawn have had (-1: none drawn)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Property, QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ..model import plane
from ..model.runstate import Phase
from ..model.shown import ShownNodes
from ..model.steps import last_eval, state_at
from . import theme
from .heatmap import rgb_image
from .language import tr_msg

REFRESH_SECONDS = 0.25  # while training: a new picture at most this often (4 a second)
CLASS_COLORS = ("#2563eb", "#ea580c", "#16a34a", "#9333ea", "#db2777", "#0891b2", "#ca8a04", "#4b5563")
DEEPEST = 0.62  # the background's colour at probability 1: light enough for the points over it
POINT_R = 4.5  # px: a sample's radius (times the look's scale)


def class_color(k: int) -> QColor:
    return QColor(CLASS_COLORS[k % len(CLASS_COLORS)])


def background_rgb(probs: np.ndarray) -> np.ndarray:
    """uint8 (rows, cols, 3) of probs (rows, cols, classes): each point the colour of its
    predicted class, from white at chance (1 / classes) to DEEPEST of the colour at certainty."""
    k = probs.shape[-1]
    top = probs.argmax(axis=-1)
    p = np.take_along_axis(probs, top[..., None], axis=-1)[..., 0]
    t = np.clip((p - 1.0 / k) / (1.0 - 1.0 / k), 0.0, 1.0) * DEEPEST
    colours = np.array([[c.red(), c.green(), c.blue()] for c in map(class_color, range(k))], np.float64)
    rgb = (1.0 - t[..., None]) * 255.0 + t[..., None] * colours[top]
    return np.rint(rgb).astype(np.uint8)


def nice_ticks(lo: float, hi: float, most: int = 7) -> list[float]:
    """Round tick values within [lo, hi], at most about `most` of them."""
    span = hi - lo
    if not span > 0:
        return [lo]
    raw = span / max(1, most - 1)
    mag = 10 ** np.floor(np.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = np.ceil(lo / step) * step
    return [float(round(v, 10)) for v in np.arange(first, hi + step * 1e-9, step)]


class DataView(QWidget):
    """The picture: the grid's background, the samples over it, the axes."""

    shownStepChanged = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("dataView")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 160)
        self.info: dict | None = None  # BuildInfo.plane
        self.spec: plane.PlaneSpec | None = None  # the plane of the picture drawn
        self.probs: np.ndarray | None = None
        self._image: QImage | None = None
        self._shown_step = -1
        self._points_key: tuple | None = None
        self._points_pixmap: QPixmap | None = None
        self.axis_names = ("x[:, 0]", "x[:, 1]")

    # -- what it shows ------------------------------------------------------------------------
    def set_samples(self, info: dict | None, feature_input: str = "x") -> None:
        self.info = info
        self.axis_names = (f"{feature_input}[:, 0]", f"{feature_input}[:, 1]")
        self.set_picture(None, None, -1)

    def set_picture(self, spec: plane.PlaneSpec | None, probs: np.ndarray | None, updates: int) -> None:
        self.spec, self.probs = spec, probs
        # row 0 of the grid is the plane's bottom: the image's top row is its last
        self._image = None if probs is None else rgb_image(background_rgb(probs)[::-1])
        self._set_shown_step(updates)
        self.update()

    def _get_shown_step(self) -> int:
        return self._shown_step

    def _set_shown_step(self, updates: int) -> None:
        if updates != self._shown_step:
            self._shown_step = updates
            self.shownStepChanged.emit(updates)

    shownStep = Property(int, _get_shown_step, notify=shownStepChanged)

    def bounds(self) -> tuple[float, float, float, float] | None:
        if self.spec is not None:
            return self.spec.x0, self.spec.x1, self.spec.y0, self.spec.y1
        return None if self.info is None else tuple(self.info["bounds"])

    # -- geometry -----------------------------------------------------------------------------
    def sizeHint(self) -> QSize:
        s = theme.LOOK.scale
        return QSize(int(520 * s), int(320 * s))

    def _fonts(self):
        return theme.font(10), theme.font(11, bold=True)

    def plot_rect(self) -> QRectF:
        """Where the plane is drawn: the widget less the axes' room, at the data's aspect ratio."""
        b = self.bounds()
        small, label = self._fonts()
        fm, fl = QFontMetricsF(small), QFontMetricsF(label)
        left = fm.horizontalAdvance("-0.00") + fl.height() + 12
        bottom = fm.height() + fl.height() + 10
        room = QRectF(left, 6, max(10.0, self.width() - left - 10), max(10.0, self.height() - bottom - 6))
        if b is None:
            return room
        aspect = (b[1] - b[0]) / (b[3] - b[2])
        w = min(room.width(), room.height() * aspect)
        h = w / aspect
        return QRectF(room.x() + (room.width() - w) / 2, room.y() + (room.height() - h) / 2, w, h)

    def to_px(self, x: np.ndarray, y: np.ndarray, r: QRectF) -> tuple[np.ndarray, np.ndarray]:
        x0, x1, y0, y1 = self.bounds()
        return r.left() + (x - x0) / (x1 - x0) * r.width(), r.bottom() - (y - y0) / (y1 - y0) * r.height()

    # -- painting -----------------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        self.render_into(p)
        p.end()

    def render_into(self, p: QPainter) -> None:
        p.fillRect(self.rect(), QColor(theme.PLOT_BG))
        if self.info is None:
            return
        r = self.plot_rect()
        if self._image is not None:
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            p.drawImage(r, self._image)
        else:
            p.fillRect(r, QColor("#f3f4f6"))
        p.drawPixmap(r.topLeft(), self._points_layer(r))
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self._paint_axes(p, r)

    def _points_layer(self, r: QRectF) -> QPixmap:
        """The samples, drawn once per size and data set onto a transparent pixmap: each live
        picture then costs the background and this pixmap, not hundreds of antialiased circles."""
        key = (id(self.info), round(r.width()), round(r.height()), theme.LOOK.scale, self.devicePixelRatioF())
        if self._points_key != key:
            dpr = self.devicePixelRatioF()
            pm = QPixmap(max(1, round(r.width() * dpr)), max(1, round(r.height() * dpr)))
            pm.setDevicePixelRatio(dpr)
            pm.fill(Qt.GlobalColor.transparent)
            q = QPainter(pm)
            q.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            q.translate(-r.left(), -r.top())
            self._paint_points(q, r)
            q.end()
            self._points_key, self._points_pixmap = key, pm
        return self._points_pixmap

    def _paint_points(self, p: QPainter, r: QRectF) -> None:
        s = theme.LOOK.scale
        rad = min(POINT_R * s, max(2.5, r.height() / 40))  # smaller in a small picture: the shapes stay apart
        info = self.info
        p.setClipRect(r)
        for part, filled in (("train", True), ("test", False)):
            xs, ys = self.to_px(info[f"{part}_x"][:, 0].astype(float), info[f"{part}_x"][:, 1].astype(float), r)
            labels = np.asarray(info[f"{part}_y"], int)
            for k in np.unique(labels):
                c = class_color(int(k))
                if filled:
                    p.setPen(QPen(QColor("#ffffff"), min(1.2 * s, rad * 0.3)))
                    p.setBrush(QBrush(c))
                else:  # hollow: a thick ring in the class's colour, the background inside it
                    p.setPen(QPen(c.darker(140), min(2.4 * s, rad * 0.5)))
                    p.setBrush(Qt.BrushStyle.NoBrush)
                for x, y in zip(xs[labels == k], ys[labels == k]):
                    p.drawEllipse(QPointF(x, y), rad, rad)
        p.setClipping(False)

    def _paint_axes(self, p: QPainter, r: QRectF) -> None:
        small, label = self._fonts()
        fm = QFontMetricsF(small)
        x0, x1, y0, y1 = self.bounds()
        p.setPen(QPen(QColor(theme.PLOT_FG), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(r)
        p.setFont(small)
        for v in nice_ticks(x0, x1, max(4, int(r.width() / 60))):
            x = r.left() + (v - x0) / (x1 - x0) * r.width()
            p.drawLine(QPointF(x, r.bottom()), QPointF(x, r.bottom() + 4))
            text = f"{v + 0.0:g}"  # + 0.0: no "-0"
            p.drawText(QPointF(x - fm.horizontalAdvance(text) / 2, r.bottom() + 4 + fm.ascent()), text)
        for v in nice_ticks(y0, y1, max(4, int(r.height() / 35))):
            y = r.bottom() - (v - y0) / (y1 - y0) * r.height()
            p.drawLine(QPointF(r.left() - 4, y), QPointF(r.left(), y))
            text = f"{v + 0.0:g}"
            p.drawText(QPointF(r.left() - 6 - fm.horizontalAdvance(text), y + fm.ascent() / 2 - 1), text)
        p.setFont(label)
        fl = QFontMetricsF(label)
        name_x, name_y = self.axis_names
        p.drawText(
            QRectF(r.left(), r.bottom() + 4 + fm.height(), r.width(), fl.height() + 2),
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
            name_x,
        )
        p.save()
        p.translate(r.left() - 10 - fm.horizontalAdvance("-0.00") - fl.descent(), r.center().y())
        p.rotate(-90)
        p.drawText(QRectF(-r.height() / 2, -fl.ascent(), r.height(), fl.height()), Qt.AlignmentFlag.AlignCenter, name_y)
        p.restore()


class DataPanel(QWidget):
    """The data view's tab (see the module's docstring): a title naming the step drawn and the
    last evaluation, a legend, and the picture. `set_available` shows or hides its dock;
    `set_unit_maps(plane spec or None, {node: (coarse, coarse, units)})` gives the graph's
    hidden nodes their mini maps."""

    picturesChanged = Signal(int)

    def __init__(
        self,
        controller,
        shown: ShownNodes,
        set_available: Callable[[bool], None],
        set_unit_maps: Callable[[object, dict], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        parent=None,
    ):
        super().__init__(parent)
        self.setObjectName("dataPanel")
        self.c = controller
        self.nodes_shown = shown
        self._set_available = set_available
        self._set_unit_maps = set_unit_maps or (lambda _spec, _maps: None)
        self._clock = clock
        self.available = False
        self.spec: plane.PlaneSpec | None = None  # the plane asked for (from the build)
        self._requests = 0  # the count of requests sent (their ids)
        self.in_flight: int | None = None  # the request sent and not yet answered
        self._in_flight_key: tuple | None = None
        self._asked_at = -1e9
        self.drawn_key: tuple | None = None  # ("live", updates) or ("past", step) of the picture
        self._pictures = 0
        self.sent = 0  # requests sent this run
        self.dropped = 0  # answers dropped (not the request in flight)
        self.title = QLabel()
        self.title.setObjectName("dataTitle")
        self.title.setFont(theme.font(12, bold=True))
        self.title.setWordWrap(True)
        self.accuracy = QLabel()
        self.accuracy.setObjectName("dataAccuracy")
        self.accuracy.setFont(theme.font(11))
        self.accuracy.setWordWrap(True)
        self.legend = QLabel()
        self.legend.setObjectName("dataLegend")
        self.legend.setFont(theme.font(10))
        self.legend.setWordWrap(True)
        self.view = DataView()
        # the picture has the tab's whole height; the title and the legend beside it
        side = QVBoxLayout()
        side.addWidget(self.title)
        side.addWidget(self.accuracy)
        side.addWidget(self.legend)
        side.addStretch(1)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        lay.addWidget(self.view, 3)
        lay.addLayout(side, 2)
        controller.built.connect(self._on_built)
        controller.ticked.connect(self.refresh)
        controller.stateChanged.connect(lambda _s: self.refresh())
        controller.rewound.connect(lambda _step: self.refresh())
        controller.planeArrived.connect(self._on_plane)
        shown.observe(lambda _shown: self.refresh())

    # -- counters the tests read ---------------------------------------------------------------
    def _get_pictures(self) -> int:
        return self._pictures

    pictures = Property(int, _get_pictures, notify=picturesChanged)  # pictures drawn this run

    @property
    def shown_step(self) -> int:
        return self.view.shownStep

    # -- the run --------------------------------------------------------------------------------
    def _on_built(self) -> None:
        info = self.c.info
        data = getattr(info, "plane", None) if info is not None else None
        self.available = data is not None
        self._set_available(self.available)
        self.in_flight = self._in_flight_key = self.drawn_key = None
        self._asked_at = -1e9
        self.sent = self.dropped = 0
        self._pictures = 0
        self.picturesChanged.emit(0)
        self.spec = None if data is None else plane.PlaneSpec(*data["bounds"])
        feats = [n.name for n in self.c.session.graph.data_inputs() if n.init == "features"] if data else []
        self.view.set_samples(data, feats[0] if feats else "x")
        self._set_unit_maps(None, {})
        self._legend()
        self._title()
        self.refresh()

    def wanted(self) -> tuple | None:
        """What the picture should show now: ("past", step) while time travel shows a step
        whose parameters the history holds, else ("live", the run's updates)."""
        step = self.nodes_shown.step
        if step is not None and self.c.holds_params(step):
            return ("past", step)
        return ("live", self.c.updates)

    def refresh(self) -> None:
        """Ask for a new picture where one is wanted: never while one is in flight, and live at
        most every REFRESH_SECONDS."""
        if not self.available or self.in_flight is not None or self.spec is None:
            return
        if self.c.state in (Phase.STARTING, Phase.BUILDING):
            return  # the run drawn is being replaced: the next build says whether it has a plane
        key = self.wanted()
        if key == self.drawn_key:
            return
        now = self._clock()
        if key[0] == "live" and now - self._asked_at < REFRESH_SECONDS:
            return
        self._requests += 1
        if not self.c.request_plane(self._requests, self.spec, key[1] if key[0] == "past" else None):
            return
        self.in_flight, self._in_flight_key, self._asked_at = self._requests, key, now
        self.sent += 1

    def _on_plane(self, m) -> None:
        if m.request != self.in_flight:
            self.dropped += 1
            return
        key, self.in_flight = self._in_flight_key, None
        if m.probs is not None:
            # live: the run's updates when the engine answered (the key asked for may lag it)
            self.drawn_key = key if key[0] == "past" else ("live", self.c.updates)
            self.view.set_picture(m.spec, m.probs, m.updates)
            self._set_unit_maps(m.spec, m.hidden)
            self._pictures += 1
            self.picturesChanged.emit(self._pictures)
            self._title()
        else:
            self.drawn_key = key  # not asked again for the same step
            self.title.setText(self.tr("The data view could not be computed: {why}").format(why=m.problem))
        self.refresh()

    # -- texts ----------------------------------------------------------------------------------
    def _legend(self) -> None:
        info = self.view.info
        if info is None:
            self.legend.setText("")
            return
        classes = "&nbsp;&nbsp;".join(
            f"<span style='color:{CLASS_COLORS[k % len(CLASS_COLORS)]}'>■</span>&nbsp;"
            + self.tr("class {k}").format(k=k)
            for k in range(info["classes"])
        )
        n_train, n_test = len(info["train_y"]), len(info["test_y"])
        lines = [
            classes,
            "● " + self.tr("{n} training points (filled)").format(n=n_train),
            "○ " + self.tr("{n} test points (hollow)").format(n=n_test),
            self.tr("Background: the predicted class, deeper where its probability is higher"),
            self.tr("On the graph: each hidden unit over the same plane (hover a map to enlarge it)"),
        ]
        self.legend.setText("<br>".join(lines))

    def _title(self) -> None:
        if not self.available:
            return
        u = self.view.shownStep
        if u < 0:
            self.title.setText(self.tr("The network's output over the input plane: computing…"))
            self.accuracy.setText("")
            return
        self.title.setText(self.tr("The network's output at {state}").format(state=tr_msg(state_at(u + 1))))
        e = last_eval(self.c.evals, u)  # an evaluation is at the parameters after its step's update
        text = ""
        if e is not None and e.get("train_accuracy") is not None and e.get("accuracy") is not None:
            text = self.tr("Epoch {epoch}: train accuracy {train:.1%}, test accuracy {test:.1%}").format(
                epoch=e["epoch"], train=e["train_accuracy"], test=e["accuracy"]
            )
        self.accuracy.setText(text)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange and self.available:
            self._legend()
            self._title()
        super().changeEvent(event)
