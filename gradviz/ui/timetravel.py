"""Time travel and the divergence coach: look back through a run, continue from any step, and
recover a diverged run with one click.

A history slider (its value is the step shown) puts a cursor on every plot and shows that step on
the nodes (the engine evaluates the graph at the parameters the history holds for it: SnapshotAt),
on the heat maps and in the inspector's update table. "Continue from here" rewinds the engine to
the state before that step (model.steps: step - 1 updates) with the options now set, and trains
on; the future it abandons stays on the loss plot as a faint curve until the next reset.

Paused or finished, the nodes show the plots' last step by default (its loss, at its parameters
before its update), as the status bar, the heat maps and the History label do: where that step's
update was kept, the live nodes are one step further, so the last step is asked for like a past one.

When a run diverges the coach says what went bad first and since when the steps were too large
(model.divergence, read from the history), the nodes keep the last finite step, and one click
rewinds N steps before the divergence with the learning rate times a factor."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSlider,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..model.divergence import RATIO_LIMIT, coach_text, first_non_finite, last_finite_step, rescue, update_table
from ..model.ending import EndReason
from ..model.formatting import fmt_number, fmt_tensor
from ..model.runstate import Control, Permissions, Phase
from ..model.session import MIN_LR, Options
from ..model.shown import NodeData, ShownNodes
from ..model.steps import state_at
from ..i18n import QT_TRANSLATE_NOOP
from . import theme
from .language import tr_msg
from .live_label import LiveLabel
from .fields import ComboBox, DoubleSpinBox, SpinBox
from .parts import Feedback

TABLE_ROWS = 8  # steps in the update table: the step shown and those before it
VIEW_SECONDS = 0.25  # while training, the update table follows the run a few times a second
SLIDER_TIP = QT_TRANSLATE_NOOP(
    "TimeTravel", "Drag back through the run: the plots, the nodes and the inspector show that step"
)
CONTINUE_TIP = QT_TRANSLATE_NOOP(
    "TimeTravel",
    "Go back to the state before the step shown and train on from there with the options now set "
    "(change the learning rate first to try another)",
)


class FactorSpin(DoubleSpinBox):
    """The coach's factor, written as short as it is (0.1, 0.0005): the default can be tiny."""

    def textFromValue(self, value: float) -> str:  # noqa: N802 (Qt's name)
        return f"{value:g}"


