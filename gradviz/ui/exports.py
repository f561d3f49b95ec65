"""Exports for slides: File > Export (Ctrl+E), each plot's context menu, and `gradviz screenshot`.

Pictures of the whole window, of the graph (the scene at its full extent with its caption, not
the part the view happens to show) and of each plot, as PNG or as SVG; the history as CSV (one
column per element, formats.table) and as the JSON Lines of `gradviz run`; an animated GIF of the
run (formats.frames), recorded by moving the time-travel cursor across the history and grabbing
the window at each step.

SVG is drawn with Qt's own QSvgGenerator, for the plots too: pyqtgraph 0.14's SVG exporter raises
ValueError on every plot with Qt 6.11, whose SVG writer closes the view box's background path
with "Z", a path command the exporter's coordinate rewriting does not parse (pyqtgraph issue
3495). Its "Export..." dialog (whose CSV also stacks the elements of a vector under each other)
is replaced on our plots by entries that write through this module.

Every file is written whole or not at all (safe_io: temporary file and rename); each export says
in the status bar where it wrote, with the full path, and a failure says why in the window's
banner, leaving any existing file as it was."""

from __future__ import annotations

import copy
import math
import os
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import (
    QBuffer,
    QDeadlineTimer,
    QEvent,
    QIODevice,
    QObject,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QColor, QImage, QKeySequence, QPainter, QPicture
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QGraphicsItem,
    QGraphicsView,
    QMainWindow,
    QMenu,
    QWidget,
)

from ..formats.svg import flatten_cosmetic_strokes
from ..formats.frames import DEFAULT_FRAMES, TooFewSteps, frame_steps, gif_bytes
from ..formats.table import write_csv
from ..model.formatting import show_path
from ..model.runstate import Control, Permissions
from ..safe_io import Cancelled, FileProblem, SafeOutput, atomic_write_bytes, probe_output
from .language import tr_msg
from .parts import Feedback

PICTURE_FORMATS = ("png", "svg")
SHARP = 2.0  # the graph and the plots are drawn at twice their size in a PNG: crisp on a projector
PLOT_SIZE = QSize(720, 450)  # a plot's picture is at least this size, whatever the window's
GRAPH_MARGIN = 20.0
FRAME_WAIT_MS = 10_000  # at most this long for the engine's node values at each GIF frame
POLL_MS = 15
MESSAGE_MS = 10_000
PLOTS = ("lossPlot", "paramPlot", "gradPlot")
IMAGES = "imagePanel"  # the Test images tab's picture, where the run has one (image_view.py)
DATA = "dataPanel"  # the Data tab's picture, where the run has one (data_view.py)


def full_path(path: str) -> str:
    """The absolute path, escaped, for a message that says where a file went."""
    return show_path(os.path.abspath(path), 400)


def extension(path: str) -> str:
    """The file name's extension, lower case, without the dot ('' when it has none)."""
    return os.path.splitext(path)[1].lower().lstrip(".")


# -- pictures ----------------------------------------------------------------------------------------
@contextmanager
def _drawn_afresh(widget: QWidget):
    """Graphics items that draw from a cached pixmap (the plots' axes) draw themselves instead,
    while a picture is taken: text and lines in an SVG, and sharp at twice the size in a PNG."""
    views = ([widget] if isinstance(widget, QGraphicsView) else []) + widget.findChildren(QGraphicsView)
    cached = [
        (item, item.cacheMode())
        for view in views
        if view.scene() is not None
        for item in view.scene().items()
        if item.cacheMode() != QGraphicsItem.CacheMode.NoCache
    ]
    for item, _mode in cached:
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        yield
    finally:
        for item, mode in cached:
            item.setCacheMode(mode)


@contextmanager
def _at_least(widget: QWidget, size: QSize | None):
    """The widget at least `size` while a picture is taken (a plot squeezed by a small window is
    drawn at a size that reads on a slide), then back as it was."""
    old = widget.size()
    grown = size is not None and (old.width() < size.width() or old.height() < size.height())
    if grown:
        widget.resize(old.expandedTo(size))
        QApplication.sendPostedEvents()  # the plot lays itself out for the new size
    try:
        yield
    finally:
        if grown:
            widget.resize(old)
            QApplication.sendPostedEvents()


