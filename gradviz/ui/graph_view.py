"""The node editor: nodes with live values and gradients, ports, edges, drag to connect.

The scene mirrors SessionDocument.graph; every edit goes through the document (undoable), and
the scene rebuilds from it. Live values arrive with set_node_data. The why is drawn too
(model/gradflow.py): each node's gradient as the sum of its parts from each differentiated output,
what flows back into each Output, the gradient along each edge (width and colour by magnitude,
the value on hover), ops.stop_gradient as a cut, and the gradients grad_fn does not ask for in grey."""

from __future__ import annotations

import math

import html

import numpy as np
from PySide6.QtCore import Property, QCoreApplication, QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QGuiApplication, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsView,
    QToolTip,
)

from ..model.colorscale import RunningScale, bar_labels, max_abs, nice_ceil
from ..model.formatting import fmt_full, fmt_tensor
from ..model.gradflow import (
    SHOWN_IN_FULL,
    short_forms,
    OutputFlow,
    contributing,
    edge_gradients,
    fmt_values,
    not_requested,
    output_flows,
)
from ..model import datasets
from ..model.graph import DESCRIPTIONS, PORTS, Node, attr_problems, shape_str
from ..model.ops import OPS
from . import theme
from .heatmap import to_qimage
from .unit_maps import UnitMapsItem
from .language import tr_msg
from .spotlight import MARGIN, SpotlightCard

# Node geometry, in scene units (the view's zoom fits the whole graph to the room it has). The
# numbers are the largest text on a node: a small label sits above each one (not beside it), so
# that a node is little wider than its numbers and the graph fits wide, short views (a 1280x720
# projector) at a zoom where the numbers stay legible.
NAME_PT = 13  # the node's name, in its header
KIND_PT = 10
INFO_PT = 10  # one line under the header: "a ← x · b ← w", or "shape (5,) · ones"
LABEL_PT = 9.5  # "value", "∂L/∂z", "from out_loss": above each number
VALUE_PT = 14  # every number, bold monospace
NOTE_PT = 10
SHARE_PT = 12  # a part of a gradient ("+ from out_z  [1.000, 1.000, 1.000]"), on one line
SHARE_H = 19
HEADER = 30
INFO = 20
LABEL_H = 14
VALUE_H = 22
BLOCK = LABEL_H + VALUE_H  # a label and its number
PAD = 10  # left and right inside a node
BOTTOM = 8
MIN_W = 210
W_OUTPUT = 190
CELL = 11  # a heat-map cell, at most
HEAT_MAX = 66  # px: a heat map's height at most (a batch of 64 rows is 1 px a row)
PORT_R = 7
W_NEW = 400  # room kept for a new node (the widest: a vector of SHOWN_IN_FULL elements, a note)
NEW_H = 170  # and its height (a vector's value and gradient, a line of problems)
EDGE_MAX_W = 7.0  # px: the width of the edge that carries the largest gradient
CAPTION_PT = 11  # the caption over the graph (viewport text: it follows the look's scale); not
# bold: its first line fits a 1280-pixel projector's width in presentation mode
# presentation mode: every value and gradient on a node at least this tall on screen (a digit, in
# px); a node then shows its name, its value and its gradient, each as long as fits (hover or
# select it for the rest)
PRESENT_DIGIT_PX = 24.0
# level of detail: where the view's zoom would draw the nodes' numbers smaller than this (a digit,
# in px), the nodes show their name, value and gradient large, as in presentation mode, and the
# selected node's spotlight card the rest; not while stepping through backprop (its card shows
# the numbers large, and a matrix's heat maps choose the element)
READABLE_DIGIT_PX = 11.0
CAPTION_SEP = "  ·  "  # between the caption's parts, on its one line


def _font(size: float, bold: bool = False, italic: bool = False, mono: bool = False):
    return theme.font(size, bold=bold, italic=italic, mono=mono, scaled=False)


def _value_width(text: str) -> float:
    return QFontMetricsF(_font(VALUE_PT, bold=True, mono=True)).horizontalAdvance(text)


def _digit_per_pt() -> float:
    """A digit's height, in scene units, per point of the nodes' number font."""
    return theme.digit_height(_font(100, bold=True, mono=True)) / 100


def number_px(pt: float, zoom: float) -> float:
    """How tall the digits of the nodes' number font at `pt` are on screen at `zoom`."""
    return theme.digit_height(_font(pt, bold=True, mono=True)) * zoom


def number_pt_for(zoom: float) -> float:
    """The compact nodes' number size at `zoom`: PRESENT_DIGIT_PX (presentation mode) or
    READABLE_DIGIT_PX tall on screen."""
    target = PRESENT_DIGIT_PX if theme.LOOK.presenting else READABLE_DIGIT_PX
    pt = target / max(zoom, 1e-3) / _digit_per_pt()
    while number_px(pt, zoom) < target:
        pt += 0.25  # hinted digits do not grow in proportion to the size
    return pt


FIT_MIN_PT = 8  # a node's text shrinks to fit down to this size, then is cut with "…"
COLORBAR_H = 26  # a matrix's colour bar and its numbers, under its heat map


class PortItem(QGraphicsEllipseItem):
    def __init__(self, node: NodeItem, port: str | None, is_input: bool, y: float):
        super().__init__(-PORT_R, -PORT_R, 2 * PORT_R, 2 * PORT_R, node)
        self.node, self.port, self.is_input = node, port, is_input
        self.setPos(0 if is_input else node.width, y)
        self.setBrush(QBrush(QColor(theme.CARD)))
        self.setPen(QPen(QColor(theme.CARD_TEXT), 2))
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setToolTip(
            QCoreApplication.translate("PortItem", "input '{port}': drag an output here").format(port=port)
            if is_input
            else QCoreApplication.translate("PortItem", "output: drag to an input port to connect")
        )
        self.setZValue(2)

    def hoverEnterEvent(self, e):
        self.setBrush(QBrush(QColor("#fde68a")))

    def hoverLeaveEvent(self, e):
        self.setBrush(QBrush(QColor(theme.CARD)))