class TimeTravelBar(QWidget):
    """The slider, the step it shows, Continue from here; and the coach when a run diverged."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        row = QHBoxLayout()
        title = QLabel(self.tr("History"))
        title.setFont(theme.font(11, bold=True))
        row.addWidget(title)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("historySlider")
        self.slider.setRange(0, 0)
        row.addWidget(self.slider, 1)
        self.stepShown = LiveLabel("", least_text="step 100,000 of 100,000")  # 30 texts a second
        self.stepShown.setObjectName("historyStepLabel")
        self.stepShown.setFont(theme.font(11, mono=True))
        row.addWidget(self.stepShown)
        self.continueButton = QPushButton(self.tr("Continue from here"))
        self.continueButton.setObjectName("continueButton")
        row.addWidget(self.continueButton)
        lay.addLayout(row)
        self.coachBox = QFrame()
        self.coachBox.setObjectName("coachBox")
        self.coachBox.setStyleSheet("QFrame#coachBox { background: #fef3c7; border: 1px solid #f59e0b; }")
        outer = QVBoxLayout(self.coachBox)
        outer.setContentsMargins(6, 4, 6, 4)
        outer.setSpacing(2)
        cl = QHBoxLayout()
        self.coachLabel = QLabel("")
        self.coachLabel.setObjectName("coachLabel")
        self.coachLabel.setWordWrap(True)
        self.coachLabel.setTextFormat(Qt.TextFormat.PlainText)
        self.coachLabel.setFont(theme.font(11))
        outer.addWidget(self.coachLabel)
        outer.addLayout(cl)
        self.coachSteps = SpinBox()
        self.coachSteps.setObjectName("coachStepsSpin")
        self.coachSteps.setRange(1, 1_000_000)
        self.coachSteps.setValue(10)
        self.coachSteps.setToolTip(self.tr("How many steps before the first non-finite one to go back"))
        self.coachFactor = FactorSpin()
        self.coachFactor.setObjectName("coachFactorSpin")
        self.coachFactor.setDecimals(6)
        self.coachFactor.setRange(0.000001, 0.999)
        self.coachFactor.setSingleStep(0.05)
        self.coachFactor.setValue(0.1)
        self.coachFactor.setPrefix("× ")
        self.coachFactor.setToolTip(self.tr("The learning rate is multiplied by this"))
        self.coachButton = QPushButton("")
        self.coachButton.setObjectName("coachButton")
        self.coachSteps.setMaximumWidth(90)
        self.coachFactor.setMaximumWidth(90)
        cl.addStretch(1)
        for w in (
            QLabel(self.tr("Go back")),
            self.coachSteps,
            QLabel(self.tr("steps, learning rate")),
            self.coachFactor,
            self.coachButton,
        ):
            cl.addWidget(w)
        self.coachBox.setVisible(False)
        lay.addWidget(self.coachBox)


class UpdateView(QWidget):
    """In the inspector: the selected node at the step shown, and for a trained parameter its
    update per step (value, gradient, -lr x gradient, update-to-value ratio)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 6, 0, 0)
        self.title = QLabel("")
        self.title.setObjectName("stepTitle")
        self.title.setFont(theme.font(11, bold=True))
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.values = QLabel("")
        self.values.setObjectName("stepValues")
        self.values.setTextFormat(Qt.TextFormat.PlainText)
        self.values.setFont(theme.font(10, mono=True))
        self.values.setWordWrap(True)
        lay.addWidget(self.values)
        self.element = ComboBox()
        self.element.setObjectName("updateElementCombo")
        self.element.setToolTip(self.tr("One element (signed values), or the whole tensor (norms)"))
        lay.addWidget(self.element)
        self.table = QTableWidget(0, 5)
        self.table.setObjectName("updateTable")
        self.table.setFont(theme.font(9, mono=True))
        self.table.verticalHeader().setVisible(False)
        # every number in full (a narrow dock scrolls sideways rather than cut them)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setToolTip(self.tr("g = ∂L/∂p at that step; ratio = |lr·g| / |p| (norms for the whole tensor)"))
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setMinimumHeight(120)
        lay.addWidget(self.table)