def _render(paint: Callable[[QPainter], None], size: QSize, fmt: str, scale: float = 1.0, title: str = "") -> bytes:
    """The bytes of a PNG or SVG file of `size` (logical pixels) drawn by paint(painter); a PNG
    is drawn at `scale` times that size (text and lines at full resolution)."""
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if fmt == "svg":
        gen = QSvgGenerator(QSvgGenerator.SvgVersion.Svg11)  # SVG 1.1: clipping (Tiny 1.2 has none)
        gen.setOutputDevice(buf)
        gen.setSize(size)
        gen.setViewBox(QRect(QPoint(0, 0), size))
        gen.setResolution(96)  # the screen's: point sizes come out as they look in the window
        gen.setTitle(title or "GradViz")
        gen.setDescription("Drawn by GradViz")
        # recorded first, then replayed: a widget painted straight into the SVG writer gets its
        # clip paths without the widget's offset in the window, which hides most of the picture
        pic = QPicture()
        rec = QPainter(pic)
        paint(rec)
        rec.end()
        p = QPainter(gen)
        p.drawPicture(0, 0, pic)
        p.end()
        buf.close()
        return flatten_cosmetic_strokes(bytes(buf.data()))
    img = QImage(
        max(1, round(size.width() * scale)),
        max(1, round(size.height() * scale)),
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    img.setDevicePixelRatio(scale)
    img.fill(QColor("white"))
    p = QPainter(img)
    paint(p)
    p.end()
    if not img.save(buf, "PNG"):
        raise RuntimeError("the PNG could not be encoded")
    buf.close()
    return bytes(buf.data())


def _to_front(widget: QWidget) -> None:
    """The dock tab that holds `widget` brought to the front: behind another tab, the widget has
    never been laid out, and its dock would lay it out again at the dock's size."""
    dock = widget.parentWidget()
    while dock is not None and not isinstance(dock, QDockWidget):
        dock = dock.parentWidget()
    if dock is not None and not widget.isVisible():
        dock.raise_()
        QApplication.sendPostedEvents()


def widget_picture(widget: QWidget, fmt: str, scale: float = 1.0, min_size: QSize | None = None) -> tuple[bytes, QSize]:
    """A widget (the window, a plot) as it is on screen, children included: (file bytes, size)."""

    def paint(p: QPainter) -> None:
        QWidget.render(widget, p, QPoint(0, 0))  # as painted (a QGraphicsView's own render() draws its scene)

    # (paint is defined outside the with block: pyside6-lupdate loses the class of every later
    # self.tr() after a def nested in a with)
    with _at_least(widget, min_size), _drawn_afresh(widget):
        size = widget.size()
        return _render(paint, size, fmt, scale, widget.windowTitle()), size


def graph_picture(view, fmt: str, scale: float = SHARP) -> tuple[bytes, QSize]:
    """The whole graph, at the scene's own scale whatever the view's zoom, with the view's caption
    (what the numbers are, what L is) above it: (file bytes, size)."""
    scene = view.scene()
    src = scene.itemsBoundingRect().adjusted(-GRAPH_MARGIN, -GRAPH_MARGIN, GRAPH_MARGIN, GRAPH_MARGIN)
    caption = QPicture()  # the caption as the view draws it, to measure the band it needs
    cp = QPainter(caption)
    view.drawForeground(cp, src)
    cp.end()
    band = caption.boundingRect()
    top = band.bottom() + 8 if not band.isEmpty() else 0
    width = max(src.width(), band.right() + 24)  # room to spare: fonts differ a little between SVG viewers
    size = QSize(math.ceil(width), math.ceil(top + src.height()))

    def paint(p: QPainter) -> None:
        p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        p.fillRect(QRectF(0, 0, size.width(), size.height()), QColor("white"))  # the scene draws its own background
        scene.render(p, QRectF(0, top, src.width(), src.height()), src)
        view.drawForeground(p, src)

    return _render(paint, size, fmt, scale, "GradViz graph"), size


def rgb_array(img: QImage) -> np.ndarray:
    """A QImage as a height x width x 3 uint8 array (a GIF frame)."""
    img = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    raw = np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes())
    return raw.reshape(h, bpl)[:, : w * 3].reshape(h, w, 3).copy()