class NodeItem(QGraphicsObject):
    role_muted = False  # an Output that is not returned: its role drawn in grey

    def __init__(
        self,
        node: Node,
        shape,
        color_index: int | None,
        role: str = "",
        flow: OutputFlow | None = None,
        unrequested: str = "",
        shares: list[str] | None = None,
    ):
        super().__init__()
        self.node = node
        self.name = node.name
        self.shape_ = shape
        self.color_index = color_index
        self.role = role
        self.flow = flow  # Output nodes: what flows back into the returned value
        self.unrequested = unrequested  # why grad_fn does not return this gradient ("" if it does)
        self.shares = shares or []  # the differentiated outputs this node's gradient sums over
        self.parts: dict = {}
        self.unit_maps = None  # the data view's mini maps under the node (GraphScene.set_unit_maps)
        self.value = None
        self.grad = None
        self.scales: tuple[float, float] = (1.0, 1.0)  # a matrix's colour scales S: value, gradient
        self.problems: list[str] = []
        self.width = self._width()
        self.setFlags(
            QGraphicsItem.GraphicsItemFlag.ItemIsMovable
            | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
            | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges
        )
        self.setPos(*node.pos)
        ports = PORTS.get(node.kind, ())
        body = self.height() - HEADER - BOTTOM  # input ports spread along the left edge
        self.ports_in = {
            p: PortItem(self, p, True, HEADER + body * (i + 0.5) / len(ports)) for i, p in enumerate(ports)
        }
        self.port_out = None if node.kind == "Output" else PortItem(self, None, False, HEADER / 2)
        self.setObjectName(f"node_{node.name}")
        self._update_tooltip()

    # geometry
    def _matrix(self) -> bool:
        return self.shape_ is not None and len(self.shape_) == 2

    def _width(self) -> float:
        """Wide enough for the header and for a vector of up to SHOWN_IN_FULL elements written
        out in full."""
        head = QFontMetricsF(_font(NAME_PT, bold=True)).horizontalAdvance(self.node.name)
        head += QFontMetricsF(_font(KIND_PT)).horizontalAdvance(self._kind_text()) + 3 * PAD + 24
        if self.node.kind == "Output":
            seed = self.flow.seed if self.flow is not None else None
            text = fmt_values(seed) if seed is not None and seed.size <= SHOWN_IN_FULL else "1.000"
            return max(W_OUTPUT, head, 2 * PAD + _value_width(text))
        shape = tuple(self.shape_ or ())
        if len(shape) != 1 or shape[0] > SHOWN_IN_FULL:
            return max(MIN_W, head)
        widest = fmt_values(-np.full(shape, 8.888))
        share = QFontMetricsF(_font(SHARE_PT, bold=True, mono=True)).horizontalAdvance(widest) + self._share_label_w()
        return max(MIN_W, head, 2 * PAD + _value_width(widest), 2 * PAD + share if self.shares else 0)

    def _kind_text(self) -> str:
        n = self.node
        return n.kind if n.kind != "Parameter" or n.requires_grad else self.tr("Parameter (frozen)")

    def _heat_rows(self) -> float:
        """A heat map's height: CELL a row, at most HEAT_MAX."""
        return min(CELL * self.shape_[0], HEAT_MAX)

    def _extra_rows(self) -> float:
        """Height under value and gradient: a block per share (a line for a matrix). A gradient
        grad_fn does not return says so in its label."""
        if self._matrix():
            return LABEL_H + 4 if self.shares else 0
        return SHARE_H * len(self.shares) + (4 if self.shares else 0)

    def height(self) -> float:
        if self.node.kind == "Output":
            return HEADER + INFO + LABEL_H + 2 + BLOCK + BOTTOM
        if self._matrix():
            return HEADER + INFO + LABEL_H + self._heat_rows() + 6 + COLORBAR_H + self._extra_rows() + BOTTOM
        return HEADER + INFO + 2 * BLOCK + self._extra_rows() + BOTTOM

    def boundingRect(self) -> QRectF:
        return QRectF(-PORT_R - 2, -2, self.width + 2 * PORT_R + 4, self.height() + 4)

    def set_data(self, value, grad, parts: dict | None = None, scales: tuple[float, float] | None = None) -> None:
        """`scales`: a matrix's colour scales (model/colorscale.py), else its own largest |value|."""
        self.value, self.grad = value, grad
        self.scales = scales or (nice_ceil(max_abs(value)), nice_ceil(max_abs(grad)))
        self.parts = {o: parts[o][self.name] for o in self.shares if parts and self.name in parts.get(o, {})}
        self._tooltip_stale = True  # written when asked for (toolTip, GraphScene.helpEvent): not per update
        self.update()

    def share_lines(self) -> list[str]:
        """The gradient as the sum of its parts, as drawn: 'from out_loss  [0.326, 0.016, 0.042]',
        '+ from out_z  [1.000, 1.000, 1.000]'."""
        return [
            ("+ " if i else "") + self.tr("from {output}  {values}").format(output=o, values=fmt_values(self.parts[o]))
            for i, o in enumerate(self.parts)
        ]

    def set_problems(self, msgs: list[str]) -> None:
        self.problems = msgs
        self._tooltip_stale = True
        self.update()

    def toolTip(self) -> str:
        """The tooltip, written now if the node changed since: writing every element of its values
        at each live refresh cost the training window CPU time, for a tooltip nobody reads."""
        if self._tooltip_stale:
            self._update_tooltip()
        return super().toolTip()

    def _update_tooltip(self) -> None:
        self._tooltip_stale = False
        lines = [f'<b>{self.node.kind} "{self.name}"</b>', tr_msg(DESCRIPTIONS.get(self.node.kind, ""))]
        if self.shape_ is not None:
            lines.append(self.tr("shape {shape}").format(shape=shape_str(self.shape_)))
        for port in PORTS.get(self.node.kind, ()):
            lines.append(f"{port} ← " + html.escape(self.node.inputs.get(port) or self.tr("(not connected)")))
        for m in self.problems:
            lines.append(f"<span style='color:{theme.ERROR_COLOR}'>⚠ {html.escape(tr_msg(m), quote=False)}</span>")
        if self.flow is not None:
            lines.append(html.escape(tr_msg(self.flow.label)))
            if self.flow.seed is not None:
                head = self.tr("gradient flowing back in =")
                lines.append(f"<pre>{head}\n{fmt_full(self.flow.seed)}</pre>")
        if self.value is not None:
            head = self.tr("value =")
            lines.append(f"<pre>{head}\n{fmt_full(self.value)}</pre>")
        if self.grad is not None:
            lines.append(f"<pre>∂L/∂{html.escape(self.name)} =\n{fmt_full(self.grad)}</pre>")
            if self.unrequested:
                why = self.tr("{why}: grad_fn does not return it").format(why=tr_msg(self.unrequested))
                lines.append(f"<i>{html.escape(why)}</i>")
        for o, g in self.parts.items():
            head = html.escape(self.tr("from {output}:").format(output=o))
            lines.append(f"<pre>{head}\n{fmt_full(g)}</pre>")
        self.setToolTip("<br>".join(ln for ln in lines if ln))

    # painting
    def paint(self, p: QPainter, option, widget=None) -> None:
        n = self.node
        h, w = self.height(), self.width
        presenting = theme.LOOK.presenting
        kind_color = QColor(theme.KIND_COLORS.get(n.kind, "#555"))
        if n.kind == "Parameter" and self.color_index is not None:
            kind_color = theme.param_color(self.color_index)
        border = (
            QColor(theme.ERROR_COLOR)
            if self.problems
            else (QColor("#f59e0b") if self.isSelected() else QColor(theme.CARD_TEXT))
        )
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(border, 4 if (self.problems or self.isSelected()) else (2.5 if presenting else 1.5)))
        p.setBrush(QBrush(QColor(theme.CARD)))
        p.drawRoundedRect(QRectF(0, 0, w, h), 8, 8)
        path = QPainterPath()
        path.addRoundedRect(QRectF(0, 0, w, HEADER), 8, 8)
        p.fillPath(path, kind_color)
        p.setPen(QColor("#ffffff"))
        right = 34 if self.problems else PAD  # room for the warning sign
        if self.compact():  # the name as large as the header holds; the kind is the tooltip's
            _fit_text(p, QRectF(PAD, 0, w - PAD - right, HEADER), n.name, self.name_pt(), bold=True)
        else:
            kind_w = QFontMetricsF(_font(KIND_PT)).horizontalAdvance(self._kind_text())
            _fit_text(p, QRectF(PAD, 0, w - 2 * PAD - right - kind_w, HEADER), n.name, NAME_PT, bold=True)
            p.setPen(QColor("#ffffff"))
            p.setFont(_font(KIND_PT))
            p.drawText(
                QRectF(PAD, 0, w - PAD - right, HEADER),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                self._kind_text(),
            )
        if self.problems:
            p.setFont(_font(NAME_PT, bold=True))
            p.drawText(QRectF(w - 28, 0, 24, HEADER), Qt.AlignmentFlag.AlignCenter, "⚠")

        y = HEADER
        if OPS[n.kind].role == "data":
            self._paint_data(p, y)
            return
        if self.compact():
            self._paint_compact(p, y)
            return
        # one line: what each input port is connected to ("a ← x · b ← w"), or the source's shape
        ports = PORTS.get(n.kind, ())
        if ports:
            missing = any(not n.inputs.get(port) for port in ports)
            info = " · ".join(f"{port} ← " + (n.inputs.get(port) or self.tr("(not connected)")) for port in ports)
            p.setPen(QColor(theme.ERROR_COLOR if missing else theme.CARD_TEXT))
        else:
            info = self.tr("shape {shape}").format(shape=shape_str(tuple(n.shape))) + f" · {n.init}"
            p.setPen(QColor(theme.CARD_TEXT))
        _fit_text(p, QRectF(PAD + 4, y, w - 2 * PAD - 4, INFO), info, INFO_PT)
        y += INFO
        p.setPen(QPen(QColor(theme.RULE), 1))
        p.drawLine(QPointF(6, y), QPointF(w - 6, y))

        if n.kind == "Output":
            p.setPen(QColor(theme.MUTED if self.role_muted else theme.VALUE_COLOR))
            _fit_text(p, QRectF(PAD, y, w - 2 * PAD, LABEL_H + 2), self.role, LABEL_PT, bold=True)
            self._paint_flow(p, y + LABEL_H + 2)
            return
        grad_color = QColor(theme.MUTED if self.unrequested else theme.GRAD_COLOR)
        if self._matrix():
            y = self._paint_matrices(p, y, grad_color)
        else:
            self._paint_block(p, y, self.tr("value"), self.value, QColor(theme.VALUE_COLOR))
            self._paint_block(p, y + BLOCK, self._grad_label(), self.grad, grad_color)
            y += 2 * BLOCK
            for i, o in enumerate(self.shares):
                self._paint_share(p, y, f"{'+' if i else '='} {o}", self.parts.get(o))
                y += SHARE_H
        if self._matrix() and self.shares:
            p.setPen(QColor(theme.GRAD_COLOR))
            _fit_text(
                p,
                QRectF(PAD, y, w - 2 * PAD, LABEL_H + 4),
                self.tr("= {sum} (hover)").format(
                    sum=" + ".join(self.tr("from {output}").format(output=o) for o in self.shares)
                ),
                LABEL_PT,
            )
            y += LABEL_H + 4

    def compact(self) -> bool:
        """Presentation mode, or a zoom too small for the full node's numbers (GraphScene.lod):
        the node shows its name, its value and its gradient, large."""
        scene = self.scene()
        return theme.LOOK.presenting or (scene is not None and scene.lod)

    def number_font(self):
        """The font of the node's numbers: when compact as large as the view's zoom needs for
        the target digit height on screen (GraphScene.number_pt), at most as tall as its line."""
        if not self.compact() or self.scene() is None:
            return _font(VALUE_PT, bold=True, mono=True)
        pt = max(VALUE_PT, self.scene().number_pt)
        pt = min(pt, self.number_band() / _digit_per_pt())  # the lines do not run into each other
        return _font(max(VALUE_PT, pt), bold=True, mono=True)

    def number_band(self) -> float:
        """A compact line's height in scene units: its number's digits are at most this tall."""
        return (self.height() - BOTTOM - HEADER - (INFO if self.node.kind == "Output" else 0)) / len(
            self.compact_lines()
        )

    def name_pt(self) -> float:
        """A compact node's name: as large as fills the header's height."""
        cap = QFontMetricsF(_font(100, bold=True)).height() / 100  # a line's height per pt
        return max(NAME_PT, (HEADER - 4) / cap)

    def role_pt(self) -> float:
        """A compact Output's role ("returns loss: the loss"): as large as its band holds (it
        shrinks to fit the node's width, then is cut with "…"; the tooltip has it whole)."""
        cap = QFontMetricsF(_font(100, bold=True)).height() / 100
        return max(INFO_PT, (INFO - 2) / cap)

    def compact_lines(self) -> list[tuple[str, object]]:
        """What a compact node shows under its header: (what, value) for value and gradient (an
        Output: the gradient flowing back in)."""
        if self.node.kind == "Output":
            return [("seed", self.flow.seed if self.flow is not None else None)]
        return [("value", self.value), ("grad", self.grad)]

    def compact_text(self, v) -> str:
        """`v` as long as fits the node's width in the number font, else cut with "…"."""
        fm = QFontMetricsF(self.number_font())
        room = self.width - 2 * PAD
        for text in short_forms(v):
            if fm.horizontalAdvance(text) <= room:
                return text
        return fm.elidedText(short_forms(v)[-1], Qt.TextElideMode.ElideRight, room)

    def _paint_compact(self, p: QPainter, y: float) -> None:
        """Under the header: one large line for the value and one for the gradient, or an
        Output's role and what flows back into it. The info line and the parts are the tooltip's
        and the spotlight card's."""
        w = self.width
        lines = self.compact_lines()
        if self.node.kind == "Output":  # its role in the info line's band (the info: in the tooltip)
            p.setPen(QColor(theme.MUTED if self.role_muted else theme.VALUE_COLOR))
            _fit_text(p, QRectF(PAD, y, w - 2 * PAD, INFO), self.role, self.role_pt(), bold=True)
            y += INFO
        if self._compact_heat():
            self._paint_compact_heat(p, QRectF(PAD, y + 3, w - 2 * PAD, self.height() - BOTTOM - y - 6))
            return
        band = (self.height() - BOTTOM - y) / len(lines)
        font = self.number_font()
        for i, (what, v) in enumerate(lines):
            r = QRectF(PAD, y + i * band, w - 2 * PAD, band)
            if v is None:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QBrush(QColor(theme.RULE), Qt.BrushStyle.BDiagPattern))
                p.drawRoundedRect(r.adjusted(0, 3, 0, -3), 4, 4)
                if what == "seed" and self.flow is not None:
                    p.setPen(QColor(theme.MUTED))
                    _fit_text(p, r, tr_msg(self.flow.label), NOTE_PT, italic=True)
                continue
            gradient = what != "value"
            bad = not np.all(np.isfinite(v))
            color = (
                theme.MUTED if gradient and self.unrequested else (theme.GRAD_COLOR if gradient else theme.VALUE_COLOR)
            )
            p.setPen(QColor(theme.ERROR_COLOR if bad else color))
            p.setFont(font)
            p.drawText(r, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.compact_text(v))

    def data_lines(self) -> tuple[str, str, bool]:
        """A Dataset node's body: its source, then its split and batch (or its first problem,
        and whether it is one). It has no tensor of its own: no value, no gradient."""
        n = self.node
        bad_attrs = attr_problems(n.kind, n.attrs)
        if bad_attrs:
            return str(n.attrs.get("source", "?")), tr_msg(bad_attrs[0]), True
        spec = datasets.DataSpec.from_attrs(OPS[n.kind].attr_values(n.attrs))
        problems = spec.problems()
        if problems:
            return spec.source, tr_msg(problems[0]), True
        n_train, n_test = spec.split_sizes()
        detail = self.tr("{train} train · {test} test · batch {batch}").format(
            train=f"{n_train:,}", test=f"{n_test:,}", batch=spec.batch_size
        )
        return spec.source, detail, False

    def _paint_data(self, p: QPainter, y: float) -> None:
        """The data set's source large, its split and batch under it, in both levels of detail."""
        source, detail, bad = self.data_lines()
        body = self.height() - BOTTOM - y
        big = self.number_font() if self.compact() else _font(VALUE_PT, bold=True, mono=True)
        p.setPen(QColor(theme.VALUE_COLOR))
        _fit_text(p, QRectF(PAD, y, self.width - 2 * PAD, body * 0.55), source, big.pointSizeF(), bold=True)
        p.setPen(QColor(theme.ERROR_COLOR if bad else theme.CARD_TEXT))
        small = max(INFO_PT, big.pointSizeF() * 0.5) if self.compact() else INFO_PT
        _fit_text(p, QRectF(PAD, y + body * 0.55, self.width - 2 * PAD, body * 0.45), detail, small)

    def _compact_heat(self) -> bool:
        """A compact node of a tensor too large to write out: its value and gradient drawn as
        heat maps (its first element alone, "[0, …]", said nothing; the card has the numbers)."""
        shape = tuple(self.shape_ or ())
        return self.node.kind != "Output" and len(shape) >= 1 and math.prod(shape) > SHOWN_IN_FULL

    def _paint_compact_heat(self, p: QPainter, body: QRectF) -> None:
        """Value (left) and gradient (right) as heat maps filling the body, framed in their colours."""
        gap = 6.0
        half = (body.width() - gap) / 2
        for i, (v, color) in enumerate(((self.value, theme.VALUE_COLOR), (self.grad, theme.GRAD_COLOR))):
            r = QRectF(body.left() + i * (half + gap), body.top(), half, body.height())
            if v is None:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QBrush(QColor(theme.RULE), Qt.BrushStyle.BDiagPattern))
                p.drawRoundedRect(r, 4, 4)
                continue
            a = np.asarray(v)
            p.drawImage(r, to_qimage(a.reshape(a.shape[0], -1) if a.ndim >= 2 else a.reshape(1, -1), self.scales[i]))
            bad = not np.all(np.isfinite(a))
            muted = i == 1 and self.unrequested
            p.setPen(QPen(QColor(theme.ERROR_COLOR if bad else theme.MUTED if muted else color), 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(r)

    def _grad_label(self) -> str:
        return f"∂L/∂{self.name}: {tr_msg(self.unrequested)}" if self.unrequested else f"∂L/∂{self.name}"

    def _paint_flow(self, p: QPainter, y: float) -> None:
        """An Output's number: the gradient that flows back into what it returns, or why none."""
        f = self.flow
        if f is None:
            return
        if f.seed is None:
            p.setPen(QColor(theme.MUTED))
            _fit_text(p, QRectF(PAD, y, self.width - 2 * PAD, VALUE_H), tr_msg(f.label), NOTE_PT, italic=True)
            return
        self._paint_block(p, y, self.tr("gradient flowing back in"), f.seed, QColor(theme.GRAD_COLOR))

    def _paint_share(self, p: QPainter, y: float, label: str, v) -> None:
        """One part of the gradient: its output's name, small, then its numbers."""
        lw = self._share_label_w()
        p.setPen(QColor(theme.LABEL))
        _fit_text(p, QRectF(PAD, y, lw, SHARE_H), label, LABEL_PT)
        p.setPen(QColor(theme.GRAD_COLOR))
        r = QRectF(PAD + lw, y, self.width - 2 * PAD - lw, SHARE_H)
        if v is None:
            p.setPen(QColor(theme.MUTED))
            _fit_text(p, r, self.tr("not computed"), NOTE_PT, italic=True)
        else:
            _fit_text(p, r, fmt_values(v), SHARE_PT, bold=True, mono=True)

    def _share_label_w(self) -> float:
        fm = QFontMetricsF(_font(LABEL_PT))
        return max((fm.horizontalAdvance(f"+ {o}") for o in self.shares), default=0) + 8

    def _paint_block(self, p: QPainter, y: float, label: str, v, color: QColor) -> None:
        """A small label, and under it the number(s) in the largest font of the node."""
        p.setPen(QColor(theme.LABEL))
        _fit_text(p, QRectF(PAD, y + 1, self.width - 2 * PAD, LABEL_H), label, LABEL_PT)
        r = QRectF(PAD, y + LABEL_H, self.width - 2 * PAD, VALUE_H - 2)
        if v is None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(QColor(theme.RULE), Qt.BrushStyle.BDiagPattern))
            p.drawRoundedRect(r, 4, 4)
            p.setPen(QColor(theme.MUTED))
            p.setFont(_font(NOTE_PT, italic=True))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, self.tr("not computed"))
            return
        bad = not np.all(np.isfinite(v))
        p.setPen(QColor(theme.ERROR_COLOR) if bad else color)
        # the same size and weight for every number, so no value looks more important than
        # another: fewer digits first, a smaller font only as a last resort
        _fit_text(p, r, fmt_values(v), VALUE_PT, bold=True, mono=True)

    def _paint_matrices(self, p: QPainter, y: float, grad_color: QColor) -> float:
        """Value and gradient as heat maps side by side, each with its max and min; returns the
        y below them."""
        rows, cols = self.shape_
        half = self.width / 2
        heat_h = self._heat_rows()
        for i, (label, v, color) in enumerate(
            ((self.tr("value"), self.value, QColor(theme.VALUE_COLOR)), (self._grad_label(), self.grad, grad_color))
        ):
            x = PAD + i * half
            p.setPen(color if i else QColor(theme.LABEL))
            _fit_text(p, QRectF(x, y + 1, half - PAD - 4, LABEL_H), label, LABEL_PT)
            r = self.heat_rect(i, y)
            if v is None:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QBrush(QColor(theme.RULE), Qt.BrushStyle.BDiagPattern))
                p.drawRect(QRectF(x, r.top(), half - PAD - 4, heat_h))
                p.setPen(QColor(theme.MUTED))
                p.setFont(_font(NOTE_PT, italic=True))
                p.drawText(
                    QRectF(x, r.top(), half - PAD - 4, heat_h), Qt.AlignmentFlag.AlignCenter, self.tr("not computed")
                )
                continue
            p.drawImage(r, to_qimage(v, self.scales[i]))
            p.setPen(QPen(QColor(theme.MUTED), 1))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(r)
            p.setPen(QColor(theme.ERROR_COLOR) if not np.all(np.isfinite(v)) else color)
            box = QRectF(r.right() + 4, r.top(), x + half - PAD - r.right() - 4, heat_h)
            if np.isfinite(v).any():
                hi, lo = fmt_tensor(np.nanmax(v), digits=3), fmt_tensor(np.nanmin(v), digits=3)
                lines = (self.tr("max {v}").format(v=hi), self.tr("min {v}").format(v=lo))
                if not all(_fits(t, box.width(), mono=True) for t in lines):
                    lines = (hi, lo)  # no room for the words (Chinese is wider): the numbers whole, max above min
                line = min(VALUE_H, heat_h / 2)
                for k, text in enumerate(lines):
                    r_line = QRectF(box.left(), box.top() + k * line, box.width(), line)
                    _fit_text(p, r_line, text, NOTE_PT + 1, mono=True, bold=True)
            else:
                _fit_text(p, box, "NaN", NOTE_PT + 1, mono=True, bold=True)
            self._paint_colour_bar(p, QRectF(x, r.bottom() + 4, half - PAD - 4, COLORBAR_H - 4), i)
        return y + LABEL_H + heat_h + 6 + COLORBAR_H

    def heat_rect(self, i: int, y: float = HEADER + INFO) -> QRectF:
        """Where a matrix's heat map is drawn (0: the value's, 1: the gradient's), in item units."""
        rows, cols = self.shape_
        half = self.width / 2
        cell = min(CELL, (half - PAD - 4) / 3 / cols)  # the heat map takes a third of the half
        return QRectF(PAD + i * half, y + LABEL_H + 2, cell * cols, self._heat_rows())

    def element_at(self, pos: QPointF) -> int | None:
        """The flat index of the element under `pos` (item units): a cell of a matrix's heat
        maps, or a number of a vector written out in full; None elsewhere (and in presentation
        mode, whose nodes show no heat maps)."""
        if self.compact() or self.value is None or self.shape_ is None or self.node.kind == "Output":
            return None
        shape = tuple(self.shape_)
        if self._matrix():
            for i in (0, 1):
                r = self.heat_rect(i)
                if r.contains(pos):
                    row = min(int((pos.y() - r.top()) / r.height() * shape[0]), shape[0] - 1)
                    col = min(int((pos.x() - r.left()) / r.width() * shape[1]), shape[1] - 1)
                    return row * shape[1] + col
            return None
        if len(shape) != 1 or shape[0] > SHOWN_IN_FULL:
            return None
        for k, v in enumerate((self.value, self.grad)):
            r = QRectF(PAD, HEADER + INFO + k * BLOCK + LABEL_H, self.width - 2 * PAD, VALUE_H - 2)
            if v is None or not r.contains(pos):
                continue
            text = fmt_values(v)
            fm = QFontMetricsF(_fitted_font(text, r.width(), VALUE_PT, bold=True, mono=True))
            x = pos.x() - r.left()
            parts = text[1:-1].split(", ")
            for j in range(len(parts)):  # each number owns the text up to the comma after it
                if x <= fm.horizontalAdvance("[" + ", ".join(parts[: j + 1]) + ","):
                    return j
            return len(parts) - 1
        return None

    def _paint_colour_bar(self, p: QPainter, box: QRectF, i: int) -> None:
        """The colours of a heat map from -S to +S, with -S, 0 and +S written under them."""
        s = self.scales[i]
        strip = QRectF(box.left(), box.top(), box.width(), 7)
        p.drawImage(strip, to_qimage(np.linspace(-s, s, 64)[None, :], s))
        p.setPen(QColor(theme.CARD_TEXT))
        p.setFont(_font(NOTE_PT, mono=True))
        lo, hi = bar_labels(s)
        text = QRectF(box.left(), strip.bottom(), box.width(), box.height() - strip.height())
        p.drawText(text, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, lo)
        p.drawText(text, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter, "0")
        p.drawText(text, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, hi)

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and self.scene():
            self.scene().node_moved(self)
        return super().itemChange(change, value)