class TimeTravel(QObject):
    """Wires the bar, the update view, the plots and the controller; writes what the nodes show
    (model.shown: a past step, or the live nodes again), which the graph view and the caption
    observe. The window connects a node's selection to node_selected and a step to show_step(None)."""

    def __init__(
        self,
        controller,
        shown: ShownNodes,
        plots,
        options: Callable[[], Options],
        permissions: Callable[[], Permissions],
        feedback: Feedback,
        set_lr: Callable[[float], None],
        parent=None,
    ):
        super().__init__(parent)
        self.c = controller
        self.nodes_shown = shown
        self.plots = plots
        self._options, self._permissions, self.feedback, self._set_lr = options, permissions, feedback, set_lr
        self.bar = TimeTravelBar()
        self.view = UpdateView()
        self.node = ""
        self._setting = False
        self._view_time = 0.0
        self.bar.slider.valueChanged.connect(self._slider_moved)
        self.bar.continueButton.clicked.connect(self.continue_here)
        self.bar.coachButton.clicked.connect(self.recover)
        self.bar.coachSteps.valueChanged.connect(self._coach_button_text)
        self.bar.coachFactor.valueChanged.connect(self._coach_button_text)
        self.view.element.currentIndexChanged.connect(lambda _i: self._update_view())
        c = self.c
        c.built.connect(self._on_built)
        c.ticked.connect(self._on_tick)
        c.stateChanged.connect(lambda _s: self._sync())
        c.pastNodes.connect(self._on_past_nodes)
        c.nodesChanged.connect(lambda _n: self._update_view())
        c.rewound.connect(self._on_rewound)
        c.ended.connect(self._on_ended)
        self._coach_button_text()
        self._sync()

    # -- state (model.shown holds it) ---------------------------------------------------------
    @property
    def shown(self) -> int | None:
        """The past step shown; None: the live nodes (the run's current state)."""
        return self.nodes_shown.step

    @property
    def at_last(self) -> bool:
        """The step shown is the plots' last, shown by default (not from the slider)."""
        return self.nodes_shown.at_last

    @property
    def past(self) -> NodeData | None:
        """The numbers of the past step shown, once the engine sent them."""
        return self.nodes_shown.past

    @property
    def shown_step(self) -> int:
        """The step the nodes show: the slider's, or the live nodes' (model.steps)."""
        return self.nodes_shown.step_shown

    def _live_value(self, s) -> int:
        """Where the slider stands with no step chosen: the step the labels name (model.shown:
        the plots' last, or while training the live nodes' step)."""
        return min(max(self.nodes_shown.named_step, s.minimum()), s.maximum())

    def _sync(self) -> None:
        """Slider range and permissions after new steps or a new state."""
        h, perms = self.c.history, self._permissions()
        n = h.n if h is not None else 0
        self._setting = True
        try:
            s = self.bar.slider
            s.setRange(int(h.steps[0]) if n else 0, int(h.steps[-1]) if n else 0)
            if self.shown is None or not perms.ok(Control.SCRUB):
                if self.shown is not None:
                    self._show(None)
                s.setValue(self._live_value(s))
            last = self._default_last()
            if (last is not None and (self.shown is None or self.at_last) and self.shown != last) or (
                last is None and self.at_last
            ):
                self._show(last, at_last=last is not None)
                s.setValue(s.maximum())
        finally:
            self._setting = False
        for widget, control, tip in (
            (self.bar.slider, Control.SCRUB, SLIDER_TIP),
            (self.bar.continueButton, Control.CONTINUE, CONTINUE_TIP),
        ):
            widget.setEnabled(perms.ok(control))
            widget.setToolTip(tr_msg(perms.why(control)) or self.tr(tip))
        self.bar.stepShown.setText(self._step_of(s) if n else self.tr("no steps yet"))
        self.bar.coachButton.setEnabled(perms.ok(Control.CONTINUE))
        # the coach belongs to the diverged run: shown in that state only (its text is the run's)
        self.bar.coachBox.setVisible(self.c.state == Phase.DIVERGED and bool(self.bar.coachLabel.text()))
        self._update_view()

    def settled(self) -> bool:
        """Whether the nodes show what the window shows in this state by default, with their
        numbers: a step shown (paused or finished the plots' last, diverged the last finite one)
        once the engine sent them, or else the run's latest live nodes (after the updates it kept).
        `gradviz screenshot` waits for this, so the picture is what the window comes to show."""
        c = self.c
        if self.shown is not None:
            return self.past is not None or not c.holds_params(self.shown)
        if self._default_last() is not None:
            return False  # the plots' last step is about to be shown (_sync)
        n = c.nodes
        return c.recorded or (n is not None and n.updates == c.updates and self.nodes_shown.held is None)

    def _default_last(self) -> int | None:
        """The plots' last step, where the nodes show it by default but the live nodes are past it
        (paused or finished with that step's update kept); None where the live nodes are it, or
        while training, for a saved run, or where the history cannot give a past step's nodes (a
        large tensor recorded as a summary: the live nodes then say what they are)."""
        c, h = self.c, self.c.history
        if c.state not in (Phase.PAUSED, Phase.FINISHED) or c.recorded or not c.past_values_known or not h.n:
            return None
        last = int(h.steps[-1])
        return last if c.updates == last else None

    def _on_tick(self) -> None:
        """New steps: the slider follows the run (cheap: this runs 30 times a second while
        training); the update table a few times a second."""
        h, s = self.c.history, self.bar.slider
        if self.shown is not None or h is None or not h.n or self._default_last() is not None:
            self._sync()
            return
        self._setting = True
        s.setRange(int(h.steps[0]), int(h.steps[-1]))
        s.setValue(self._live_value(s))
        self._setting = False
        self.bar.stepShown.setText(self._step_of(s))
        now = time.perf_counter()
        if self.node and now - self._view_time > VIEW_SECONDS:
            self._view_time = now
            self._update_view()

    def _step_of(self, s) -> str:
        return self.tr("step {step:,} of {last:,}").format(step=s.value(), last=s.maximum())

    def retranslate(self) -> None:
        """The texts made with values, in the new language (language.py re-sets the others)."""
        self._coach_button_text()
        if self.bar.coachBox.isVisible() and self.c.history is not None:
            self.bar.coachLabel.setText(tr_msg(coach_text(self.c.history)))
        self.node_selected(self.node)
        self._sync()

    def _on_built(self) -> None:
        self.nodes_shown.forget_past()
        self.plots.show_step(None)
        self.bar.coachLabel.setText("")  # a new run: nothing to coach about
        self._sync()

    def _slider_moved(self, value: int) -> None:
        if self._setting or not self._permissions().ok(Control.SCRUB):
            return
        self.show_step(value)

    def show_step(self, step: int | None) -> None:
        """Show `step` on the plots, nodes and inspector (None: back to the live nodes)."""
        self._show(step)
        if step is not None:
            self._setting = True
            self.bar.slider.setValue(step)
            self._setting = False
        self._sync()

    def _show(self, step: int | None, at_last: bool = False) -> None:
        self.plots.show_step(None if at_last else step)  # the last step needs no cursor
        if step is not None:
            self.nodes_shown.show_past(step, at_last)
            self.c.show_step(step)
        else:  # the live nodes (none for a saved run)
            self.nodes_shown.show_live(live_data(self.c.nodes))

    def _on_past_nodes(self, m) -> None:
        # an answer for a step no longer shown is dropped
        if self.nodes_shown.past_arrived(m.step, NodeData(m.values, m.grads, m.parts, m.step - 1)):
            self._update_view()

    # -- continuing -----------------------------------------------------------------------------
    def continue_here(self) -> None:
        """Rewind to the state before the step shown and train on with the options now set."""
        step = self.shown if self.shown is not None else self.bar.slider.value()
        if step >= 1 and self._permissions().ok(Control.CONTINUE):
            self.c.continue_from(step, self._options().lr)

    def _on_rewound(self, step: int) -> None:
        self.nodes_shown.forget_past()
        self.plots.set_branches(self.c.abandoned)
        self.plots.show_step(None)
        self.plots.refresh(force=True)
        self.bar.coachBox.setVisible(False)
        self.feedback.dismiss_error()
        self.feedback.status.showMessage(
            self.tr(
                "Went back to {state} with learning rate {lr}; the abandoned future is the faint curve on the loss plot"
            ).format(state=tr_msg(state_at(step)), lr=fmt_number(self._options().lr)),
            8000,
        )
        self._sync()

    # -- the divergence coach -----------------------------------------------------------------
    def _on_ended(self, reason: str, _step: int) -> None:
        if reason != EndReason.NON_FINITE or self.c.history is None:
            return
        h = self.c.history
        text = coach_text(h)
        if not text:
            return
        self.bar.coachLabel.setText(tr_msg(text))
        self.bar.coachBox.setVisible(True)
        default = rescue(h, self._options().lr)
        if default is not None:  # back to before the steps grew too large, with a rate that keeps them small
            self.bar.coachSteps.setValue(first_non_finite(h).step - default.step)
            self.bar.coachFactor.setValue(default.factor)
        self._coach_button_text()
        last = last_finite_step(h)
        if last is not None and self.c.holds_params(last):  # the nodes keep the last finite values
            self.show_step(last)
        # (where the history holds a large tensor's summary only, that step's numbers cannot be
        # asked for: the live nodes stay, and the caption says which step they are)

    def _coach_button_text(self, *_args) -> None:
        self.bar.coachButton.setText(
            self.tr("Rewind {steps} steps and lower the learning rate ×{factor:g}").format(
                steps=self.bar.coachSteps.value(), factor=self.bar.coachFactor.value()
            )
        )

    def recover_target(self) -> tuple[int, float] | None:
        """(step to continue from, new learning rate) for the coach's button."""
        h = self.c.history
        bad = first_non_finite(h) if h is not None else None
        if bad is None:
            return None
        step = max(int(h.steps[0]), bad.step - self.bar.coachSteps.value())
        lr = max(MIN_LR, self._options().lr * self.bar.coachFactor.value())
        return step, lr

    def recover(self) -> None:
        """Rewind N steps before the first non-finite one and lower the learning rate."""
        target = self.recover_target()
        if target is None or not self._permissions().ok(Control.CONTINUE):
            return
        step, lr = target
        self._set_lr(lr)  # the option, as if typed: the spin box shows it
        self.c.continue_from(step, self._options().lr)

    # -- the inspector's view -------------------------------------------------------------------
    def node_selected(self, name: str) -> None:
        self.node = name
        h = self.c.history
        v = self.view
        v.element.blockSignals(True)
        v.element.clear()
        if h is not None and name in h.grad_layout.names:
            i = h.grad_layout.names.index(name)
            size = h.grad_layout.sizes[i]
            if size > 1:
                v.element.addItem(self.tr("{name}: whole tensor (norms)").format(name=name), None)
            start = sum(h.grad_layout.sizes[:i])
            for k, label in enumerate(h.grad_layout.labels()[start : start + size]):
                v.element.addItem(label, k)
        v.element.blockSignals(False)
        self._update_view()

    def _update_view(self) -> None:
        v, h, name = self.view, self.c.history, self.node
        if not name:
            v.title.setText("")
            v.values.setText("")
        else:
            step = self.shown_step
            data = self.past if self.shown is not None else self.nodes_shown.data
            v.title.setText(
                self.tr("{name} at {state}").format(name=name, state=tr_msg(state_at(step))) if step else name
            )
            if data is not None and name in data.values:
                val, grad = np.asarray(data.values[name]), np.asarray(data.grads.get(name, np.nan))
                v.values.setText(self.tr("value {value}").format(value=_short(val)) + f"\n∂L/∂{name} {_short(grad)}")
            else:
                v.values.setText(self.tr("value: not computed yet"))
        trained = h is not None and name in h.grad_layout.names and h.n > 0
        v.element.setVisible(trained)
        v.table.setVisible(trained)
        if not trained:
            return
        i = h.index(self.shown) if self.shown is not None else None
        end = (h.n - 1 if i is None else i) + 1
        rows = slice(max(0, end - TABLE_ROWS), end)
        element = v.element.currentData()
        t = update_table(h, name, element, rows)
        whole = element is None
        heads = (
            [self.tr("step"), f"‖{name}‖", "‖g‖", "‖lr·g‖", self.tr("ratio")]
            if whole
            else [self.tr("step"), self.tr("value"), "g = ∂L/∂p", "−lr×g", self.tr("ratio")]
        )
        v.table.setHorizontalHeaderLabels(heads)
        n = len(t["step"])
        v.table.setRowCount(n)
        for r in range(n):
            k = n - 1 - r  # the step shown first
            values = [t["value"][k], t["grad"][k], t["update"][k], t["ratio"][k]]
            too_big = not t["ratio"][k] <= RATIO_LIMIT  # above the limit, or not finite
            for col, text in enumerate([f"{int(t['step'][k]):,}"] + [fmt_number(x, 3) for x in values]):
                item = QTableWidgetItem(text)
                if col:
                    item.setToolTip(repr(float(values[col - 1])))  # every digit, on hover
                if col == 4 and too_big:
                    item.setForeground(QColor(theme.ERROR_COLOR))
                v.table.setItem(r, col, item)


def live_data(nodes) -> NodeData | None:
    """The controller's live nodes (protocol.Nodes) as model.shown's NodeData."""
    return None if nodes is None else NodeData(nodes.values, nodes.grads, nodes.parts, nodes.updates)


def _short(a: np.ndarray) -> str:
    return fmt_tensor(a) if a.ndim else fmt_number(float(a))
