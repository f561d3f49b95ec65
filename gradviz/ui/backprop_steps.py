"""Run > Step through backprop (B): the stages of model/backprop.py on the nodes the window
shows (the engine's last snapshot), → and ← to move, the current node selected and its chain rule
in numbers in a card over the graph (`chainRuleCard`, digits at least SPOT_DIGIT_PX tall)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QCoreApplication, QPoint, QRect, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout

from .language import tr_msg
from ..model.backprop import BackpropError, stages
from . import theme
from .shortcuts import window_action
from .spotlight import MARGIN, SpotlightCard

BACKPROP_KEY, NEXT_KEY, PREVIOUS_KEY = "B", "Right", "Left"


class ChainRuleCard(QFrame):
    """The current stage: its title and its formula with the numbers, large, top left of the view."""

    def __init__(self, view):
        super().__init__(view)
        self.setObjectName("chainRuleCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 8, 12, 10)
        self.title, self.formula = QLabel(), QLabel()
        self.title.setObjectName("chainRuleTitle")
        self.formula.setObjectName("chainRuleFormula")
        self.formula.setWordWrap(True)
        lay.addWidget(self.title)
        lay.addWidget(self.formula)
        self.hide()

    def show_stage(self, title: str, formula: str, item=None) -> None:
        """Show the stage, in the top corner of the view that covers less of `item` (its node)."""
        self.title.setFont(theme.font(12, bold=True))
        self.title.setText(title)
        self.formula.setFont(SpotlightCard.number_font(self))  # the spotlight's 28 px digits
        self.formula.setText(formula)
        self.setStyleSheet(
            f"#chainRuleCard {{ background: {theme.CARD}; border: 2px solid #f59e0b; border-radius: 8px; }}"
        )
        vp = self.parentWidget().viewport()
        self.formula.setMaximumWidth(max(200, vp.width() - 4 * MARGIN))
        self.adjustSize()
        view = self.parentWidget()
        node = view.mapFromScene(item.sceneBoundingRect()).boundingRect() if item is not None else QRect()

        def covered(x: int) -> int:
            r = QRect(QPoint(x, MARGIN), self.size()).intersected(node)
            return r.width() * r.height() if r.isValid() else 0

        x = min((MARGIN, max(MARGIN, vp.width() - self.width() - MARGIN)), key=covered)
        self.move(vp.mapTo(view, QPoint(x, MARGIN)))
        self.show()
        self.raise_()


class BackpropSteps:
    """The three actions, added to the Run menu; the stages taken when B turns stepping on.
    `host`: the widget the actions' keys work in; the numbers come from `scene`'s nodes."""

    def __init__(self, host, scene, graph_view, document, run_menu, status):
        self.host, self.scene, self.view, self.document, self.status = host, scene, graph_view, document, status
        self.stages: list = []
        self.index = -1
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
        self._enable()

    def _action(self, text: str, key: str, name: str, fn) -> QAction:
        return window_action(self.host, text, key, name, fn)

    def _enable(self) -> None:
        on = bool(self.stages)
        self.nextAction.setEnabled(on)
        self.previousAction.setEnabled(on)

    def set_on(self, on: bool) -> None:
        """Take the stages from the numbers on the nodes (the status bar says why not), or stop."""
        self.stages, self.index = [], -1
        if on:
            try:
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
        self._show(0 if self.stages else -1)

    def _stages(self) -> list:
        items = self.scene.items_by_name
        values = {n: i.value for n, i in items.items() if i.value is not None}
        grads = {n: i.grad for n, i in items.items() if i.grad is not None}
        doc = self.document
        names = [n.name for n in doc.graph.nodes if n.kind != "Output"]
        if not names or any(n not in values or n not in grads for n in names):
            return []
        values = {n: np.asarray(values[n]) for n in names}
        grads = {n: np.asarray(grads[n]) for n in names}
        return stages(doc.graph, doc.options, values, grads, 0)

    def next(self) -> None:
        if self.stages:
            self._show(min(self.index + 1, len(self.stages) - 1))

    def previous(self) -> None:
        if self.stages:
            self._show(max(self.index - 1, 0))

    def _show(self, index: int) -> None:
        self.index = index
        view = self.view
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
        phase = (
            QCoreApplication.translate("Backprop", "forward")
            if st.phase == "forward"
            else QCoreApplication.translate("Backprop", "backward")
        )
        title = f"{index + 1}/{len(self.stages)}  {phase}: {st.node}"
        lines = [st.formula if st.phase == "backward" else f"{st.formula} → {st.result:.4g}"]
        lines += [f"{t.via}: {tr_msg(t.note)}" for t in st.terms if t.cut]
        self.card.show_stage(title, "\n".join(lines), item)