# -- the animated GIF ---------------------------------------------------------------------------------
class GifRecorder(QObject):
    """Moves the time-travel cursor to each step in turn, waits until the nodes show that step
    (the engine evaluates them), grabs `picture` (the window), and emits `finished` with the
    frames in `frames` (RGB arrays) or a reason in `error`. The cursor goes back where it was."""

    finished = Signal()

    def __init__(
        self, picture: QWidget, time_travel, controller, permissions: Callable[[], Permissions], steps: list[int]
    ):
        super().__init__(picture)
        self.picture, self.tt, self.c, self._permissions = picture, time_travel, controller, permissions
        self.steps = list(steps)
        self.frames: list[np.ndarray] = []
        self.error = ""
        self.done = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._poll)
        self._restore: int | None = None
        self._deadline = QDeadlineTimer()

    def start(self) -> GifRecorder:
        tt = self.tt
        self._restore = None if tt.at_last else tt.shown  # None: the default (the last step, finished)
        self._next()
        return self

    def _next(self) -> None:
        if len(self.frames) == len(self.steps):
            self._finish("")
            return
        if not self.picture.isVisible():
            self._finish(self.tr("The window was closed while recording."))
            return
        if not self._permissions().ok(Control.SCRUB):
            self._finish(tr_msg(self._permissions().why(Control.SCRUB)) or self.tr("The run changed while recording."))
            return
        self._deadline = QDeadlineTimer(FRAME_WAIT_MS)
        self.tt.show_step(self.steps[len(self.frames)])
        self._poll()

    def _poll(self) -> None:
        tt, c = self.tt, self.c
        step = self.steps[len(self.frames)]
        ready = (tt.shown == step and tt.past is not None) or not c.past_values_known
        if not ready and c.engine_running and not self._deadline.hasExpired():
            self._timer.start(POLL_MS)
            return
        self.frames.append(rgb_array(self.picture.grab().toImage()))
        self._next()

    def _finish(self, error: str) -> None:
        self._timer.stop()
        self.error, self.done = error, True
        if self._permissions().ok(Control.SCRUB):
            self.tt.show_step(self._restore)
        self.finished.emit()


