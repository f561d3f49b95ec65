"""Run > Step through backprop (B): the stages of model/backprop.py on the nodes the window
shows (the engine's last snapshot), → and ← to move, the current node selected and its chain rule
in numbers in a card above the graph (`chainRuleCard`, its text at least SPOT_DIGIT_PX tall),
which keeps a band of the view free for it so that it covers no node. In the backward pass each
edge the current node's gradient comes back along is labelled with its local derivative (the op
table's text, and its number at the chosen element); clicking a cell of a node's heat map (or a
number of a vector) chooses the element whose chain rule the card writes out."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QAction, QBrush, QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QDockWidget, QFrame, QGraphicsItem, QGraphicsObject, QLabel, QVBoxLayout

from .language import tr_msg
from ..model.backprop import BackpropError, stages
from ..model.formatting import fmt_number
from . import theme
from .shortcuts import window_action
from .spotlight import MARGIN, SPOT_DIGIT_PX, SpotlightCard

BACKPROP_KEY, NEXT_KEY, PREVIOUS_KEY = "B", "Right", "Left"
EDGE_LABEL_PT = 11  # an edge's local derivative (viewport text: the look's scale applies)
ACCENT = "#f59e0b"  # the current stage: the node's selection colour, the card's border


def _text_font(mono: bool) -> object:
    """SPOT_DIGIT_PX digits: the card is viewport text, read from the back of the room."""
    if mono:
        return SpotlightCard.number_font(None)
    f = theme.font(bold=True, scaled=False)
    f.setPixelSize(100)
    f.setPixelSize(math.ceil(SPOT_DIGIT_PX * 100 / theme.digit_height(f)))
    return f


class ChainRuleCard(QFrame):
    """The current stage: its title and its formula with the numbers, large, in the band the
    view keeps free above the graph (or, zoomed by hand, the top corner away from the node)."""

    def __init__(self, view):
        super().__init__(view)
        self.setObjectName("chainRuleCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 6, 12, 8)
        lay.setSpacing(2)
        self.title, self.formula = QLabel(), QLabel()
        self.title.setObjectName("chainRuleTitle")
        self.formula.setObjectName("chainRuleFormula")
        self.formula.setWordWrap(True)
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        lay.addWidget(self.formula)
        self.hide()

    def _style(self) -> None:
        self.title.setFont(_text_font(False))
        self.formula.setFont(_text_font(True))
        self.setStyleSheet(
            f"#chainRuleCard {{ background: {theme.CARD}; border: 2px solid {ACCENT}; border-radius: 8px; }}"
            f" QLabel {{ color: {theme.CARD_TEXT}; }}"
        )

    def width_for(self) -> int:
        """The card's width: the view's, less the margins."""
        return max(200, self.parentWidget().viewport().width() - 2 * MARGIN)

    def height_for(self, title: str, formula: str, width: int | None = None) -> int:
        """How tall the card is with this text at its width."""
        self._style()
        width = width or self.width_for()
        m = self.layout().contentsMargins()
        self.title.setText(title)
        self.formula.setText(_pack(formula, self.formula.font(), width - m.left() - m.right() - 6))
        self.setFixedWidth(width)
        return self.layout().totalHeightForWidth(width)

    def show_stage(self, title: str, formula: str, item=None) -> None:
        """Show the stage: in the band above the graph when the view keeps one, else in the top
        corner of the view that covers less of `item` (its node)."""
        view = self.parentWidget()
        vp = view.viewport()
        h = self.height_for(title, formula)
        self.setFixedHeight(h)
        top = int(view._caption_height()) if view.top_room else MARGIN
        x = MARGIN
        if not view.top_room:
            self.setFixedHeight(self.height_for(title, formula, min(self.width_for(), max(300, int(vp.width() * 0.6)))))
            node = view.mapFromScene(item.sceneBoundingRect()).boundingRect() if item is not None else None

            def covered(x: int) -> int:
                if node is None:
                    return 0
                r = QRectF(x, top, self.width(), self.height()).intersected(QRectF(node))
                return int(r.width() * r.height()) if r.isValid() else 0

            x = min((MARGIN, max(MARGIN, vp.width() - self.width() - MARGIN)), key=covered)
        self.move(vp.mapTo(view, QPoint(x, top)))
        self.show()
        self.raise_()


class EdgeLabel(QGraphicsObject):
    """An edge's local derivative, at its middle, in viewport pixels (the zoom leaves it alone)."""

    def __init__(self, text: str, cut: bool):
        super().__init__()
        self.text, self.cut = text, cut
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(5)
        self.setObjectName("edgeDerivative")
        self.font = theme.font(EDGE_LABEL_PT, bold=True)
        fm = QFontMetricsF(self.font)
        w, h = fm.horizontalAdvance(text) + 16, fm.height() + 8
        self._rect = QRectF(-w / 2, -h / 2, w, h)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(QColor(theme.ERROR_COLOR if self.cut else ACCENT), 2))
        p.setBrush(QBrush(QColor(theme.CARD)))
        p.drawRoundedRect(self._rect, 6, 6)
        p.setPen(QColor(theme.ERROR_COLOR if self.cut else theme.GRAD_COLOR))
        p.setFont(self.font)
        p.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


