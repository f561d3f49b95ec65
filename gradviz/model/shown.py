"""What the nodes show: the run's live nodes or a past step, which step, and how many updates
the parameters on the nodes have had.

One Qt-free model with plain callbacks. Its writers are the window (the live nodes as they
arrive, or nothing when there is no run) and time travel (a past step, the history's last step
by default, the engine's answer for it, back to live); its observers are the graph view (the
numbers and heat maps on the nodes), the graph's caption and time travel's own views. While a
past step is shown, live nodes that arrive are not shown: the model, not a flag in each writer,
decides.

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

    # -- the writers -------------------------------------------------------------------------
    def live_arrived(self, nodes: NodeData) -> bool:
        """New live nodes: shown unless a past step is; True if they are."""
        if self.step is not None:
            return False
        self.data, self.updates = nodes, nodes.updates
        self._changed()
        return True

    def clear(self) -> None:
        """Nothing on the nodes (a new run, or a graph with problems); the step shown stays."""
        self.data, self.updates = None, -1
        self._changed()

    def show_past(self, step: int, at_last: bool = False) -> None:
        """Show `step` (the engine is asked for its numbers: past_arrived); the nodes keep the
        numbers they have until they come."""
        self.step, self.past, self.at_last = step, None, at_last
        self.updates = step - 1
        self._changed()

    def show_live(self, nodes: NodeData | None) -> None:
        """Back to the live nodes (`nodes`: the latest, None where there are none)."""
        self.step, self.past, self.at_last = None, None, False
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
        run's latest live nodes (None: none yet); `last_step`: the plots' last step; `recorded`: a
        run read from a file."""
        if problems:
            return _PROBLEMS
        past = self.past_caption()
        if past is not None:
            return past
        if recorded:
            return _SAVED_RUN
        if live is None:
            return _NOT_YET
        return nodes_caption(live, last_step)
