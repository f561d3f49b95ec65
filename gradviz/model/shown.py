"""What the nodes show: the run's live nodes or a past step, which step, and how many updates
the parameters on the nodes have had.

One Qt-free model with plain callbacks. Its writers are the window (the live nodes as they
arrive, or nothing when there is no run) and time travel (a past step, the history's last step
by default, the engine's answer for it, back to live); its observers are the graph view (the
numbers and heat maps on the nodes), the graph's caption and time travel's own views. While a
past step is shown, live nodes that arrive are not shown: the model, not a flag in each writer,
decides.

It also says which step every label names (named_step, model.steps): paused or finished the plots'
last step; while training the step the live nodes show. Live nodes arrive throttled, after some
step n's update, usually in the same moment as step n itself; they are held until the history has
step n+1 (run_moved), so the nodes, the caption, the status bar, the heat maps and the History label
all name step n+1, whose loss and parameters the history holds.

Steps and updates as in model.steps: step k is computed at the parameters after k - 1 updates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..i18n import Msg
from .steps import nodes_caption, state_at

_COMPUTING = Msg("TimeTravel", "Nodes: {state}, from the history slider (computing…)")
_FROM_SLIDER = Msg("TimeTravel", "Nodes: {state}, from the history slider")
_PROBLEMS = Msg("MainWindow", "Nodes: fix the problems to see values")
_SAVED_RUN = Msg("MainWindow", "Nodes: not computed for a saved run (press Reset to train it again)")
_NOT_YET = Msg("MainWindow", "Nodes: values not computed yet")


@dataclass(frozen=True)
class NodeData:
    """The numbers on the nodes: each node's value and gradient (and a gradient's parts), at the
    parameters after `updates` updates."""

    values: dict
    grads: dict
    parts: dict | None
    updates: int


class ShownNodes:
    """What the nodes show (see the module's docstring). `data` is what they show now (None:
    nothing computed); `step` the past step shown (None: the live nodes)."""

    def __init__(self) -> None:
        self.step: int | None = None
        self.at_last = False  # the step shown is the run's last, shown by default (not from the slider)
        self.past: NodeData | None = None  # the past step's numbers, once the engine sent them
        self.data: NodeData | None = None
        self.updates = -1  # how many updates the parameters on the nodes have had (-1: none shown)
        self.last_step = 0  # the history's last step (the plots'), as run_moved last said
        self.training = False  # whether the run trains, as run_moved last said
        self.held: NodeData | None = None  # live nodes whose step the history does not have yet
        self._observers: list[Callable[[ShownNodes], None]] = []

    def observe(self, fn: Callable[[ShownNodes], None]) -> None:
        """Call `fn(self)` after every change, in the order observers were added."""
        self._observers.append(fn)

    def _changed(self) -> None:
        for fn in self._observers:
            fn(self)

    @property
    def live(self) -> bool:
        return self.step is None

    @property
    def step_shown(self) -> int:
        """The step the nodes show: the past one, or the live nodes' (0: none)."""
        if self.step is not None:
            return self.step
        return self.updates + 1 if self.updates >= 0 else 0

    @property
    def named_step(self) -> int:
        """The step the status bar, the heat maps and the History label name (model.steps): while
        training, the step of the live nodes shown where the history has it; else (and before the
        first live nodes) the plots' last step. 0: no steps yet."""
        k = self.updates + 1
        if self.training and self.step is None and self.data is not None and 0 < k <= self.last_step:
            return k
        return self.last_step

    def _too_new(self, nodes: NodeData) -> bool:
        """While training: live nodes whose step (updates + 1) the history does not have yet."""
        return self.training and nodes.updates >= self.last_step

    # -- the writers -------------------------------------------------------------------------
    def run_moved(self, last_step: int, training: bool) -> None:
        """The history's last step now, and whether the run trains (the window says so on every
        tick and change of state, before anything reads named_step): while training, held live
        nodes are shown once the history has their step."""
        self.last_step, self.training = last_step, training
        if training:
            self._show_held()

    def stopped(self) -> None:
        """Training stopped (the window says so after time travel chose what to show): held live
        nodes are shown unless a past step is (the plots' last step, by default), so the nodes
        go from the last step's numbers to that step's again without the live ones between."""
        if not self.training:
            self._show_held()

    def _show_held(self) -> None:
        held = self.held
        if held is not None and not self._too_new(held):
            self.held = None
            if self.step is None:
                self.data, self.updates = held, held.updates
                self._changed()

    def live_arrived(self, nodes: NodeData) -> bool:
        """New live nodes: shown unless a past step is, or (held) while their step is not in the
        history yet; True if they are shown now."""
        if self.step is not None:
            return False
        if self._too_new(nodes):
            self.held = nodes
            return False
        self.held = None
        self.data, self.updates = nodes, nodes.updates
        self._changed()
        return True

    def clear(self) -> None:
        """Nothing on the nodes (a new run, or a graph with problems); the step shown stays."""
        self.data, self.updates, self.held = None, -1, None
        self._changed()

    def show_past(self, step: int, at_last: bool = False) -> None:
        """Show `step` (the engine is asked for its numbers: past_arrived); the nodes keep the
        numbers they have until they come."""
        self.step, self.past, self.at_last, self.held = step, None, at_last, None
        self.updates = step - 1
        self._changed()

    def show_live(self, nodes: NodeData | None) -> None:
        """Back to the live nodes (`nodes`: the latest, None where there are none). Training on from
        the plots' last step shown, those numbers stay until the history has the live nodes' step."""
        self.step, self.past, self.at_last = None, None, False
        keep = self.data is not None and self.updates + 1 == self.last_step
        if nodes is not None and keep and self._too_new(nodes):
            self.held = nodes
        else:
            self.held = None
            self.data, self.updates = nodes, nodes.updates if nodes is not None else -1
        self._changed()

    def past_arrived(self, step: int, nodes: NodeData) -> bool:
        """The engine's numbers for a past step; ignored (False) where another step is shown now."""
        if step != self.step:
            return False
        self.past = self.data = nodes
        self.updates = nodes.updates
        self._changed()
        return True

    def forget_past(self) -> None:
        """The run went back (Continue from here): the live nodes are shown from the next that
        arrive; until then the nodes keep what they show."""
        self.step, self.past, self.at_last = None, None, False
        self._changed()

    # -- what the caption says -----------------------------------------------------------------
    def past_caption(self) -> Msg | None:
        """The caption's first line for the past step shown (None for the live nodes)."""
        if self.step is None:
            return None
        if self.at_last:
            return nodes_caption(self.step - 1, self.step)
        return (_COMPUTING if self.past is None else _FROM_SLIDER).format(state=state_at(self.step))

    def caption(self, problems: bool, recorded: bool, live: int | None, last_step: int) -> Msg:
        """The caption's first line: what the numbers on the nodes are. `live`: the updates of the
        live nodes shown (None: none yet); `last_step`: the plots' last step; `recorded`: a run
        read from a file. While training, named as named_step names them."""
        if problems:
            return _PROBLEMS
        past = self.past_caption()
        if past is not None:
            return past
        if recorded:
            return _SAVED_RUN
        if live is None:
            return _NOT_YET
        return nodes_caption(live, last_step, self.training)