class ElementMark(QGraphicsItem):
    """A frame around the chosen element's cell in a matrix node's two heat maps."""

    def __init__(self, node, flat: int):
        super().__init__(node)
        rows, cols = node.shape_
        r, c = divmod(flat, cols)
        self.rects = []
        for i in (0, 1):
            h = node.heat_rect(i)
            cw, ch = h.width() / cols, h.height() / rows
            self.rects.append(QRectF(h.left() + c * cw, h.top() + r * ch, cw, ch).adjusted(-1.5, -1.5, 1.5, 1.5))
        self.setZValue(3)

    def boundingRect(self) -> QRectF:
        r = self.rects[0].united(self.rects[1])
        return r.adjusted(-3, -3, 3, 3)

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setPen(QPen(QColor(ACCENT), 2.5))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for r in self.rects:
            p.drawRect(r)


class BackpropSteps(QObject):
    """The three actions, added to the Run menu; the stages taken when B turns stepping on.
    `host`: the widget the actions' keys work in; the numbers come from `scene`'s nodes;
    `bottom_docks()`: the docks put away while stepping (the plots)."""

    def __init__(self, host, scene, graph_view, document, run_menu, status, bottom_docks):
        super().__init__(host)
        self.host, self.scene, self.view, self.document, self.status = host, scene, graph_view, document, status
        self.bottom_docks = bottom_docks
        self.stages: list = []
        self.index = -1
        self.element: dict[str, int] = {}  # the element chosen of each node (flat index); 0 elsewhere
        self._snapshot: tuple | None = None  # (values, grads) the stages were taken from
        self._marks: list = []  # the scene items drawn for the current stage
        self._docks: list[tuple[QDockWidget, bool]] = []  # the bottom docks put away while stepping, and which showed
        self.card = ChainRuleCard(graph_view)
        self.action = self._action(
            QCoreApplication.translate("Backprop", "Step through &backprop"), BACKPROP_KEY, "backpropAction", None
        )
        self.action.setCheckable(True)
        self.action.toggled.connect(self.set_on)
        self.nextAction = self._action(
            QCoreApplication.translate("Backprop", "Backprop: next stage"), NEXT_KEY, "backpropNext", self.next
        )
        self.previousAction = self._action(
            QCoreApplication.translate("Backprop", "Backprop: previous stage"),
            PREVIOUS_KEY,
            "backpropPrevious",
            self.previous,
        )
        menu = run_menu
        menu.addSeparator()
        for a in (self.action, self.nextAction, self.previousAction):
            menu.addAction(a)
        scene.installEventFilter(self)  # a click on a heat map's cell chooses the element
        graph_view.installEventFilter(self)  # resized: the card and its band follow
        scene.rebuilt.connect(self._rebuilt)
        document.graphChanged.connect(self._graph_changed)
        document.optionsChanged.connect(self._graph_changed)
        self._enable()

    def _action(self, text: str, key: str, name: str, fn) -> QAction:
        return window_action(self.host, text, key, name, fn)

    def _enable(self) -> None:
        on = bool(self.stages)
        self.nextAction.setEnabled(on)
        self.previousAction.setEnabled(on)

    def set_on(self, on: bool) -> None:
        """Take the stages from the numbers on the nodes (the status bar says why not), or stop."""
        self.stages, self.index, self._snapshot = [], -1, None
        if on:
            self.element = {}
            try:
                self._snapshot = self._numbers()
                self.stages = self._stages()
            except BackpropError as e:
                self.status.showMessage(tr_msg(e.args[0]), 10000)
        if on and not self.stages:
            if not self.status.currentMessage():
                self.status.showMessage(
                    QCoreApplication.translate("Backprop", "Train a step first: backprop needs the nodes' numbers"),
                    10000,
                )
            self.action.blockSignals(True)
            self.action.setChecked(False)
            self.action.blockSignals(False)
        self._enable()
        self._make_room(bool(self.stages))
        self._reserve()
        self._show(0 if self.stages else -1)

    def _make_room(self, on: bool) -> None:
        """While stepping the bottom docks (the plots) are put away, for the graph and the card;
        stopping puts them back, with the tab that showed."""
        if on and not self._docks:
            docks = self.bottom_docks()
            self._docks = [(d, d.isVisible()) for d in docks if d.toggleViewAction().isChecked()]
            for d, _ in self._docks:
                d.hide()
        elif not on and self._docks:
            for d, _ in self._docks:
                d.show()
            for d, shown in self._docks:
                if shown:
                    d.raise_()
            self._docks = []

    def _numbers(self) -> tuple[dict, dict] | None:
        """The values and gradients on the nodes (the engine's last snapshot), or None."""
        items = self.scene.items_by_name
        doc = self.document
        names = [n.name for n in doc.graph.nodes if n.kind != "Output"]
        if not names or any(items.get(n) is None or items[n].value is None or items[n].grad is None for n in names):
            return None
        return {n: np.asarray(items[n].value) for n in names}, {n: np.asarray(items[n].grad) for n in names}

    def _stages(self) -> list:
        if self._snapshot is None:
            return []
        doc = self.document
        return stages(doc.graph, doc.options, *self._snapshot, dict(self.element))

    def choose(self, node: str, flat: int) -> None:
        """Follow element `flat` of `node`, and the same element of every node of its shape; the
        stage shown stays."""
        if not self.stages or self._snapshot is None:
            return
        values = self._snapshot[0]
        shape = np.shape(values.get(node))
        for name, v in values.items():
            if name == node or (np.shape(v) == shape and shape != ()):
                self.element[name] = int(flat)
        try:
            self.stages = self._stages()
        except BackpropError as e:
            self.status.showMessage(tr_msg(e.args[0]), 10000)
            return
        self._reserve()
        self._show(self.index)

    def next(self) -> None:
        if self.stages:
            self._show(min(self.index + 1, len(self.stages) - 1))

    def previous(self) -> None:
        if self.stages:
            self._show(max(self.index - 1, 0))

    # -- what is drawn -------------------------------------------------------------------------
    def _texts(self, index: int) -> tuple[str, str]:
        st = self.stages[index]
        phase = (
            QCoreApplication.translate("Backprop", "forward")
            if st.phase == "forward"
            else QCoreApplication.translate("Backprop", "backward")
        )
        title = f"{index + 1}/{len(self.stages)}  {phase}: {st.node}"
        lines = [tr_msg(st.formula) if st.phase == "backward" else f"{st.formula} → {fmt_number(st.result)}"]
        lines += [f"✂ {t.via}: {tr_msg(t.note)}" for t in st.terms if t.cut]
        return title, "\n".join(lines)

    def _reserve(self) -> None:
        """Keep a band above the graph as tall as the tallest stage's card (the graph then does
        not move from stage to stage); none when off or when the view was zoomed by hand."""
        view = self.view
        if not self.stages or not view.auto_fit:
            view.set_top_room(0.0)
            return
        tallest = max(self.card.height_for(*self._texts(i)) for i in range(len(self.stages)))
        view.set_top_room(float(tallest + MARGIN))

    def _clear_marks(self) -> None:
        scene = self.scene
        for m in self._marks:
            if m.scene() is not None:
                scene.removeItem(m)
        self._marks = []

    def _show(self, index: int) -> None:
        self.index = index
        view = self.view
        self._clear_marks()
        if index < 0:
            view.set_backprop_stage("")
            self.card.hide()
            return
        st = self.stages[index]
        view.set_backprop_stage(st.key)
        scene = self.scene
        scene.clearSelection()
        item = scene.items_by_name.get(st.node)
        if item is not None:
            item.setSelected(True)  # the current node, highlighted as the selection is
            if item._matrix() and not item.compact() and np.ndim(st.value) == 2:
                self._marks.append(ElementMark(item, int(np.ravel_multi_index(st.element, np.shape(st.value)))))
        if st.phase == "backward":
            self._label_edges(st)
        self.card.show_stage(*self._texts(index), item)

    def _label_edges(self, st) -> None:
        """Each edge from the current node to what consumes it: its local derivative, and the
        number at the chosen element where one element of the consumer is fed."""
        scene = self.scene
        for t in st.terms:
            for e in scene.edges:
                if e.src.name != st.node or e.dst.name != t.via or (t.port and e.port != t.port):
                    continue
                text = t.text(tr_msg(t.formula))
                if t.cut:
                    text = f"✂ {text}" if t.port else "✂ " + QCoreApplication.translate("Backprop", "not part of L")
                elif len(t.pairs) == 1 and not text.rstrip().endswith(f"= {_plain(t.pairs[0][2])}"):
                    text += f"  ({_plain(t.pairs[0][2])})"
                label = EdgeLabel(text, t.cut)
                scene.addItem(label)
                label.setPos(self._free_spot(e, label))
                self._marks.append(label)

    def _free_spot(self, edge, label) -> QPointF:
        """Where on (or beside) the edge the label covers the least of the nodes and of the
        labels already placed: the middle where that is free."""
        zoom = max(self.view.zoom, 1e-3)
        r = label.boundingRect()
        size = (r.width() / zoom, r.height() / zoom)
        taken = [i.sceneBoundingRect() for i in self.scene.items_by_name.values()]
        taken += [m.sceneBoundingRect() for m in self._marks if isinstance(m, EdgeLabel)]

        def cost(c: QPointF) -> float:
            box = QRectF(c.x() - size[0] / 2, c.y() - size[1] / 2, *size)
            area = 0.0
            for t in taken:
                x = box.intersected(t)
                if x.isValid():
                    area += x.width() * x.height()
            return area

        view = self.view
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        top = view.mapToScene(QPoint(0, int(view._caption_height() + view.top_room))).y()
        path = edge.path()
        spots = []
        for f in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8):
            p = path.pointAtPercent(f)
            for dy in (0, -size[1] * 0.6, size[1] * 0.6):
                # inside the view, below the card's band
                x = min(max(p.x(), shown.left() + size[0] / 2 + 2), shown.right() - size[0] / 2 - 2)
                y = min(max(p.y() + dy, top + size[1] / 2 + 2), shown.bottom() - size[1] / 2 - 2)
                spots.append(QPointF(x, y))
        return min(spots, key=lambda c: (cost(c), spots.index(c)))

    # -- events --------------------------------------------------------------------------------
    def eventFilter(self, obj, event) -> bool:
        if obj is self.view and event.type() == QEvent.Type.Resize and self.stages:
            QTimer.singleShot(0, self, self._refresh)  # after the view has refitted to its new size
            return False
        if (
            self.stages
            and event.type() == QEvent.Type.GraphicsSceneMousePress
            and event.button() == Qt.MouseButton.LeftButton
        ):
            for it in self.scene.items(event.scenePos()):
                if hasattr(it, "element_at"):
                    flat = it.element_at(it.mapFromScene(event.scenePos()))
                    if flat is not None:
                        self.choose(it.name, flat)
                        return True  # chosen, not selected or dragged
                    break
        return False

    def _rebuilt(self) -> None:
        """The scene made its items anew (presentation mode, a theme): the stage drawn again."""
        self._marks = []  # the scene deleted them
        self._refresh()

    def _refresh(self) -> None:
        if self.stages and self.index >= 0:
            self._reserve()
            self._show(self.index)

    def _graph_changed(self, *_args) -> None:
        """An edit or a new option: the numbers stepped through are another graph's; stop."""
        if self.action.isChecked():
            self.action.setChecked(False)


def _pack(text: str, font, width: float) -> str:
    """The formula broken into lines of `width` px between its terms, never inside one: each
    new line starts with the "=" or "+" it follows."""
    fm = QFontMetricsF(font)
    out = []
    for line in text.split("\n"):
        tokens = []
        for i, part in enumerate(line.split(" = ")):
            for j, bit in enumerate(part.split(" + ")):
                tokens.append((("= " if i else "") if j == 0 else "+ ") + bit)
        cur = tokens[0]
        for tok in tokens[1:]:
            if fm.horizontalAdvance(cur + " " + tok) <= width:
                cur += " " + tok
            else:
                out.append(cur)
                cur = tok
        out.append(cur)
    return "\n".join(out)


def _plain(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e6 else fmt_number(x)