# -- the window's exports ------------------------------------------------------------------------------
class WindowExports(QObject):
    """File > Export and Ctrl+E (`exportAction`), and export entries in each plot's context menu.
    Their texts are set in retranslate(), again whenever the language changes.

    `host` is used as a Qt widget only: the window's picture, where Ctrl+E works and its menu
    opens, the dialogs' parent. `files` writes on a worker (SessionFiles.job) and has the JSON
    Lines dialog; `time_travel` moves through the run for the GIF."""

    def __init__(
        self,
        host: QMainWindow,
        graph_view,
        plots,
        controller,
        time_travel,
        files,
        permissions: Callable[[], Permissions],
        feedback: Feedback,
        images=None,
        data=None,
    ):
        super().__init__(host)
        self.images = images  # the image panel (its `available` says whether the run has one)
        self.data = data  # the data view's panel (likewise)
        self.host, self.graph_view, self.plots, self.c, self.tt, self.files = (
            host,
            graph_view,
            plots,
            controller,
            time_travel,
            files,
        )
        self._permissions, self.feedback = permissions, feedback
        self.folder = ""  # where the last export went: the next dialog opens there
        self.recorder: GifRecorder | None = None
        self.gif_job = None
        self.menu = QMenu(host)
        self.menu.setObjectName("exportMenu")
        self.menu.setToolTipsVisible(True)
        self.picture_actions: dict[tuple[str, str], QAction] = {}
        panels = (*((IMAGES,) if images is not None else ()), *((DATA,) if data is not None else ()))
        for what in ("window", "graph", *PLOTS, *panels):
            if what == PLOTS[0]:
                self.menu.addSeparator()
            for fmt in PICTURE_FORMATS:
                a = self.menu.addAction("")
                a.setObjectName(f"export_{what}_{fmt}")
                a.triggered.connect(lambda _=False, what=what, fmt=fmt: self.picture_dialog(what, fmt))
                self.picture_actions[(what, fmt)] = a
        self.menu.addSeparator()
        self.csvAction = self.menu.addAction("")
        self.csvAction.setObjectName("exportCsvAction")
        self.csvAction.triggered.connect(self.csv_dialog)
        self.jsonlAction = self.menu.addAction("")
        self.jsonlAction.setObjectName("exportJsonlAction")
        self.jsonlAction.triggered.connect(files.export_dialog)
        self.gifAction = self.menu.addAction("")
        self.gifAction.setObjectName("exportGifAction")
        self.gifAction.triggered.connect(self.gif_dialog)
        self.menu.aboutToShow.connect(self.update_actions)
        controller.stateChanged.connect(lambda _run: self.update_actions())

        # Ctrl+E opens this menu wherever the focus is; the File menu lists the key beside it
        self.action = self.menu.menuAction()
        self.action.setObjectName("exportAction")
        self.action.setShortcut(QKeySequence("Ctrl+E"))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.triggered.connect(self.popup)  # the key; choosing the entry opens the submenu
        host.addAction(self.action)

        # each plot's right-click menu: these entries instead of pyqtgraph's Export... dialog
        self.plot_actions: dict[tuple[str, str], QAction] = {}
        for name in PLOTS:
            plot = self.target(name)
            for kind in (*PICTURE_FORMATS, "csv"):
                a = QAction(plot)
                a.setObjectName(f"plotExport_{name}_{kind}")
                if kind == "csv":
                    a.triggered.connect(self.csv_dialog)
                else:
                    a.triggered.connect(lambda _=False, what=name, fmt=kind: self.picture_dialog(what, fmt))
                self.plot_actions[(name, kind)] = a
            plot.scene().contextMenu = [self.plot_actions[(name, kind)] for kind in (*PICTURE_FORMATS, "csv")]
        self.menu.installEventFilter(self)  # a language change reaches the menu: retranslate
        self.retranslate()
        self.update_actions()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.menu and event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        return False

    def retranslate(self) -> None:
        self.names = {
            "window": self.tr("Window"),
            "graph": self.tr("Graph"),
            "lossPlot": self.tr("Loss plot"),
            "paramPlot": self.tr("Parameters plot"),
            "gradPlot": self.tr("Gradients plot"),
            IMAGES: self.tr("Test images"),
            DATA: self.tr("Data view"),
        }
        self.menu.setTitle(self.tr("E&xport"))
        self.action.setToolTip(self.tr("Pictures, the history and an animated GIF, for slides"))
        texts = {  # whole phrases, for translators
            ("window", "png"): self.tr("Window as PNG…"),
            ("window", "svg"): self.tr("Window as SVG…"),
            ("graph", "png"): self.tr("Graph as PNG…"),
            ("graph", "svg"): self.tr("Graph as SVG…"),
            ("lossPlot", "png"): self.tr("Loss plot as PNG…"),
            ("lossPlot", "svg"): self.tr("Loss plot as SVG…"),
            ("paramPlot", "png"): self.tr("Parameters plot as PNG…"),
            ("paramPlot", "svg"): self.tr("Parameters plot as SVG…"),
            ("gradPlot", "png"): self.tr("Gradients plot as PNG…"),
            ("gradPlot", "svg"): self.tr("Gradients plot as SVG…"),
            (IMAGES, "png"): self.tr("Test images as PNG…"),
            (IMAGES, "svg"): self.tr("Test images as SVG…"),
            (DATA, "png"): self.tr("Data view as PNG…"),
            (DATA, "svg"): self.tr("Data view as SVG…"),
        }
        for key, a in self.picture_actions.items():
            a.setText(texts[key])
        self.csvAction.setText(self.tr("History as CSV (one column per element)…"))
        self.jsonlAction.setText(self.tr("History as JSON Lines (as gradviz run writes)…"))
        self.gifAction.setText(self.tr("Animated GIF of the run…"))
        plot_texts = {
            "png": self.tr("Export this plot as PNG…"),
            "svg": self.tr("Export this plot as SVG…"),
            "csv": self.tr("Export the history as CSV…"),
        }
        for (_name, kind), a in self.plot_actions.items():
            a.setText(plot_texts[kind])
        self.update_actions()

    def _job_ok(self, job, what: str) -> bool:
        """A file job's outcome: True if it wrote; else says why (cancelled, or the problem)."""
        if isinstance(job.error, Cancelled):
            self.feedback.status.showMessage(self.tr("Export cancelled: nothing was written"), MESSAGE_MS)
        elif isinstance(job.error, FileProblem):
            self._failed(what, job.error)
        elif job.error is not None:
            self._failed(what, repr(job.error)[:300])
        return job.error is None

    def popup(self) -> None:
        """Ctrl+E: the export menu, in the middle of the window."""
        self.menu.popup(self.host.mapToGlobal(self.host.rect().center()))

    def update_actions(self) -> None:
        """History exports need steps and a pause; the GIF, a history to travel through."""
        perms = self._permissions()
        for fmt in PICTURE_FORMATS:
            if (IMAGES, fmt) in self.picture_actions:
                a, on = self.picture_actions[(IMAGES, fmt)], self.images.available
                a.setEnabled(on)
                a.setToolTip("" if on else self.tr("Only for a run over a data set of images (digits)"))
            if (DATA, fmt) in self.picture_actions:
                a, on = self.picture_actions[(DATA, fmt)], self.data.available
                a.setEnabled(on)
                a.setToolTip("" if on else self.tr("Only for a run over a 2-D data set (moons)"))
        for a, control, tip in (
            (self.csvAction, Control.SAVE_RUN, self.tr("Every step, one column per element, for a spreadsheet")),
            (self.jsonlAction, Control.SAVE_RUN, self.tr("Every step, in the format of gradviz run")),
            (self.gifAction, Control.SCRUB, self.tr("The graph and the plots at steps across the run")),
        ):
            a.setEnabled(perms.ok(control))
            a.setToolTip(tr_msg(perms.why(control)) or tip)

    # -- messages -----------------------------------------------------------------------------
    def _wrote(self, path: str, what: str) -> None:
        self.folder = os.path.dirname(os.path.abspath(path))
        self.feedback.status.showMessage(
            self.tr("Wrote {what} to {path}").format(what=what, path=full_path(path)), MESSAGE_MS
        )

    def _failed(self, what: str, problem) -> None:
        self.feedback.show_error(self.tr("Could not export {what}. {problem}").format(what=what, problem=problem))

    # -- pictures ------------------------------------------------------------------------------
    def target(self, what: str):
        return {"window": self.host, "graph": self.graph_view, IMAGES: self.images, DATA: self.data}.get(
            what
        ) or getattr(self.plots, what)

    def picture(self, what: str, fmt: str) -> tuple[bytes, QSize]:
        """The bytes of a picture of `what` (window, graph, lossPlot, paramPlot, gradPlot, imagePanel,
        dataPanel)."""
        if what == "window":
            return widget_picture(self.host, fmt)
        if what == "graph":
            return graph_picture(self.graph_view, fmt)
        if what in (IMAGES, DATA):
            panel = self.target(what)
            _to_front(panel)
            return widget_picture(panel, fmt, SHARP)  # as in its tab, at twice the resolution
        return widget_picture(self.target(what), fmt, SHARP, PLOT_SIZE)

    def save_picture(self, what: str, path: str) -> bool:
        """Write a picture of `what` to `path`, PNG or SVG by its extension."""
        name = self.names[what]
        fmt = extension(path)
        if fmt not in PICTURE_FORMATS:
            self._failed(name, self.tr("{path}: a picture is written as .png or .svg").format(path=full_path(path)))
            return False
        try:
            probe_output(path)  # before drawing: an unwritable folder is said at once
            data, size = self.picture(what, fmt)
            atomic_write_bytes(path, data)
        except FileProblem as e:
            self._failed(name, e)
            return False
        self._wrote(path, self.tr("{what} ({w}x{h})").format(what=name, w=size.width(), h=size.height()))
        return True

    def picture_dialog(self, what: str, fmt: str) -> None:
        path = self._ask_path(
            self.picture_actions[(what, fmt)].text().replace("&", "").rstrip("…"),
            f"gradviz-{what}.{fmt}",
            self.tr("PNG picture (*.png)") if fmt == "png" else self.tr("SVG drawing (*.svg)"),
        )
        if path:
            self.save_picture(what, path)

    def _ask_path(self, title: str, name: str, filter_: str) -> str:
        path, _ = QFileDialog.getSaveFileName(self.host, title, os.path.join(self.folder or os.getcwd(), name), filter_)
        return path

    # -- the history ---------------------------------------------------------------------------
    def save_csv(self, path: str):
        """The history as CSV, written on a worker thread (progress, Cancel); None if there is none."""
        h = self.c.history
        what = self.tr("the history as CSV")
        if h is None or not h.n:
            self._failed(what, self.tr("There is no history yet: train a few steps first."))
            return None
        snapshot = copy.deepcopy(h)  # training may go on while the file is written

        def work(progress, cancelled):
            with SafeOutput(path) as out:
                return write_csv(out.file, snapshot, progress, cancelled)

        def done(job) -> None:
            if self._job_ok(job, what):
                self._wrote(path, self.tr("{n} steps as CSV").format(n=job.result))

        return self.files.job(self.tr("Writing the history to {path}…").format(path=full_path(path)), work, done)

    def csv_dialog(self) -> None:
        path = self._ask_path(self.tr("Export the history as CSV"), "gradviz-history.csv", self.tr("CSV table (*.csv)"))
        if path:
            self.save_csv(path)

    # -- the animated GIF ----------------------------------------------------------------------
    def save_gif(self, path: str, frames: int = DEFAULT_FRAMES) -> GifRecorder | None:
        """Record the window at `frames` steps across the run, then write the GIF on a worker."""
        what = self.tr("the animated GIF")
        if self.recorder is not None and not self.recorder.done:
            self._failed(what, self.tr("A GIF is being recorded already."))
            return None
        perms = self._permissions()
        h = self.c.history
        try:
            if not perms.ok(Control.SCRUB):
                raise ValueError(tr_msg(perms.why(Control.SCRUB)))
            if extension(path) != "gif":
                raise ValueError(self.tr("{path}: an animated GIF is written as .gif").format(path=full_path(path)))
            steps = frame_steps(h.steps, frames)
            probe_output(path)  # before recording: an unwritable folder is said at once
        except (ValueError, TooFewSteps) as e:  # FileProblem is a ValueError
            self._failed(what, e)
            return None
        rec = self.gif_recorder(steps)
        self.recorder = rec
        self.feedback.status.clearMessage()  # the frames show the window: no stale message in them
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        rec.finished.connect(lambda: self._recorded(rec, path))
        return rec.start()

    def gif_recorder(self, steps: list[int]) -> GifRecorder:
        """A recorder of the window at these steps (start() it)."""
        return GifRecorder(self.host, self.tt, self.c, self._permissions, steps)

    def _recorded(self, rec: GifRecorder, path: str) -> None:
        QApplication.restoreOverrideCursor()
        what = self.tr("the animated GIF")
        if rec.error:
            self._failed(what, rec.error)
            return
        frames = rec.frames

        def work(progress, cancelled):
            data = gif_bytes(frames, progress, cancelled)
            atomic_write_bytes(path, data)
            return len(frames)

        def done(job) -> None:
            if self._job_ok(job, what):
                h, w = frames[0].shape[:2]
                self._wrote(path, self.tr("an animated GIF of {n} frames ({w}x{h})").format(n=job.result, w=w, h=h))

        self.gif_job = self.files.job(self.tr("Writing the GIF to {path}…").format(path=full_path(path)), work, done)

    def gif_dialog(self) -> None:
        path = self._ask_path(
            self.tr("Export an animated GIF of the run"), "gradviz-run.gif", self.tr("GIF animation (*.gif)")
        )
        if path:
            self.save_gif(path)
