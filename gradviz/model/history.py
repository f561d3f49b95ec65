"""Training history in growable numpy buffers: what the plots draw and what
formats.records.write_history exports.

Appends come in batches; capacity doubles, so a million steps cost a few dozen copies. A
min/max pyramid (blocks of 16, 256, 4096 and 65536 steps), updated as steps arrive, lets a plot
of any zoom draw about two points per horizontal pixel instead of every step.

The history never holds more than its memory budget (DEFAULT_BUDGET, settable): its buffers are
capped at the rows the budget allows, and when they are full the old steps are thinned, every
second one dropped (`stride` doubles: the history then keeps the steps that are multiples of it,
and the latest step). The row itself stays small because large tensors arrive as summaries
(model/recording.py). Qt-free."""

from __future__ import annotations

import numpy as np

from .layout import Layout


LOD_FACTOR = 16
LOD_LEVELS = 4  # block sizes 16, 256, 4096, 65536
DEFAULT_BUDGET = 1 << 30  # bytes of history per run, whatever the graph
MIN_BUDGET_MB, MAX_BUDGET_MB = 16, 1 << 20  # what --history-budget and the app accept
MIN_ROWS = 64  # kept whatever the budget


class _Envelope:
    """Per-block min and max of a (n, cols) series, at several block sizes."""

    def __init__(self, cols: int, max_rows: int):
        self.cols, self.max_rows = cols, max_rows
        self.mins = [np.zeros((0, cols), np.float32) for _ in range(LOD_LEVELS)]
        self.maxs = [np.zeros((0, cols), np.float32) for _ in range(LOD_LEVELS)]

    @staticmethod
    def block(level: int) -> int:
        return LOD_FACTOR ** (level + 1)

    def update(self, data: np.ndarray, n_old: int, n_new: int) -> None:
        """Recompute the blocks touched by rows n_old..n_new (data holds rows 0..n_new)."""
        src_min, src_max, src_n, start = data, data, n_new, n_old
        for lv in range(LOD_LEVELS):
            nb = -(-src_n // LOD_FACTOR)
            first = start // LOD_FACTOR
            if len(self.mins[lv]) < nb:
                grow = max(nb, min(2 * len(self.mins[lv]), -(-self.max_rows // self.block(lv))))
                for arrs in (self.mins, self.maxs):
                    new = np.zeros((grow, self.cols), np.float32)
                    new[: len(arrs[lv])] = arrs[lv]
                    arrs[lv] = new
            lo = first * LOD_FACTOR
            with np.errstate(invalid="ignore"):
                idx = np.arange(lo, src_n, LOD_FACTOR)
                self.mins[lv][first:nb] = np.fmin.reduceat(src_min[lo:src_n], idx - lo, axis=0)
                self.maxs[lv][first:nb] = np.fmax.reduceat(src_max[lo:src_n], idx - lo, axis=0)
            src_min, src_max, src_n, start = self.mins[lv], self.maxs[lv], nb, first


class History:
    """Columns of one float32 table per step: loss, every parameter element (before that step's
    update), every gradient element, the global gradient norm; plus step numbers, aux, timing.
    (Of a summarised tensor, its recorded columns: the global norm then is over those.)"""

    def __init__(
        self,
        param_layout: Layout,
        grad_layout: Layout,
        aux_layout: Layout,
        capacity: int = 1024,
        budget: int = DEFAULT_BUDGET,
    ):
        self.param_layout, self.grad_layout, self.aux_layout = param_layout, grad_layout, aux_layout
        self.n = 0
        self.version = 0  # bumped on every change, so views redraw only when needed
        P, G = param_layout.total, grad_layout.total
        self._cols = {
            "loss": slice(0, 1),
            "params": slice(1, 1 + P),
            "grads": slice(1 + P, 1 + P + G),
            "norm": slice(1 + P + G, 2 + P + G),
        }
        self._width = 2 + P + G
        # the global gradient norm: of every element of a tensor recorded whole, and of a
        # summarised one its own norm (its first column, recording.STATS)
        self._norm_parts = None
        if grad_layout.summaries:
            cols, at = [], 0
            for n, k in zip(grad_layout.names, grad_layout.sizes):
                cols += [at] if n in grad_layout.summaries else range(at, at + k)
                at += k
            self._norm_parts = np.asarray(cols, np.int64)
        self.budget = int(budget)
        self.max_rows = max(MIN_ROWS, self.budget // self.row_bytes(self._width, aux_layout.total))
        self.stride = 1  # the history keeps the steps that are multiples of it (and the latest)
        self._env = _Envelope(self._width, self.max_rows)
        self.bad_steps: list[int] = []  # steps with a non-finite loss or gradient (first 100)
        self._alloc(min(capacity, self.max_rows))

    @staticmethod
    def row_bytes(width: int, aux: int) -> int:
        """The bytes one kept step costs: its row, its aux, step number, ms and lr, and its share of
        the min/max levels (with their growth slack)."""
        levels = sum(2 * width * 4 / _Envelope.block(lv) for lv in range(LOD_LEVELS))
        return int(width * 4 + aux * 4 + 8 + 4 + 4 + 2 * levels) + 1

    def _alloc(self, cap: int) -> None:
        self._step = np.zeros(cap, np.int64)
        self._table = np.zeros((cap, self._width), np.float32)
        self._aux = np.zeros((cap, self.aux_layout.total), np.float32)
        self._ms = np.zeros(cap, np.float32)
        self._lr = np.full(cap, np.nan, np.float32)

    @property
    def capacity(self) -> int:
        return len(self._step)

    def _grow(self, need: int) -> None:
        cap = self.capacity
        while cap < need:
            cap *= 2
        cap = min(cap, self.max_rows)
        old = (self._step, self._table, self._aux, self._ms, self._lr)
        self._alloc(cap)
        for dst, src in zip((self._step, self._table, self._aux, self._ms, self._lr), old):
            dst[: self.n] = src[: self.n]

    def append(self, steps, loss, params, grads, aux, step_ms, lr=None) -> None:
        """Append a batch: 1-D steps/loss/step_ms/lr and 2-D (batch, total) params/grads/aux.

        lr is the learning rate in force at each step (None where a file did not record it)."""
        if len(steps) == 0:
            return
        steps = np.asarray(steps)
        if self.stride > 1 or self.n + len(steps) > self.max_rows:
            keep = self._fit(steps)
            if not keep.all():
                steps, loss, params, grads = steps[keep], _rows(loss, keep), _rows(params, keep), _rows(grads, keep)
                aux, step_ms, lr = _rows(aux, keep), _rows(step_ms, keep), None if lr is None else _rows(lr, keep)
        k = len(steps)
        if self.n + k > self.capacity:
            self._grow(self.n + k)
        s = slice(self.n, self.n + k)
        c = self._cols
        self._step[s] = steps
        t = self._table
        t[s, c["loss"]] = np.asarray(loss, np.float32).reshape(k, 1)
        t[s, c["params"]] = np.asarray(params, np.float32).reshape(k, -1)
        g = np.asarray(grads, np.float32).reshape(k, -1)
        t[s, c["grads"]] = g
        if self._norm_parts is not None:
            g = g[:, self._norm_parts]
        with np.errstate(over="ignore", invalid="ignore"):
            t[s, c["norm"]] = np.sqrt(np.sum(g.astype(np.float64) ** 2, axis=1)).reshape(k, 1)
        self._aux[s] = np.asarray(aux, np.float32).reshape(k, -1)
        self._ms[s] = step_ms
        self._lr[s] = np.nan if lr is None else lr
        self._env.update(t, self.n, self.n + k)
        bad = ~np.isfinite(t[s, 0]) | ~np.isfinite(t[s, -1])
        if bad.any() and len(self.bad_steps) < 100:
            self.bad_steps += [int(v) for v in self._step[s][bad][: 100 - len(self.bad_steps)]]
        self.n += k
        self.version += 1

    def _fit(self, steps: np.ndarray) -> np.ndarray:
        """Which of the incoming steps to keep; thins the kept ones until they all fit."""
        if self.n and self._step[self.n - 1] % self.stride:
            self.n -= 1  # the latest step, kept off the stride until a later one came
        while True:
            keep = steps % self.stride == 0
            keep[-1] = True
            if self.n + int(keep.sum()) <= self.max_rows:
                return keep
            self._thin()

    def _thin(self) -> None:
        """Keep every second of the kept steps: those at multiples of twice the stride."""
        self.stride *= 2
        rows = np.flatnonzero(self._step[: self.n] % self.stride == 0)
        for a in (self._step, self._table, self._aux, self._ms, self._lr):
            a[: len(rows)] = a[rows]
        self.n = len(rows)
        self._env = _Envelope(self._width, self.max_rows)
        if self.n:
            self._env.update(self._table, 0, self.n)
        self.version += 1

    def set_budget(self, budget: int) -> None:
        """A new budget; a smaller one thins the history (and shrinks its buffers) now."""
        self.budget = int(budget)
        self.max_rows = max(MIN_ROWS, self.budget // self.row_bytes(self._width, self.aux_layout.total))
        self._env.max_rows = self.max_rows
        while self.n > self.max_rows:
            self._thin()
        if self.capacity > self.max_rows:
            old = (self._step, self._table, self._aux, self._ms, self._lr)
            self._alloc(self.max_rows)
            for dst, src in zip((self._step, self._table, self._aux, self._ms, self._lr), old):
                dst[: self.n] = src[: self.n]
            self._env = _Envelope(self._width, self.max_rows)
            if self.n:
                self._env.update(self._table, 0, self.n)
        self.version += 1

    def clear(self) -> None:
        self.n = 0
        self.stride = 1
        self.bad_steps = []
        self.version += 1

    def truncate(self, step: int) -> None:
        """Keep the steps before `step` (a rewound run trains step `step` again)."""
        n = int(np.searchsorted(self._step[: self.n], step))
        if n == self.n:
            return
        self.n = n
        self.bad_steps = [s for s in self.bad_steps if s < step]
        if n:  # the blocks (at every level) that held truncated rows: their min/max again
            self._env.update(self._table, n - 1, n)
        self.version += 1

    def index(self, step: int) -> int | None:
        """The row of `step`, or None if the history does not hold it."""
        i = int(np.searchsorted(self._step[: self.n], step))
        return i if i < self.n and self._step[i] == step else None

    def index_at_or_before(self, step: int) -> int | None:
        """The row of `step`, or of the last step held before it (a thinned history may not hold
        `step` itself); None if it holds none that early."""
        i = int(np.searchsorted(self._step[: self.n], step, side="right")) - 1
        return i if i >= 0 else None

    # views of the filled part (no copies)
    @property
    def steps(self) -> np.ndarray:
        return self._step[: self.n]

    @property
    def loss(self) -> np.ndarray:
        return self._table[: self.n, 0]

    @property
    def params(self) -> np.ndarray:
        return self._table[: self.n, self._cols["params"]]

    @property
    def grads(self) -> np.ndarray:
        return self._table[: self.n, self._cols["grads"]]

    @property
    def aux(self) -> np.ndarray:
        return self._aux[: self.n]

    @property
    def grad_norm(self) -> np.ndarray:
        return self._table[: self.n, -1]

    @property
    def step_ms(self) -> np.ndarray:
        return self._ms[: self.n]

    @property
    def lr(self) -> np.ndarray:
        """The learning rate in force at each step (NaN where unknown)."""
        return self._lr[: self.n]

    def nbytes(self) -> int:
        arrays = [self._step, self._table, self._aux, self._ms, self._lr]
        arrays += self._env.mins + self._env.maxs
        return sum(a.nbytes for a in arrays)

    # -- what to draw --------------------------------------------------------------------------
    def columns(self, kind: str) -> slice:
        """Columns of a plotted series in view()'s Y: 'loss', 'params', 'grads' or 'norm'."""
        return self._cols[kind]

    def _span(self, x0: float | None, x1: float | None) -> tuple[int, int]:
        """The rows of the steps in [x0, x1] (and a couple beyond, so a line reaches the edge)."""
        n, steps = self.n, self._step[: self.n]
        i0 = 0 if x0 is None else int(np.clip(np.searchsorted(steps, np.floor(x0)), 0, n - 1))
        i1 = n if x1 is None else int(np.clip(np.searchsorted(steps, np.ceil(x1)) + 2, 1, n))
        return i0, i1

    def groups(self, x0: float | None = None, x1: float | None = None, max_points: int = 1000):
        """How view() draws the steps in [x0, x1]: None when it draws every step, else (level,
        edges): its groups of blocks of that min/max level (-1: of single steps), group k being
        blocks edges[k] to edges[k + 1] - 1, at most max_points / 2 groups.

        A group is q / LOD_FACTOR blocks (q >= LOD_FACTOR, the smallest q that gives at most that
        many groups; a group's edges rounded down to whole blocks), so the groups fill the plot
        at any length: a whole number of blocks of levels 16x apart would fill between half of
        it and all of it. Edges are counted from the run's first block, so they stay put while
        the view scrolls."""
        if self.n == 0:
            return None
        i0, i1 = self._span(x0, x1)
        if i1 - i0 <= max_points:
            return None
        pairs = max(1, max_points // 2)
        for lv in range(-1, LOD_LEVELS):  # -1: the steps themselves
            bs = 1 if lv < 0 else _Envelope.block(lv)
            b0, b1 = i0 // bs, -(-i1 // bs)
            if b1 - b0 <= LOD_FACTOR * pairs or lv == LOD_LEVELS - 1:
                break
        f = LOD_FACTOR
        q = max(f, -(-f * (b1 - b0) // pairs))  # group k: blocks floor(k q / f) to floor((k + 1) q / f) - 1
        k = np.arange((b0 * f) // q, -(-(b1 * f) // q) + 1, dtype=np.int64)
        edges = np.minimum(k * q // f, b1)
        return lv, edges

    def view(self, x0: float | None = None, x1: float | None = None, max_points: int = 1000):
        """(x, Y) to draw the steps in [x0, x1]: every step when at most max_points, else the min
        and max of groups of steps (groups()), just under max_points / 2 of them.

        Y has one column per plotted series; each group gives two points (its min and max at the
        group's centre), so spikes survive any zoom level."""
        n = self.n
        g = self.groups(x0, x1, max_points)
        if g is None:
            if n == 0:
                return np.zeros(0), np.zeros((0, self._width), np.float32)
            i0, i1 = self._span(x0, x1)
            return self._step[i0:i1].astype(np.float64), self._table[i0:i1]
        lv, edges = g
        bs = 1 if lv < 0 else _Envelope.block(lv)
        b0, b1 = int(edges[0]), int(edges[-1])
        if lv < 0:
            lo = hi = self._table[b0:b1]
        else:
            lo, hi = self._env.mins[lv][b0:b1], self._env.maxs[lv][b0:b1]
        cuts = edges[:-1] - b0
        with np.errstate(invalid="ignore"):
            mins, maxs = np.fmin.reduceat(lo, cuts, axis=0), np.fmax.reduceat(hi, cuts, axis=0)
        steps = self._step[:n]
        first = edges[:-1] * bs  # a group's centre: halfway between its first and last step
        last = np.minimum(edges[1:] * bs, n) - 1
        x = np.repeat((steps[first] + steps[last] + 1) / 2.0, 2)
        y = np.empty((2 * len(mins), self._width), np.float32)
        y[0::2], y[1::2] = mins, maxs
        return x, y


def _rows(a, keep: np.ndarray):
    """The kept rows of a batch argument (a scalar stays as it is)."""
    a = np.asarray(a)
    return a[keep] if a.ndim and len(a) == len(keep) else a
