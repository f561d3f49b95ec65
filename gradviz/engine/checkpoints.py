"""Full training states, and where a run keeps them so that any step can be restored.

A state is everything the next step depends on: the parameters, the optimizer's own state
(momentum accumulators, Adam's moments and beta powers, the step counter) and the learning rate.
The engine keeps one every `interval` steps; restoring step k restores the last kept state at or
before k and replays the steps from there (MindSpore on the CPU is deterministic, so the replay
gives the same numbers), with the learning rate that was in force at each step. Qt-free and
MindSpore-free: states are numpy arrays."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

INTERVAL = 128  # updates between kept states in PyNative (a rewind replays at most 127 steps)
# ... in Graph mode, where reading the state between the compiled calls every 128 updates slows
# training noticeably; a rewind replays at most 1023 steps, still a fraction of a second
GRAPH_INTERVAL = 1024
BUDGET_SHARE = 4  # the kept states may take this fraction of the history budget (1 GB: 256 MB)
BUDGET_BYTES = (1 << 30) // BUDGET_SHARE  # kept states beyond this are thinned out (every other one dropped)


@dataclass
class TrainingState:
    """The state after `updates` updates: what step `updates + 1` starts from."""

    updates: int
    params: dict[str, np.ndarray]
    optimizer: dict[str, np.ndarray]  # the optimizer's own Parameters by their MindSpore names
    lr: float

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.params.values()) + sum(a.nbytes for a in self.optimizer.values())


@dataclass
class LrSchedule:
    """The learning rate in force at each step: (first step, lr) changes, in step order."""

    changes: list[tuple[int, float]] = field(default_factory=list)

    def set(self, step: int, lr: float) -> None:
        """From `step` on (1-based), the rate is `lr`; later changes are dropped."""
        self.changes = [c for c in self.changes if c[0] < step] + [(step, float(lr))]

    def at(self, step: int) -> float:
        i = bisect.bisect_right([c[0] for c in self.changes], step) - 1
        return self.changes[max(i, 0)][1]

    def truncate(self, step: int) -> None:
        """Forget changes after `step` (a rewound run's abandoned future)."""
        self.changes = [c for c in self.changes if c[0] <= step] or self.changes[:1]


class Checkpoints:
    """States kept every `interval` updates, thinned out to stay within a memory budget."""

    def __init__(self, interval: int = INTERVAL, budget: int = BUDGET_BYTES):
        self.interval, self.budget = interval, budget
        self._states: dict[int, TrainingState] = {}
        self._last: int | None = None  # the latest kept (due() runs before every step)

    def fit_history_budget(self, budget: int) -> None:
        """The run's memory budget (bytes, model/history.py) is `budget`: the kept states take
        their share of it (BUDGET_SHARE), thinned at the next keep if they hold more."""
        self.budget = int(budget) // BUDGET_SHARE

    def due(self, updates: int) -> bool:
        """Whether a state is to be kept now: none kept yet, or `interval` updates since the last
        (not only at multiples of it: a rewound run, or Graph-mode batches, can step over those)."""
        return self._last is None or updates - self._last >= self.interval

    def keep(self, state: TrainingState) -> None:
        self._states[state.updates] = state
        self._last = max(self._states)
        while len(self._states) > 2 and sum(s.nbytes for s in self._states.values()) > self.budget:
            self.interval *= 2  # thin out: keep the first, the last, and one per new interval
            keep, last = {}, None
            for k in sorted(self._states):
                if last is None or k - last >= self.interval or k == max(self._states):
                    keep[k], last = self._states[k], k
            self._states = keep

    def at_or_before(self, updates: int) -> TrainingState:
        k = max(k for k in self._states if k <= updates)
        return self._states[k]

    def drop_after(self, updates: int) -> None:
        self._states = {k: s for k, s in self._states.items() if k <= updates}
        self._last = max(self._states, default=None)

    def __len__(self) -> int:
        return len(self._states)

    @property
    def nbytes(self) -> int:
        """The memory the kept states hold."""
        return sum(s.nbytes for s in self._states.values())