def _fits(text: str, width: float, mono: bool = False) -> bool:
    """Whether _fit_text draws `text` in full in `width` (at its smallest size, at the latest)."""
    return QFontMetricsF(_font(FIT_MIN_PT, mono=mono)).horizontalAdvance(text) <= width


def _fit_text(
    p: QPainter, r: QRectF, text: str, size: float, bold: bool = False, mono: bool = False, italic: bool = False
) -> None:
    """Draw text left-aligned in r, shrinking the font (down to FIT_MIN_PT) until it fits."""
    f = _fitted_font(text, r.width(), size, bold=bold, mono=mono, italic=italic)
    p.setFont(f)
    fm = QFontMetricsF(f)
    if fm.horizontalAdvance(text) > r.width():  # still too long: cut with "…", never mid-glyph
        text = fm.elidedText(text, Qt.TextElideMode.ElideRight, r.width())
    # not clipped: Chinese takes the fallback font's taller line, whose underscores fell outside r
    p.drawText(r, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextDontClip, text)


def _fitted_font(text: str, width: float, size: float, bold: bool = False, mono: bool = False, italic: bool = False):
    """The font _fit_text draws `text` in within `width`: `size`, smaller (to FIT_MIN_PT) until it fits."""
    f = _font(size, bold=bold, mono=mono, italic=italic)
    while size > FIT_MIN_PT and QFontMetricsF(f).horizontalAdvance(text) > width:
        size -= 0.5
        f = _font(size, bold=bold and size >= 10, mono=mono, italic=italic)
    return f


