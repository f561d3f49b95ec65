"""The mini maps on a hidden node (the data view, ui/data_view.py): under the node, one small map
per unit of that unit's value over the input plane (the coarse grid of model/plane.py), blue
below 0, red above, on one colour scale for the node's units (heatmap.py); hovering a map shows
it enlarged beside the node, with its unit's name and range.

A child item of the node, drawn under it: the node's own geometry (its ports, its edges) is left
as it is."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject

from ..model.colorscale import max_abs, nice_ceil
from . import theme
from .heatmap import to_qimage

PER_ROW = 4  # maps in a row
GAP = 4
PAD = 8
TITLE_H = 16
ENLARGED = 190  # px: the hovered map's side
GAP_UNDER = 10  # between the node and its maps: a maps update repaints the node too where they meet


def unit_images(maps: np.ndarray, scale: float) -> list[QImage]:
    """One QImage a unit of maps (coarse, coarse, units), row 0 of the grid at the bottom."""
    return [to_qimage(maps[::-1, :, u], scale) for u in range(maps.shape[-1])]


class EnlargedMap(QGraphicsObject):
    """The hovered map, large, over everything else in the scene."""

    def __init__(self):
        super().__init__()
        self.setZValue(1000)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.image: QImage | None = None
        self.caption = ""

    def _font(self) -> QFont:
        return theme.font(10, bold=True)

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, ENLARGED + 2 * PAD, ENLARGED + 2 * PAD + QFontMetricsF(self._font()).height() + 4)

    def paint(self, p: QPainter, option, widget=None) -> None:
        r = self.boundingRect()
        p.setPen(QPen(QColor(theme.CARD_TEXT), 1.5))
        p.setBrush(QBrush(QColor(theme.CARD)))
        p.drawRoundedRect(r, 6, 6)
        p.setFont(self._font())
        p.setPen(QColor(theme.VALUE_COLOR))
        head = QFontMetricsF(self._font()).height() + 4
        p.drawText(QRectF(PAD, PAD / 2, ENLARGED, head), Qt.AlignmentFlag.AlignVCenter, self.caption)
        if self.image is not None:
            p.drawImage(QRectF(PAD, PAD / 2 + head, ENLARGED, ENLARGED), self.image)


class UnitMapsItem(QGraphicsObject):
    """A node's mini maps (see the module's docstring)."""

    def __init__(self, node_item):
        super().__init__(node_item)
        self.node_item = node_item
        self.setAcceptHoverEvents(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemStacksBehindParent, False)
        self.maps: np.ndarray | None = None  # (coarse, coarse, units)
        self.scale = 1.0
        self.images: list[QImage] = []
        self.hovered: int | None = None  # the unit enlarged
        self.enlarged: EnlargedMap | None = None
        self.setPos(0, node_item.height() + GAP_UNDER)

    def set_maps(self, maps: np.ndarray) -> None:
        maps = np.asarray(maps, np.float32)
        if self.maps is None or self.maps.shape != maps.shape:  # else only the pictures change
            self.prepareGeometryChange()
            self.setPos(0, self.node_item.height() + GAP_UNDER)
        self.maps = maps
        self.scale = nice_ceil(max_abs(self.maps)) or 1.0
        self.images = unit_images(self.maps, self.scale)
        if self.hovered is not None:
            self._show_enlarged(self.hovered)
        self.update()

    @property
    def units(self) -> int:
        return 0 if self.maps is None else self.maps.shape[-1]

    def cell(self) -> float:
        """A map's side: PER_ROW of them across the node's width."""
        return (self.node_item.width - 2 * PAD - (PER_ROW - 1) * GAP) / PER_ROW

    def map_rect(self, u: int) -> QRectF:
        c = self.cell()
        row, col = divmod(u, PER_ROW)
        return QRectF(PAD + col * (c + GAP), TITLE_H + row * (c + GAP), c, c)

    def boundingRect(self) -> QRectF:
        rows = -(-self.units // PER_ROW)
        return QRectF(0, 0, self.node_item.width, TITLE_H + rows * (self.cell() + GAP) + PAD / 2)

    def paint(self, p: QPainter, option, widget=None) -> None:
        r = self.boundingRect()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(QPen(QColor(theme.RULE), 1))
        p.setBrush(QBrush(QColor(theme.CARD)))
        p.drawRoundedRect(r, 6, 6)
        p.setPen(QColor(theme.LABEL))
        p.setFont(theme.font(8.5, scaled=False))
        p.drawText(
            QRectF(PAD, 0, r.width() - 2 * PAD, TITLE_H),
            Qt.AlignmentFlag.AlignVCenter,
            self.tr("each unit over the input plane, ±{s:g}").format(s=self.scale),
        )
        for u, img in enumerate(self.images):
            mr = self.map_rect(u)
            p.drawImage(mr, img)
            p.setPen(
                QPen(QColor("#f59e0b") if u == self.hovered else QColor(theme.RULE), 2 if u == self.hovered else 1)
            )
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(mr)

    def unit_at(self, pos: QPointF) -> int | None:
        return next((u for u in range(self.units) if self.map_rect(u).contains(pos)), None)

    def hoverMoveEvent(self, e) -> None:
        self.hover_at(e.pos())

    def hoverLeaveEvent(self, e) -> None:
        self.hover_at(None)

    def hover_at(self, pos: QPointF | None) -> None:
        """Enlarge the map under `pos` (item units; None: none)."""
        u = None if pos is None else self.unit_at(pos)
        if u == self.hovered:
            return
        self.hovered = u
        if u is None:  # out of the scene, not hidden: a hidden item still counts in the graph's bounds (fit, export)
            if self.enlarged is not None and self.enlarged.scene() is not None:
                self.enlarged.scene().removeItem(self.enlarged)
        else:
            self._show_enlarged(u)
        self.update()

    def _show_enlarged(self, u: int) -> None:
        scene = self.scene()
        if scene is None:
            return
        if self.enlarged is None:
            self.enlarged = EnlargedMap()
        if self.enlarged.scene() is not scene:
            scene.addItem(self.enlarged)
        v = self.maps[..., u]
        self.enlarged.image = self.images[u]
        self.enlarged.caption = self.tr("{node} unit {u}: {lo:.2f} to {hi:.2f}").format(
            node=self.node_item.name, u=u, lo=float(v.min()), hi=float(v.max())
        )
        # beside the node, right of it
        self.enlarged.setPos(self.mapToScene(QPointF(self.node_item.width + 12, 0)))
        self.enlarged.update()

    def remove(self) -> None:
        if self.enlarged is not None and self.enlarged.scene() is not None:
            self.enlarged.scene().removeItem(self.enlarged)
        self.enlarged = None
        if self.scene() is not None:
            self.scene().removeItem(self)
