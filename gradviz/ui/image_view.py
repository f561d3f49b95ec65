"""What a network learned from images: the test images with their predicted and true labels
(wrong ones in a red frame), the confusion matrix and each class's accuracy, at the evaluation
the shown step shows (model.steps.last_eval: the last one at or before it; the last of all while
training). Only for a run over a Dataset node of images (protocol.BuildInfo.test_images).

The panel is given the controller (the build's test images, the evaluations and their
predictions, drained on its timer) and ShownNodes (the step time travel shows); it tells the
window whether it applies through `set_available`, which shows or hides its dock."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from ..model import predictions
from ..model.shown import ShownNodes
from ..model.steps import last_eval
from . import theme

TILE_IMAGE = 56  # px: an 8x8 image's side (7 px a pixel), readable on a projector
TILE_TEXT = 26  # px: the label line under it
TILE_GAP = 8
MIN_CELL = 22  # px: the confusion matrix's smallest cell


def _rgb(hex_colour: str) -> np.ndarray:
    c = QColor(hex_colour)
    return np.array([c.red(), c.green(), c.blue()], float)


def cell_colour(count: int, largest: int, right: bool) -> QColor:
    """A confusion cell's colour: white for none, deeper by the count (log scale, so that one
    mistake shows beside a diagonal of dozens); blue on the diagonal, red off it."""
    if count <= 0 or largest <= 0:
        return QColor("#ffffff")
    t = 0.15 + 0.85 * np.log1p(count) / np.log1p(largest)
    end = _rgb("#1d4ed8" if right else "#dc2626")
    rgb = (1 - t) * np.full(3, 255.0) + t * end
    return QColor(*(int(round(v)) for v in rgb))


class ImageGrid(QWidget):
    """The test images, as tiles in rows that fill the width: each image in grey, its predicted
    label under it; a wrong one in a red frame with the true label beside the predicted one."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("imageGrid")
        self.images: np.ndarray | None = None  # uint8 (n, rows, columns)
        self.labels: np.ndarray | None = None  # (n,)
        self.predicted: np.ndarray | None = None  # (n,) or None before the first evaluation
        self.confidence: np.ndarray | None = None
        self.only_wrong = False
        self.shown: np.ndarray = np.zeros(0, int)  # the indices of the tiles drawn, in order
        self._pixmaps: list[QImage] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

    @property
    def wrong(self) -> np.ndarray:
        """Per test example: whether its prediction is wrong (all False before any)."""
        if self.predicted is None or self.labels is None:
            return np.zeros(0 if self.labels is None else len(self.labels), bool)
        return np.asarray(self.predicted) != np.asarray(self.labels)

    def set_images(self, images: np.ndarray | None, labels: np.ndarray | None) -> None:
        self.images, self.labels = images, labels
        self._pixmaps = []
        if images is not None:
            for im in images:
                a = np.ascontiguousarray(255 - np.asarray(im, np.uint8))  # ink dark on white
                h, w = a.shape
                self._pixmaps.append(QImage(a.data, w, h, w, QImage.Format.Format_Grayscale8).copy())
        self._relayout()

    def set_predictions(self, predicted: np.ndarray | None, confidence: np.ndarray | None) -> None:
        self.predicted, self.confidence = predicted, confidence
        self._relayout()

    def set_only_wrong(self, on: bool) -> None:
        self.only_wrong = on
        self._relayout()

    def label_font(self) -> QFont:
        return theme.font(13, bold=True)

    def tile_size(self) -> QSize:
        """A tile: the image and room for the longest label ("8, not 3") under it."""
        s = theme.LOOK.scale
        text = QFontMetricsF(self.label_font()).horizontalAdvance(self._wrong_text(8, 8))
        return QSize(int(max(TILE_IMAGE * s, text) + TILE_GAP * s), int((TILE_IMAGE + TILE_TEXT + TILE_GAP) * s))

    def _wrong_text(self, pred: int, true: int) -> str:
        return self.tr("{pred}, not {true}").format(pred=pred, true=true)

    def columns(self) -> int:
        return max(1, self.width() // self.tile_size().width())

    def _relayout(self) -> None:
        n = 0 if self.images is None else len(self.images)
        idx = np.arange(n)
        if self.only_wrong and self.predicted is not None:
            idx = idx[self.wrong]
        self.shown = idx
        rows = -(-len(idx) // self.columns())
        self.setMinimumHeight(max(1, rows) * self.tile_size().height())
        self.update()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._relayout()

    def tile_rect(self, position: int) -> QRectF:
        """Where the `position`-th tile drawn is."""
        t, cols = self.tile_size(), self.columns()
        w = max(t.width(), self.width() / cols)  # the row's spare width shared among its tiles
        return QRectF((position % cols) * w, (position // cols) * t.height(), w, t.height())

    def image_rect(self, position: int) -> QRectF:
        """Where the `position`-th tile's image is (centred at its top)."""
        r, side = self.tile_rect(position), TILE_IMAGE * theme.LOOK.scale
        return QRectF(r.center().x() - side / 2, r.y() + TILE_GAP * theme.LOOK.scale / 2, side, side)

    def tile_at(self, x: float, y: float) -> int | None:
        """The test example whose tile is at (x, y), or None."""
        t, cols = self.tile_size(), self.columns()
        c, r = int(x // max(t.width(), self.width() / cols)), int(y // t.height())
        i = r * cols + c
        return int(self.shown[i]) if c < cols and 0 <= i < len(self.shown) else None

    def event(self, e) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            i = self.tile_at(e.pos().x(), e.pos().y())
            if i is None or self.labels is None:
                self.setToolTip("")
            elif self.predicted is None:
                self.setToolTip(self.tr("test example {i}: true {true}").format(i=i + 1, true=int(self.labels[i])))
            else:
                self.setToolTip(
                    self.tr("test example {i}: predicted {pred} ({p:.0%}), true {true}").format(
                        i=i + 1,
                        pred=int(self.predicted[i]),
                        p=float(self.confidence[i]) if self.confidence is not None else float("nan"),
                        true=int(self.labels[i]),
                    )
                )
        return super().event(e)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(theme.PLOT_BG))
        if self.images is None:
            return
        s = theme.LOOK.scale
        p.setFont(self.label_font())
        visible = event.rect()
        wrong = self.wrong
        for pos, i in enumerate(self.shown):
            r = self.tile_rect(pos)
            if not r.intersects(QRectF(visible)):
                continue
            img = self.image_rect(pos)
            p.drawImage(img, self._pixmaps[i])
            text = QRectF(r.x(), img.bottom(), r.width(), TILE_TEXT * s)
            if self.predicted is None:
                p.setPen(QColor(theme.MUTED))
                p.drawText(text, Qt.AlignmentFlag.AlignCenter, str(int(self.labels[i])))
            elif wrong[i]:
                p.setPen(QPen(QColor(theme.ERROR_COLOR), 3 * s))
                p.drawRect(img.adjusted(-2 * s, -2 * s, 2 * s, 2 * s))
                p.setPen(QColor(theme.ERROR_COLOR))
                p.drawText(
                    text, Qt.AlignmentFlag.AlignCenter, self._wrong_text(int(self.predicted[i]), int(self.labels[i]))
                )
            else:
                p.setPen(QColor(theme.VALUE_COLOR))
                p.drawText(text, Qt.AlignmentFlag.AlignCenter, str(int(self.predicted[i])))
        p.end()


class ConfusionMatrix(QWidget):
    """Counts of the test examples by true class (rows) and predicted class (columns), coloured
    by count, with each class's accuracy in a last column."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("confusionMatrix")
        self.counts: np.ndarray | None = None  # int (classes, classes)
        self.setMinimumSize(12 * MIN_CELL + 60, 12 * MIN_CELL)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)

    @property
    def per_class(self) -> np.ndarray | None:
        """Each true class's accuracy (NaN where it has no test example)."""
        return None if self.counts is None else predictions.per_class_accuracy(self.counts)

    def set_counts(self, counts) -> None:
        self.counts = None if counts is None else np.asarray(counts, np.int64)
        self.update()

    def sizeHint(self) -> QSize:
        s = theme.LOOK.scale
        return QSize(int(14 * 30 * s), int(12 * 30 * s))

    def _geometry(self) -> tuple[float, float, float]:
        """(cell side, left of the first cell, top of the first cell)."""
        n = 10 if self.counts is None else len(self.counts)
        # the axis title's line and the class numbers' line
        head = QFontMetricsF(theme.font(10)).height() + QFontMetricsF(theme.font(11, bold=True)).height()
        cell = max(4.0, min((self.width() - 2 * head) / (n + 2.2), (self.height() - head) / (n + 0.3)))
        return cell, head + 0.2 * cell, head

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(theme.PLOT_BG))
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.counts is None:
            p.setPen(QColor(theme.MUTED))
            p.setFont(theme.font(11))
            p.drawText(
                QRectF(self.rect()),
                Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                self.tr("The confusion matrix comes after the first epoch"),
            )
            return
        counts = self.counts
        n = len(counts)
        cell, x0, y0 = self._geometry()
        small = theme.font(10)
        p.setFont(small)
        p.setPen(QColor(theme.LABEL))
        p.drawText(QRectF(x0, 0, n * cell, y0 * 0.5), Qt.AlignmentFlag.AlignCenter, self.tr("predicted →"))
        p.save()  # down the left side, read from the top: the arrow points down the rows
        p.translate(0, y0 + n * cell / 2)
        p.rotate(90)
        p.drawText(
            QRectF(-n * cell / 2, -x0 * 0.5, n * cell, x0 * 0.5), Qt.AlignmentFlag.AlignCenter, self.tr("true →")
        )
        p.restore()
        right, room = self.tr("right"), 2 * cell
        wide = QFontMetricsF(small).horizontalAdvance(right)
        if wide > room:  # smaller rather than cut: the column's title over two cells
            fitted = QFont(small)
            fitted.setPointSizeF(max(5.0, small.pointSizeF() * room / wide))
            p.setFont(fitted)
        p.drawText(QRectF(x0 + (n + 0.2) * cell, y0 * 0.5, room, y0 * 0.5), Qt.AlignmentFlag.AlignCenter, right)
        label_font = theme.font(11, bold=True)
        p.setFont(label_font)
        p.setPen(QColor(theme.VALUE_COLOR))
        for k in range(n):
            p.drawText(QRectF(x0 + k * cell, y0 * 0.5, cell, y0 * 0.5), Qt.AlignmentFlag.AlignCenter, str(k))
            p.drawText(QRectF(x0 * 0.5, y0 + k * cell, x0 * 0.5, cell), Qt.AlignmentFlag.AlignCenter, str(k))
        largest = int(counts.max()) if counts.size else 0
        count_font = theme.font(1, bold=True, scaled=False)
        count_font.setPixelSize(max(8, int(cell * (0.58 if largest < 100 else 0.42))))  # two digits or three
        p.setFont(count_font)
        for r in range(n):
            for c in range(n):
                rect = QRectF(x0 + c * cell, y0 + r * cell, cell, cell)
                colour = cell_colour(int(counts[r, c]), largest, r == c)
                p.fillRect(rect, colour)
                p.setPen(QPen(QColor(theme.RULE), 1))
                p.drawRect(rect)
                if counts[r, c]:
                    p.setPen(QColor("#ffffff" if colour.lightness() < 150 else "#111827"))
                    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(int(counts[r, c])))
        acc = predictions.per_class_accuracy(counts)
        acc_font = theme.font(1, bold=True, scaled=False)
        acc_font.setPixelSize(max(8, int(cell * 0.6)))
        p.setFont(acc_font)
        for r in range(n):
            rect = QRectF(x0 + (n + 0.2) * cell, y0 + r * cell, 2 * cell, cell)
            a = acc[r]
            if np.isfinite(a):  # a bar as long as the accuracy, the percentage over it
                bar = QRectF(rect.x(), rect.y() + 0.12 * cell, rect.width() * a, cell * 0.76)
                p.fillRect(bar, QColor("#bfdbfe") if a >= 0.9 else QColor("#fecaca"))
            p.setPen(QColor(theme.VALUE_COLOR))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, "–" if not np.isfinite(a) else f"{100 * a:.0f}%")
        p.end()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.update()
        super().changeEvent(event)


class ImagePanel(QWidget):
    """The image view (see the module's docstring): a title naming the evaluation shown, the
    grid of test images (optionally only the wrong ones) and the confusion matrix."""

    def __init__(self, controller, shown: ShownNodes, set_available: Callable[[bool], None], parent=None):
        super().__init__(parent)
        self.setObjectName("imagePanel")
        self.c = controller
        self.nodes_shown = shown
        self._set_available = set_available
        self.available = False
        self.eval: dict | None = None  # the evaluation shown
        self._drawn: tuple | None = None
        self.title = QLabel()
        self.title.setObjectName("imageTitle")
        self.title.setFont(theme.font(12, bold=True))
        self.title.setWordWrap(True)
        self.onlyWrong = QCheckBox(self.tr("Only the wrong ones"))
        self.onlyWrong.setObjectName("onlyWrongCheck")
        self.grid = ImageGrid()
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.grid)
        self.scroll.setWidgetResizable(True)
        # always there: a scroll bar that came and went would change the width the rows fill
        self.scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.matrix = ConfusionMatrix()
        # the title over the images only: the matrix has the panel's whole height (its cells are
        # as large as the height allows)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.onlyWrong)
        left = QVBoxLayout()
        left.addLayout(top)
        left.addWidget(self.scroll, 1)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        lay.addLayout(left, 3)
        lay.addWidget(self.matrix, 2)
        self.onlyWrong.toggled.connect(self.grid.set_only_wrong)
        controller.built.connect(self._on_built)
        controller.ticked.connect(self.refresh)
        controller.rewound.connect(lambda _step: self.refresh())
        shown.observe(lambda _shown: self.refresh())

    def _on_built(self) -> None:
        info = self.c.info
        data = getattr(info, "test_images", None) if info is not None else None
        self.available = data is not None
        self._set_available(self.available)
        if data is None:
            self.grid.set_images(None, None)
        else:
            self.grid.set_images(data["images"], data["labels"])
        self._drawn = None
        self.refresh()

    def shown_step(self) -> int | None:
        """The step whose evaluation is shown: time travel's past step, None for the last."""
        return self.nodes_shown.step

    def refresh(self) -> None:
        """Show the evaluation at or before the shown step (cheap when it is the one drawn)."""
        if not self.available:
            return
        e = last_eval(self.c.evals, self.shown_step())
        pred = None
        if e is not None:
            pred = next((p for p in self.c.predictions if p["step"] == e["step"]), None)
        key = None if e is None else (e["step"], e.get("accuracy"), e.get("test_loss"), pred is None)
        if key == self._drawn:
            return
        self._drawn = key
        self.eval = e
        self.grid.set_predictions(
            None if pred is None else pred["predicted"], None if pred is None else pred["confidence"]
        )
        self.matrix.set_counts(e.get("confusion") if e is not None else None)
        self._title()

    def _title(self) -> None:
        e, n = self.eval, 0 if self.grid.labels is None else len(self.grid.labels)
        if e is None:
            self.title.setText(self.tr("{n} test images: the predictions come after the first epoch").format(n=n))
            return
        wrong = int(self.grid.wrong.sum()) if self.grid.predicted is not None else None
        if wrong is None:
            text = self.tr("Epoch {epoch} (step {step:,}): test accuracy {acc}")
        else:
            text = self.tr("Epoch {epoch} (step {step:,}): {wrong} of {n} wrong, accuracy {acc}")
        acc = "–" if e.get("accuracy") is None else f"{100 * e['accuracy']:.1f}%"
        self.title.setText(text.format(epoch=e["epoch"], step=e["step"], wrong=wrong, n=n, acc=acc))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange and self.available:
            self._title()
            self.grid.update()
        super().changeEvent(event)