class EdgeItem(QGraphicsPathItem):
    """An edge; with live data it is drawn by the gradient flowing back along it (`grad`, its
    `weight` in [0, 1] relative to the largest on the graph), or as a cut (`cut`: ops.stop_gradient)
    or dashed (`stopped`: returned, not differentiated)."""

    def __init__(self, src: NodeItem, dst: NodeItem, port: str):
        super().__init__()
        self.src, self.dst, self.port = src, dst, port
        self.grad = None
        self.weight = 0.0
        self.cut = dst.node.kind == "StopGradient" or (dst.flow is not None and dst.flow.cut)
        self.stopped = dst.flow is not None and dst.flow.seed is None and not self.cut
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(-1)
        self.set_grad(None, 0.0)
        self.update_path()

    def set_grad(self, grad, weight: float) -> None:
        self.grad, self.weight = grad, weight
        tip = QCoreApplication.translate(
            "EdgeItem", "{source} → {target} (select and press Delete to disconnect)"
        ).format(source=self.src.name, target=f"{self.dst.name}.{self.port}")
        if self.cut:
            tip += "\n" + QCoreApplication.translate(
                "EdgeItem", "ops.stop_gradient: no gradient flows back along this edge"
            )
        elif self.stopped:
            tip += "\n" + QCoreApplication.translate("EdgeItem", "{why}: no gradient flows back").format(
                why=tr_msg(self.dst.flow.label)
            )
        elif grad is not None:
            tip += "\n" + QCoreApplication.translate("EdgeItem", "gradient flowing back to {source}:").format(
                source=self.src.name
            )
            tip += f"\n{fmt_full(grad)}"
        self.setToolTip(html.escape(tip).replace("\n", "<br>"))
        self._restyle()

    def paint(self, p: QPainter, option, widget=None) -> None:
        super().paint(p, option, widget)
        if not self.cut:
            return
        path = self.path()  # a cut: two short strokes across the middle of the edge
        mid, ang = path.pointAtPercent(0.5), path.angleAtPercent(0.5)
        p.save()
        p.translate(mid)
        p.rotate(-ang)
        p.setPen(QPen(QColor(theme.ERROR_COLOR), 3))
        for dx in (-5, 5):
            p.drawLine(QPointF(dx - 4, -12), QPointF(dx + 4, 12))
        p.restore()

    def boundingRect(self) -> QRectF:
        return super().boundingRect().adjusted(-14, -14, 14, 14)

    def update_path(self) -> None:
        a = self.src.port_out.scenePos() if self.src.port_out else self.src.scenePos()
        b = self.dst.ports_in[self.port].scenePos()
        path = QPainterPath(a)
        dx = max(60.0, abs(b.x() - a.x()) * 0.5)
        path.cubicTo(a + QPointF(dx, 0), b - QPointF(dx, 0), b)
        self.setPath(path)
        self._restyle()

    def _restyle(self) -> None:
        k = 1.5 if theme.LOOK.presenting else 1.0  # thicker in presentation mode
        if self.isSelected():
            self.setPen(QPen(QColor("#f59e0b"), 3 * k))
        elif self.cut or self.stopped:
            self.setPen(QPen(QColor(theme.MUTED), 2.2 * k, Qt.PenStyle.DashLine))
        elif self.grad is not None:
            c = QColor(theme.GRAD_COLOR)
            c.setAlphaF(0.35 + 0.65 * self.weight)
            self.setPen(QPen(c, (1.5 + (EDGE_MAX_W - 1.5) * self.weight) * k))
        else:
            self.setPen(QPen(QColor(theme.CARD_TEXT), 2.2 * k))

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemSelectedHasChanged:
            # now, not later: a deferred call outlived the item when the selection was deleted
            # (the scene rebuilds at once) and printed "already deleted" on the terminal
            self._restyle()
        return super().itemChange(change, value)


