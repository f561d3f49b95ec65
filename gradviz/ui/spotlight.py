"""The spotlight card: the selected node's numbers, large, over the graph, while the nodes are
compact (presentation mode, or a zoom too small for the full nodes' numbers).

A node on a projector shows as much of its value and gradient as fits at a size the back row
reads; the card shows the selected one whole: its value, its gradient and, where several outputs
are differentiated (z returned too), the gradient's parts, each from its output."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel

from ..model.gradflow import fmt_values, short_forms
from . import theme
from .lesson_panel import BREAK

SPOT_DIGIT_PX = 28.0  # the card's numbers: a digit at least this tall on screen (presentation mode)
SPOT_NORMAL_PX = 16.0  # and in normal mode, where the nodes are compact at a small zoom
MARGIN = 10  # px between the card and the view's edges
QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's: no maximum width
MAX_WIDTH = 0.7  # of the view's width: the card's widest
LABEL_WIDTH = 220  # px at the normal look's scale: a longer row label wraps


def _tr(text: str) -> str:
    return QCoreApplication.translate("NodeItem", text)  # the node's own labels, translated once


class SpotlightCard(QFrame):
    """A card in a corner of the graph view (the one away from the node it shows). `show_node`
    fills it from a NodeItem; rows are (label, number) pairs, the numbers in `numberFont`."""

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.setObjectName("spotlightCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # the graph stays clickable
        self.node_name = ""
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(12, 8, 12, 10)
        self._grid.setHorizontalSpacing(14)
        self._grid.setVerticalSpacing(2)
        self.title = QLabel()
        self.title.setObjectName("spotlightTitle")
        self._grid.addWidget(self.title, 0, 0, 1, 2)
        self._rows: list[tuple[QLabel, QLabel]] = []
        self.hide()

    def number_font(self):
        """Bold monospace, SPOT_DIGIT_PX digits in presentation mode, else SPOT_NORMAL_PX (a pixel
        size: the card is viewport text)."""
        f = theme.font(bold=True, mono=True, scaled=False)
        f.setPixelSize(100)
        px = SPOT_DIGIT_PX if theme.LOOK.presenting else SPOT_NORMAL_PX
        f.setPixelSize(math.ceil(px * 100 / theme.digit_height(f)))
        return f

    def rows(self) -> list[tuple[str, str]]:
        """(label, number) of each row shown."""
        return [(a.text(), b.text()) for a, b in self._rows if not a.isHidden()]

    def number_labels(self) -> list[QLabel]:
        return [b for a, b in self._rows if not a.isHidden()]

    def _row(self, i: int) -> tuple[QLabel, QLabel]:
        while len(self._rows) <= i:
            label, number = QLabel(), QLabel()
            label.setObjectName(f"spotlightLabel{len(self._rows)}")
            number.setObjectName(f"spotlightNumber{len(self._rows)}")
            label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self._grid.addWidget(label, len(self._rows) + 1, 0)
            self._grid.addWidget(number, len(self._rows) + 1, 1)
            self._rows.append((label, number))
        return self._rows[i]

    def show_node(self, item) -> None:
        """Show `item` (a NodeItem), or hide the card (None)."""
        if item is None:
            self.node_name = ""
            self.hide()
            return
        self.node_name = item.name
        rows: list[tuple[str, object, str]] = []
        if item.node.kind == "Output":
            if item.flow is not None and item.flow.seed is not None:
                rows.append((_tr("gradient flowing back in"), item.flow.seed, theme.GRAD_COLOR))
        else:
            rows.append((_tr("value"), item.value, theme.VALUE_COLOR))
            grad_colour = theme.MUTED if item.unrequested else theme.GRAD_COLOR
            rows.append((item._grad_label(), item.grad, grad_colour))
            for i, o in enumerate(item.shares):
                rows.append((f"{'+' if i else '='} {o}", item.parts.get(o), theme.GRAD_COLOR))  # as on the node
        self.title.setFont(theme.font(12, bold=True))
        self.title.setText(f"{item.name}  ·  {item._kind_text()}")
        small, big = theme.font(11), self.number_font()
        for i, (label, v, colour) in enumerate(rows):
            a, b = self._row(i)
            a.setFont(small)
            a.setStyleSheet(f"color: {theme.LABEL};")
            # "∂L/∂x: not requested by grad_position=(2, 3)": two lines, a narrower card
            most = int(LABEL_WIDTH * theme.LOOK.scale)
            long = QFontMetrics(small).horizontalAdvance(label) > most
            # a line may break after "weights=", between two whole names, never inside one
            a.setText(label.replace("=", "=" + BREAK) if long else label)
            a.setWordWrap(long)
            a.setMinimumWidth(most if long else 0)  # a wrapped label would take fewer, taller lines
            a.setMaximumWidth(most if long else QWIDGETSIZE_MAX)
            b.setFont(big)
            bad = v is not None and not np.all(np.isfinite(v))
            b.setStyleSheet(f"color: {theme.ERROR_COLOR if bad else colour};")
            b.setText(fmt_values(v) if v is not None else _tr("not computed"))
            a.show()
            b.show()
        for a, b in self._rows[len(rows) :]:
            a.hide()
            b.hide()
        self.setStyleSheet(
            f"#spotlightCard {{ background: {theme.CARD}; border: 2px solid #f59e0b; border-radius: 8px; }}"
        )
        self._narrow([v for _label, v, _colour in rows])
        self.adjustSize()
        self.place(item)
        self.show()
        self.raise_()

    def _narrow(self, values: list) -> None:
        """At most MAX_WIDTH of the view wide: a number too long for it (a batch's matrix) is
        written shorter (gradflow.short_forms: fewer decimals, then its first element; the
        node's tooltip has all of it), so that the graph keeps room beside the card."""
        m = self._grid.contentsMargins()
        n = len(values)
        labels = max((a.sizeHint().width() for a, _ in self._rows[:n]), default=0)
        room = int(self.view.viewport().width() * MAX_WIDTH) - labels - m.left() - m.right() - 14
        for (_a, b), v in zip(self._rows[:n], values):
            fm = QFontMetrics(b.font())
            text = b.text()
            if v is None or fm.horizontalAdvance(text) <= room:
                continue
            forms = short_forms(v)
            b.setText(next((f for f in forms if fm.horizontalAdvance(f) <= room), forms[-1]))

    def place(self, item) -> None:
        """Where the view puts it (GraphView.place_spotlight: never over a node, in presentation
        mode), inside the view."""
        vp = self.view.viewport()
        size = self.sizeHint().boundedTo(vp.size())
        self.resize(size)
        self.move(vp.mapTo(self.view, self.view.place_spotlight(item, size)))