class GraphScene(QGraphicsScene):
    nodeSelected = Signal(str)  # "" when nothing is selected
    rebuilt = Signal()  # the items were made anew from the document (or the look changed)
    dataShown = Signal()  # the nodes were given new values (set_node_data)

    def helpEvent(self, event) -> None:
        """Qt reads an item's tooltip in C++: a node's is written first if it is stale."""
        for item in self.items(event.scenePos()):
            if isinstance(item, NodeItem):
                item.toolTip()
        super().helpEvent(event)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.doc = document
        self.items_by_name: dict[str, NodeItem] = {}
        self.edges: list[EdgeItem] = []
        self._drag_line: QGraphicsPathItem | None = None
        self._drag_src: NodeItem | None = None
        self._press_positions: dict[str, tuple[float, float]] = {}
        self._data: tuple | None = None
        self.unit_maps: dict = {}  # the data view's mini maps: {hidden node: (coarse, coarse, units)}
        self.scales = RunningScale()  # the matrices' colour scales over the frames shown in this run
        self.locked = False
        self.number_pt = VALUE_PT  # compact nodes: their number size for the view's zoom
        self.lod = False  # the view's zoom draws the full nodes' numbers too small: nodes compact
        self.zoom = 1.0
        self.stepping = False  # stepping through backprop: full nodes (heat maps to click)
        self.setBackgroundBrush(QColor(theme.SCENE_BG))
        self.selectionChanged.connect(self._on_selection)
        document.graphChanged.connect(self.rebuild)
        document.optionsChanged.connect(self.rebuild)
        self.rebuild()

    # -- building --------------------------------------------------------------------------------
    def rebuild(self, *_args) -> None:
        renamed = self.doc.renaming  # a renamed node stays selected under its new name
        selected = [renamed.get(i.name, i.name) for i in self.items_by_name.values() if i.isSelected()]
        self.blockSignals(True)
        self.clear()
        self.items_by_name.clear()
        self.edges.clear()
        self._drag_line = None
        g = self.doc.graph
        shapes, problems = g.infer_shapes()
        all_problems = g.validate()
        colors = {p.name: i for i, p in enumerate(g.parameters())}
        outs = g.outputs()
        o = self.doc.options
        try:
            flows = output_flows(g, o, shapes)
            unrequested = not_requested(g, o)
        except (KeyError, ValueError, IndexError):  # an unfinished graph
            flows, unrequested = {}, {}
        self.shares = self._shares(g, o)
        for n in g.nodes:
            role = ""
            if n.kind == "Output":
                src = n.inputs.get("x", "?")
                if outs and n is outs[0]:
                    role = self.tr("returns {x}: the loss").format(x=src)
                elif o.aux_output:
                    role = (
                        self.tr("returns ops.stop_gradient({x}), aux")
                        if o.stop_gradient and o.has_aux
                        else self.tr("returns ops.stop_gradient({x})")
                        if o.stop_gradient
                        else self.tr("returns {x} as aux (has_aux)")
                        if o.has_aux
                        else self.tr("returns {x}: differentiated too!")
                    ).format(x=src)
                else:
                    role = self.tr("not returned (z output off)")
            shares = None if n.name in unrequested else self.shares.get(n.name)  # x, y: no parts to explain
            item = NodeItem(
                n, shapes.get(n.name), colors.get(n.name), role, flows.get(n.name), unrequested.get(n.name, ""), shares
            )
            item.role_muted = n.kind == "Output" and not (outs and n is outs[0]) and not o.aux_output
            self.addItem(item)
            self.items_by_name[n.name] = item
        for n in g.nodes:
            for port, src in n.inputs.items():
                if (
                    src in self.items_by_name
                    and port in self.items_by_name[n.name].ports_in
                    and self.items_by_name[src].port_out is not None
                ):
                    e = EdgeItem(self.items_by_name[src], self.items_by_name[n.name], port)
                    self.addItem(e)
                    self.edges.append(e)
        by_node: dict[str, list[str]] = {}
        for p in all_problems:
            if p.node:
                by_node.setdefault(p.node, []).append(p.message)
        for name, msgs in by_node.items():
            if name in self.items_by_name:
                self.items_by_name[name].set_problems(msgs)
        for name in selected:
            if name in self.items_by_name:
                self.items_by_name[name].setSelected(True)
        self.blockSignals(False)
        if self._data is not None:
            self.set_node_data(*self._data)
        self.set_unit_maps(self.unit_maps)
        self._on_selection()
        self.rebuilt.emit()

    def restyle(self) -> None:
        """Draw everything again in the current look (theme.LOOK)."""
        self.setBackgroundBrush(QColor(theme.SCENE_BG))
        self.rebuild()

    def set_zoom(self, zoom: float) -> None:
        """The view's zoom: compact nodes draw their numbers PRESENT_DIGIT_PX (presentation
        mode) or READABLE_DIGIT_PX tall on screen at it; where the full nodes' numbers would be
        smaller than READABLE_DIGIT_PX, the nodes are compact (level of detail)."""
        self.zoom = zoom
        per_pt = _digit_per_pt()
        number_pt = number_pt_for(zoom)
        lod = per_pt * VALUE_PT * zoom < READABLE_DIGIT_PX - 1e-6 and not self.stepping
        if abs(number_pt - self.number_pt) > 1e-3 or lod != self.lod:
            self.number_pt, self.lod = number_pt, lod
            for item in self.items_by_name.values():
                item.update()

    def set_stepping(self, on: bool) -> None:
        """Stepping through backprop: the nodes drawn in full whatever the zoom."""
        if on != self.stepping:
            self.stepping = on
            self.set_zoom(self.zoom)

    @staticmethod
    def _shares(g, o) -> dict[str, list[str]]:
        """{node: the differentiated outputs its gradient is the sum of}, for nodes with several."""
        from ..model.codegen import differentiated_outputs

        try:
            diff = differentiated_outputs(g, o)
        except (KeyError, ValueError, IndexError):
            return {}
        return contributing(g, {d.name: None for d in diff}) if len(diff) > 1 else {}

    def set_node_data(
        self, values: dict | None, grads: dict | None, parts: dict | None = None, step: int | None = None
    ) -> None:
        """Show live values; None clears them to 'not computed' (and starts the colour scales
        afresh). `step`: the step they are at, for the heat maps' colour scales."""
        self._data = (values, grads, parts, step) if values is not None else None
        if values is None:
            self.scales.reset()
        shown: dict[str, np.ndarray] = {}
        for name, item in self.items_by_name.items():
            v = values.get(name) if values else None
            gr = grads.get(name) if grads else None
            if v is not None and item.shape_ is not None and tuple(np.shape(v)) != tuple(item.shape_):
                v = gr = None  # stale data from a graph that has since changed
            scales = None
            if v is not None and step is not None and item._matrix():
                scales = (self.scales.update((name, "value"), step, v), self.scales.update((name, "grad"), step, gr))
            item.set_data(v, gr, parts, scales)
            if v is not None:
                shown[name] = v
        self._edge_data(values, grads, shown)
        self.dataShown.emit()

    def set_unit_maps(self, maps: dict) -> None:
        """The data view's mini maps (ui/unit_maps.py) under the hidden nodes named in `maps`
        ({node: (coarse, coarse, units)}); none under the others."""
        self.unit_maps = dict(maps)
        for name, item in self.items_by_name.items():
            m = self.unit_maps.get(name)
            shape_ok = m is not None and item.shape_ is not None and m.shape[-1] == item.shape_[-1]
            if shape_ok:
                if item.unit_maps is None:
                    item.unit_maps = UnitMapsItem(item)
                item.unit_maps.set_maps(m)
            elif item.unit_maps is not None:
                item.unit_maps.remove()
                item.unit_maps = None

    def _edge_data(self, values, grads, shown) -> None:
        """Each edge drawn by the gradient flowing back along it (into an Output: its seed)."""
        flows = {}
        if values is not None and grads is not None:
            try:
                flows = edge_gradients(self.doc.graph, shown, {k: v for k, v in grads.items() if k in shown})
            except (KeyError, ValueError, IndexError, TypeError):  # an edited graph, data not yet rebuilt
                flows = {}
        grads_by_edge = {}
        for e in self.edges:
            if e.dst.node.kind == "Output":
                grads_by_edge[e] = e.dst.flow.seed if (values is not None and e.dst.flow is not None) else None
            else:
                grads_by_edge[e] = flows.get((e.src.name, e.dst.name, e.port))
        mags = {e: float(np.sqrt(np.nansum(np.square(g)))) for e, g in grads_by_edge.items() if g is not None}
        top = max([m for m in mags.values() if np.isfinite(m)], default=0.0)
        for e in self.edges:
            m = mags.get(e, 0.0)
            e.set_grad(grads_by_edge[e], min(1.0, m / top) if top > 0 and np.isfinite(m) else 0.0)

    # -- interaction -----------------------------------------------------------------------------
    def _on_selection(self) -> None:
        sel = [i for i in self.selectedItems() if isinstance(i, NodeItem)]
        self.nodeSelected.emit(sel[0].name if len(sel) == 1 else "")

    def node_moved(self, item: NodeItem) -> None:
        for e in self.edges:
            if e.src is item or e.dst is item:
                e.update_path()

    def mousePressEvent(self, event):
        item = self.itemAt(event.scenePos(), self.views()[0].transform()) if self.views() else None
        if isinstance(item, PortItem) and not self.locked and not item.is_input:
            self._drag_src = item.node
            self._drag_line = QGraphicsPathItem()
            self._drag_line.setPen(QPen(QColor("#f59e0b"), 2.5, Qt.PenStyle.DashLine))
            self.addItem(self._drag_line)
            event.accept()
            return
        self._press_positions = {n: (i.pos().x(), i.pos().y()) for n, i in self.items_by_name.items()}
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event):
        if self._drag_line is not None and self._drag_src is not None:
            a = self._drag_src.port_out.scenePos()
            b = event.scenePos()
            path = QPainterPath(a)
            path.cubicTo(a + QPointF(60, 0), b - QPointF(60, 0), b)
            self._drag_line.setPath(path)
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        if self._drag_line is not None:
            src = self._drag_src
            target = None
            for it in self.items(event.scenePos()):
                if isinstance(it, PortItem) and it.is_input:
                    target = it
                    break
            self.removeItem(self._drag_line)
            self._drag_line, self._drag_src = None, None
            if target is not None and src is not None and target.node is not src:
                QTimer.singleShot(0, lambda: self.doc.connect_ports(src.name, target.node.name, target.port))
            event.accept()
            return
        super().mouseReleaseEvent(event)
        moves = {
            n: (i.pos().x(), i.pos().y())
            for n, i in self.items_by_name.items()
            if self._press_positions.get(n) is not None and self._press_positions[n] != (i.pos().x(), i.pos().y())
        }
        self._press_positions = {}
        if moves:  # moving is allowed while training: positions do not change the run
            QTimer.singleShot(0, lambda: self.doc.move_nodes(moves))

    def free_spot(self, shown: QRectF | None = None) -> tuple[float, float]:
        """Where a new node goes: the first place in `shown` (the part of the scene in view), row
        by row, that no node covers, so that the view need not refit (and shrink the nodes); else
        right of the graph, at its top."""
        rects = [i.sceneBoundingRect().adjusted(-20, -20, 20, 20) for i in self.items_by_name.values()]
        if shown is not None:
            shown = shown.adjusted(20, 20, -20, -20)  # not against the view's edge
        if shown is not None and shown.width() >= W_NEW and shown.height() >= NEW_H:
            cols = int((shown.width() + 40) // (W_NEW + 40))
            rows = int((shown.height() + 20) // (NEW_H + 20))
            for row in range(rows):
                for col in range(cols):
                    cand = QRectF(shown.left() + col * (W_NEW + 40), shown.top() + row * (NEW_H + 20), W_NEW, NEW_H)
                    if not any(cand.intersects(r) for r in rects):
                        return (cand.left(), cand.top())
        if not rects:
            return (0.0, 0.0)
        return (max(r.right() for r in rects) + 20, min(r.top() for r in rects) + 20)

    def delete_selection(self) -> None:
        if self.locked:
            return
        nodes = [i.name for i in self.selectedItems() if isinstance(i, NodeItem)]
        edges = [(e.dst.name, e.port) for e in self.selectedItems() if isinstance(e, EdgeItem)]
        if nodes:
            self.doc.remove_nodes(nodes)
        elif edges:

            def fn(g):
                for dst, port in edges:
                    g[dst].inputs.pop(port, None)

            self.doc.edit(self.tr("Disconnect"), fn)


class GraphView(QGraphicsView):
    """The editor's view. Its caption says what the numbers on the nodes are; the Qt property
    `shownStep` is how many updates the parameters shown on the nodes have had (-1: none shown)."""

    shownStepChanged = Signal(int)
    backpropStageChanged = Signal(str)
    nodesShown = Signal(int)  # every refresh of the nodes' numbers, also of the same step

    MAX_ZOOM = 1.3  # fit never enlarges a small graph more than this (x the look's scale)

    def __init__(self, scene: GraphScene, parent=None):
        super().__init__(scene, parent)
        self.caption = ""
        self._shown_step = -1
        self._backprop_stage = ""
        self.auto_fit = True  # refit when the view is resized or the graph outgrows it; off once zoomed by hand
        self.top_room = 0.0  # px kept free above the graph, below the caption (the chain-rule card's)
        # px kept free on the viewport's right and bottom: the spotlight card's room in presentation
        # mode, where no free spot beside the fitted graph holds it (the card never covers a node)
        self.card_room = (0, 0)
        self.setObjectName("graphView")
        self._show_scroll_bars(False)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        scene.rebuilt.connect(self._graph_rebuilt)
        self.spotlight = SpotlightCard(self)  # compact nodes: the selected one, large
        scene.nodeSelected.connect(self._update_spotlight)
        scene.dataShown.connect(self._update_spotlight)

    def _update_spotlight(self, *_args) -> None:
        """While the nodes are compact the card shows the one node selected, with its numbers whole."""
        sel = [i for i in self.scene().selectedItems() if isinstance(i, NodeItem)]
        if len(sel) != 1 or not sel[0].compact() or self._backprop_stage:  # stepping: its own card
            if self.spotlight.node_name:
                self.spotlight.show_node(None)
            self._set_card_room((0, 0))
            return
        self.spotlight.show_node(sel[0])

    def _node_rects(self) -> list[QRect]:
        """Every node's rect in viewport coordinates."""
        return [self.mapFromScene(i.sceneBoundingRect()).boundingRect() for i in self.scene().items_by_name.values()]

    def place_spotlight(self, item, size: QSize) -> QPoint:
        """Where the card of `size` for `item` goes, in viewport coordinates. A spot free of every
        node (a bottom corner first, away from the node, then the top corners and the edges'
        middles, below the caption); in presentation mode, where none is free and the view is
        fitted, room kept for the card on the right or at the bottom, whichever leaves the graph
        the larger zoom (the graph refits to the rest); else the bottom corner that covers less
        of the node."""
        vp = self.viewport().rect()
        node = self.mapFromScene(item.sceneBoundingRect()).boundingRect()
        top = int(self._caption_height() + self.top_room) if self.caption else MARGIN
        left, right = MARGIN, max(MARGIN, vp.width() - size.width() - MARGIN)
        low, mid = max(top, vp.height() - size.height() - MARGIN), (left + right) // 2
        away = [left, right] if node.center().x() > vp.center().x() else [right, left]
        spots = [QPoint(x, low) for x in away] + [QPoint(x, top) for x in away]
        spots += [QPoint(mid, low), QPoint(mid, top), QPoint(left, (top + low) // 2), QPoint(right, (top + low) // 2)]
        if not (theme.LOOK.presenting and self.auto_fit):
            self._set_card_room((0, 0))  # out of presentation mode, or zoomed by hand: no room kept
        nodes = self._node_rects()
        room_before = self.card_room
        if theme.LOOK.presenting and self.auto_fit and room_before != (0, 0):
            same = item.name == self._room_for
            room = self._card_room_for(size, keep=room_before if same else None)
            if room != room_before:
                self._room_for = item.name
                self._set_card_room(room)
            if room[0]:  # the right column: beside the graph, below the caption where it fits
                return QPoint(max(0, vp.width() - size.width() - MARGIN), max(0, min(top, vp.height() - size.height())))
            return QPoint(away[0], max(0, vp.height() - size.height() - MARGIN))  # the bottom band
        for at in spots:
            if not any(QRect(at, size).intersects(n) for n in nodes):
                return at
        keeps = theme.LOOK.presenting and self.auto_fit and self._numbers_keep_size(self._card_room_for(size))
        if keeps:
            if QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton:
                self._room_after_press = True  # not under the mouse: once the button is released
            else:
                self._room_for = item.name
                self._set_card_room(self._card_room_for(size))
                return self.place_spotlight(item, size)

        def covered(at: QPoint) -> tuple[int, int]:
            """(how much of the selected node, how much of the others) a card at `at` covers."""
            card = QRect(at, size)

            def area(r: QRect) -> int:
                r = card.intersected(r)
                return r.width() * r.height() if r.isValid() else 0

            return area(node), sum(area(n) for n in nodes)

        # no room that keeps every number at its size (a large card at 1024x768): over the fewest
        # nodes, never over the selected one where a spot avoids it; inside the view
        spots += [QPoint(x, MARGIN) for x in (*away, mid)]  # over the caption, as a last resort
        inside = [QPoint(max(0, at.x()), max(0, min(at.y(), vp.height() - size.height()))) for at in spots]
        return min(inside, key=covered)

    def _numbers_keep_size(self, card_room: tuple[int, int]) -> bool:
        """Whether the graph fitted beside `card_room` draws every compact node's numbers as tall
        as the whole view does (a node's lines hold its numbers up to their band's height)."""

        def smallest(zoom: float) -> float:
            pt = number_pt_for(zoom)
            return min(
                (number_px(max(VALUE_PT, min(pt, i.number_band() / _digit_per_pt())), zoom) for i in items),
                default=PRESENT_DIGIT_PX,
            )

        items = list(self.scene().items_by_name.values())
        return (
            smallest(self._fit_zoom(card_room)[0]) >= min(PRESENT_DIGIT_PX, smallest(self._fit_zoom((0, 0))[0])) - 0.05
        )

    _room_for = ""  # the node whose card the room was kept for
    _room_after_press = False

    def _card_room_for(self, size: QSize, keep: tuple[int, int] | None = None) -> tuple[int, int]:
        """The room (right, bottom) in px for a card of `size`: a column on the right or a band at
        the bottom, whichever leaves the graph the larger zoom. `keep`: the room kept for the same
        node's card, kept while the card still fits it (its numbers change while training: the
        graph does not jump at every step)."""
        if keep is not None and (keep[0] >= size.width() + 2 * MARGIN or keep[1] >= size.height() + 2 * MARGIN):
            return keep
        right, bottom = (size.width() + 2 * MARGIN, 0), (0, size.height() + 2 * MARGIN)
        return max((right, bottom), key=lambda room: self._fit_zoom(room)[0])

    def _set_card_room(self, room: tuple[int, int]) -> None:
        if room != self.card_room:
            self.card_room = room
            if self.auto_fit:
                self.fit()

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def fit(self, room: float = 0.0) -> None:
        """Show the whole graph below the caption (which would cover the nodes' headers), at
        most at MAX_ZOOM, with `room` more scene units on its right (for the next new nodes); from
        now on the view refits itself when resized. A fitted view has no scroll bars: were they to
        come and go with the scene rect, each would resize the viewport and refit it again, for
        ever at some sizes."""
        self.auto_fit = True
        self._show_scroll_bars(False)
        s, r, cap = self._fit_zoom(self.card_room, room)
        right, bottom = self.card_room
        # the caption's band above the graph, the card's room right of it or below it
        self.setSceneRect(r.adjusted(0, -cap / s, right / s, bottom / s))
        self.resetTransform()
        self.scale(s, s)
        self.scene().set_zoom(s)
        vh = max(self.viewport().height(), 1)
        self.centerOn(r.center().x() + right / 2 / s, r.top() + (vh / 2 - cap) / s)
        self._update_spotlight()  # the nodes may have become compact, or full

    def _fit_zoom(self, card_room: tuple[int, int], room: float = 0.0) -> tuple[float, QRectF, float]:
        """(the zoom fit gives, the graph's rect it fits, the caption's band) with `card_room`
        px kept free on the right and at the bottom."""
        r = self.scene().itemsBoundingRect().adjusted(-10, -10, 10 + room, 10)
        vw, vh = max(self.viewport().width(), 1), max(self.viewport().height(), 1)
        cap = min(self._caption_height() + self.top_room, vh * 0.6)
        w, h = max(vw - card_room[0], 1), max(vh - cap - card_room[1], 1)
        top = min(w / max(r.width(), 1.0), h / max(r.height(), 1.0), self.MAX_ZOOM * theme.LOOK.scale)
        return max(top, 0.01), r, cap

    def set_top_room(self, px: float) -> None:
        """Keep `px` free above the graph (0: none), refitting it below."""
        if px != self.top_room:
            self.top_room = px
            self.fit()

    def _show_scroll_bars(self, on: bool) -> None:
        policy = Qt.ScrollBarPolicy.ScrollBarAsNeeded if on else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        self.setHorizontalScrollBarPolicy(policy)
        self.setVerticalScrollBarPolicy(policy)

    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        if self.auto_fit:
            self.fit()
        if self.spotlight.node_name:
            self._update_spotlight()

    def shown_rect(self) -> QRectF:
        """The part of the scene in view, below the caption."""
        r = self.viewport().rect().adjusted(0, int(self._caption_height() + self.top_room), 0, 0)
        return self.mapToScene(r).boundingRect()

    def _graph_rebuilt(self) -> None:
        """A node was added, moved or grew (a row per share when z is returned): refit only when
        part of the graph is out of view, and never in the middle of a drag (the node or the
        wire being dragged would jump away from the mouse): then once the button is released."""
        if not self.auto_fit:
            return
        if QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton:
            self._fit_after_drag = True
            return
        if not self.shown_rect().contains(self.scene().itemsBoundingRect()):
            self.fit()

    _fit_after_drag = False

    def mouseReleaseEvent(self, e) -> None:
        super().mouseReleaseEvent(e)
        if self._room_after_press:
            self._room_after_press = False
            QTimer.singleShot(0, self._update_spotlight)  # the card's room, now the node is let go
        if self._fit_after_drag:
            self._fit_after_drag = False
            QTimer.singleShot(0, self._graph_rebuilt)  # after the edit the release makes

    def _get_shown_step(self) -> int:
        return self._shown_step

    def set_shown_step(self, updates: int) -> None:
        """Say that the nodes now show the parameters after `updates` updates (-1: nothing)."""
        if updates != self._shown_step:
            self._shown_step = updates
            self.shownStepChanged.emit(updates)
        self.nodesShown.emit(updates)

    shownStep = Property(int, _get_shown_step, notify=shownStepChanged)

    def set_backprop_stage(self, key: str) -> None:
        """The stage Step through backprop shows ("forward:z", "backward:b"; "" when off)."""
        if key != self._backprop_stage:
            self._backprop_stage = key
            self.scene().set_stepping(bool(key))
            self._update_spotlight()
            self.backpropStageChanged.emit(key)

    def _get_backprop_stage(self) -> str:
        return self._backprop_stage

    backpropStage = Property(str, _get_backprop_stage, notify=backpropStageChanged)

    def set_caption(self, text: str) -> None:
        if text != self.caption:
            before = self._caption_height()
            self.caption = text
            self.viewport().update()
            if self.auto_fit and self._caption_height() != before:  # the band above the graph changed
                self.fit()

    def shown_caption(self) -> str:
        """The caption as drawn: one line, its parts joined by " · ", the first cut with "…"
        where the view is too narrow (a wrapped caption took three lines of a projector's graph);
        the whole caption is the band's tooltip."""
        fm = QFontMetricsF(theme.font(CAPTION_PT))
        room = max(self.viewport().width() - 36.0, 100.0)
        parts = [t for t in self.caption.split("\n") if t]
        line = CAPTION_SEP.join(parts)
        if fm.horizontalAdvance(line) <= room or len(parts) < 2:
            return fm.elidedText(line, Qt.TextElideMode.ElideRight, room)
        last = CAPTION_SEP + parts[-1]
        first_room = room - fm.horizontalAdvance(last)
        if first_room < 16 * fm.averageCharWidth():  # too narrow: the line cut as a whole
            return fm.elidedText(line, Qt.TextElideMode.ElideRight, room)
        return fm.elidedText(CAPTION_SEP.join(parts[:-1]), Qt.TextElideMode.ElideRight, first_room) + last

    def _caption_box(self) -> tuple[QRectF, int]:
        """The caption's box in viewport coordinates: one line, as tall as it is laid out (a
        Chinese caption takes the taller fallback font's line: at the Latin font's height its
        underscores were cut off, "has aux")."""
        fm = QFontMetricsF(theme.font(CAPTION_PT))
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextDontClip)
        line = fm.boundingRect(QRectF(0, 0, 1e5, 1e5), flags, self.shown_caption())
        return QRectF(8, 8, line.width() + 20, max(fm.height(), line.height()) + 10), flags

    def viewportEvent(self, e) -> bool:
        if e.type() == QEvent.Type.ToolTip and self.caption and self._caption_box()[0].contains(QPointF(e.pos())):
            QToolTip.showText(e.globalPos(), self.caption, self.viewport())
            return True
        return super().viewportEvent(e)

    def _caption_height(self) -> float:
        if not self.caption:
            return 0.0
        return self._caption_box()[0].height() + 8

    def drawForeground(self, p: QPainter, rect) -> None:
        if not self.caption:
            return
        p.save()
        p.resetTransform()  # viewport coordinates: the caption stays put when zooming
        p.setFont(theme.font(CAPTION_PT))
        box, flags = self._caption_box()
        p.setPen(Qt.PenStyle.NoPen)
        bg = QColor(theme.CARD)
        bg.setAlpha(225)
        p.setBrush(bg)
        p.drawRoundedRect(box, 6, 6)
        p.setPen(QColor(theme.VALUE_COLOR))
        p.drawText(box.adjusted(10, 5, -10, -5), flags, self.shown_caption())
        p.restore()

    def wheelEvent(self, e):
        f = 1.15 if e.angleDelta().y() > 0 else 1 / 1.15
        self.zoom_by(f)

    def zoom_by(self, f: float) -> None:
        """Zoom by hand: the view keeps this zoom until fit() (F) is asked for again."""
        self.auto_fit = False
        self._show_scroll_bars(True)  # to pan the zoomed graph; the view no longer refits when resized
        self.scale(f, f)
        self.scene().set_zoom(self.zoom)
        self._update_spotlight()

    def keyPressEvent(self, e):
        if e.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.scene().delete_selection()
            return
        super().keyPressEvent(e)
