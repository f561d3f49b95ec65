"""What a run records of each tensor at each step: every element of a small tensor; of a large one,
per-tensor summaries (norm, min, max, mean, five quantiles) and a fixed set of sampled elements.

A 1000x1000 Parameter recorded per element is 8 MB a step (value and gradient): the window's
history, the pipe from the engine and `gradviz run`'s JSON Lines would grow without bound until
the kernel's OOM killer ended the app. So the plan is decided once per build from the layouts, and
the engine reduces each step's row with it before the row leaves the engine: the history, the
plots, the exports and the run files only ever see the recorded row. A summarised tensor appears
in a recorded Layout under its own name with shape (width,) and its full shape in
`Layout.summaries`, so a recorded layout says what its columns are wherever it goes.

The sampled elements are the same for every run of a tensor of that size (a seeded generator),
so two runs of one graph record the same elements. Quantiles are computed over a larger fixed
sample (QUANTILE_SAMPLES elements): exact quantiles of a million elements are too slow for every step;
norm, min, max and mean are over every element. Qt-free and MindSpore-free."""

from __future__ import annotations

from contextlib import nullcontext
from functools import lru_cache

import numpy as np

# what a summarised tensor's columns are is the layout's to say (layout.py): named here as well
from .layout import LR_COL, Layout, row_slices
from .layout import QUANTILES, SAMPLES, STATS, numel, quantile_indices, sample_indices, summary_width  # noqa: F401
from .layout import describe_summary, summary_labels  # noqa: F401

PER_ELEMENT_LIMIT = 256  # elements: up to this a tensor is recorded per element
ROW_LIMIT = 16384  # recorded values a step: beyond, the largest tensors left are summarised too


def summarize(x: np.ndarray, shape) -> np.ndarray:
    """(n, width) recorded columns of a summarised tensor from its (n, size) full columns."""
    n, size = x.shape
    out = np.empty((n, summary_width(shape)), np.float32)
    total = x.sum(axis=1, dtype=np.float64)  # float32 elements summed in float64 never overflow
    finite = bool(np.isfinite(total).all())  # so: every element finite
    # finite elements raise no floating-point warning below: numpy's errstate (which costs a
    # recorded step more than the sums) only for a step that was not finite
    with nullcontext() if finite else np.errstate(over="ignore", invalid="ignore"):
        out[:, 0] = [np.sqrt(np.dot(r, r)) for r in x]  # BLAS, in float32 (relative error ~1e-6)
        out[:, 1] = x.min(axis=1)
        out[:, 2] = x.max(axis=1)
        out[:, 3] = total / size
        q = quantile_indices(size)
        out[:, 4 : len(STATS)] = quantiles(x if len(q) == size else x[:, q], finite)  # all of it: no copy
    out[:, len(STATS) :] = x[:, sample_indices(size)]
    return out


@lru_cache(maxsize=64)
def _positions(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For rows of m elements: each quantile's lower and upper sorted position side by side,
    and the fraction between them (np.quantile's linear method)."""
    h = (m - 1) * np.asarray(QUANTILES, np.float64)
    lo = np.floor(h).astype(np.intp)
    hi = np.minimum(lo + 1, m - 1)
    return np.concatenate([lo, hi]), h - lo


def quantiles(s: np.ndarray, finite: bool | None = None) -> np.ndarray:
    """(n, len(QUANTILES)) float64: each row's quantiles as np.quantile's default (linear) method
    gives them, NaN for a row holding a NaN (`finite`: the caller knows every element is).
    From one sort: numpy's vectorised sort of float32 costs a recorded step several times less
    than a partition at the ten positions used."""
    at, t = _positions(s.shape[1])
    srt = np.sort(s, axis=1)
    ends = srt[:, at].astype(np.float64)
    a, b = ends[:, : len(t)], ends[:, len(t) :]
    if finite or (finite is None and np.isfinite(ends).all() and not np.isnan(srt[:, -1]).any()):
        return a + t * (b - a)
    # an infinite end of the interval is the quantile (numpy's lerp gives NaN there)
    with np.errstate(invalid="ignore"):  # inf - inf, 0 * inf
        out = a + t * (b - a)
    ia, ib = np.isinf(a), np.isinf(b)
    out = np.where(ia & ~ib, a, out)
    out = np.where(ib & ~ia & (t > 0), b, out)
    out = np.where(ia & (a == b), a, out)
    out = np.where(t == 0, a, out)
    out[np.isnan(srt[:, -1])] = np.nan  # NaNs sort last: a row holds one iff its last is one
    return out


def recorded(layout: Layout, limit: int = ROW_LIMIT, used: int = 0) -> Layout:
    """The layout a run records for a full layout: its tensors above PER_ELEMENT_LIMIT elements
    summarised, then the largest remaining ones while the row would pass `limit` values."""
    shapes = [tuple(s) for s in layout.shapes]
    big = {n for n, s in zip(layout.names, shapes) if numel(s) > PER_ELEMENT_LIMIT}

    def width() -> int:
        return used + sum(summary_width(s) if n in big else numel(s) for n, s in zip(layout.names, shapes))

    for n, s in sorted(zip(layout.names, shapes), key=lambda t: -numel(t[1])):
        if width() <= limit:
            break
        if numel(s) > summary_width(s):
            big.add(n)
    return Layout(
        list(layout.names),
        [(summary_width(s),) if n in big else s for n, s in zip(layout.names, shapes)],
        {n: s for n, s in zip(layout.names, shapes) if n in big},
    )


class RecordingPlan:
    """The recorded layouts of one build, and the reduction of full rows [loss, lr, params,
    grads, aux] (layout.row_slices) to recorded rows of the same form."""

    def __init__(self, params: Layout, grads: Layout, aux: Layout):
        self.full = (params, grads, aux)
        rp = recorded(params)
        rg = recorded(grads, used=rp.total)
        ra = recorded(aux, used=rp.total + rg.total)
        self.layouts = (rp, rg, ra)
        self.identity = not (rp.summaries or rg.summaries or ra.summaries)
        # (source columns, destination columns, full shape or None) of each tensor in a row
        self._parts: list[tuple[slice, slice, tuple | None]] = [(slice(0, LR_COL + 1), slice(0, LR_COL + 1), None)]
        src_at = [s.start for s in row_slices(params, grads)]
        dst_at = [s.start for s in row_slices(rp, rg)]
        for full, rec, i, j in zip(self.full, self.layouts, src_at, dst_at):
            for n, k_full, k_rec in zip(full.names, full.sizes, rec.sizes):
                self._parts.append((slice(i, i + k_full), slice(j, j + k_rec), rec.summaries.get(n)))
                i, j = i + k_full, j + k_rec
        self.width = dst_at[-1] + ra.total
        # the recorded columns that tell whether a step's gradients are all finite: each column of
        # a gradient recorded per element, the min and max of a summarised one (they are NaN or
        # infinite iff an element is; its norm, mean or quantiles may overflow on finite values)
        cols, at = [], dst_at[1]
        for n, k in zip(rg.names, rg.sizes):
            cols += [at + STATS.index("min"), at + STATS.index("max")] if n in rg.summaries else range(at, at + k)
            at += k
        self.finite_columns = slice(dst_at[1], dst_at[1] + rg.total) if not rg.summaries else np.asarray(cols, np.int64)

    @property
    def tensors(self) -> list[tuple[slice, tuple | None]]:
        """(recorded columns, full shape of a summarised tensor or None) of each tensor of a row
        in its order: the parameters, the gradients, the auxiliary outputs."""
        return [(dst, shape) for _, dst, shape in self._parts[1:]]

    def finite(self, rows: np.ndarray) -> np.ndarray:
        """Whether each recorded row's gradients are all finite (its loss aside)."""
        with np.errstate(over="ignore", invalid="ignore"):
            # a double-precision sum of float32 values cannot overflow: finite iff every one is
            return np.isfinite(rows[:, self.finite_columns].sum(axis=1, dtype=np.float64))

    def reduce(self, rows: np.ndarray) -> np.ndarray:
        """Recorded rows of full rows (n, full width); the rows themselves when nothing is summarised."""
        if self.identity:
            return rows
        rows = np.asarray(rows, np.float32).reshape(-1, rows.shape[-1])
        out = np.empty((len(rows), self.width), np.float32)
        for src, dst, shape in self._parts:
            out[:, dst] = rows[:, src] if shape is None else summarize(rows[:, src], shape)
        return out

    def reduce_row(self, row: np.ndarray) -> np.ndarray:
        """One recorded row of one full row (the row itself when nothing is summarised)."""
        return row if self.identity else self.reduce(row[None])[0]

    def describe(self) -> list[tuple[str, int, int]]:
        """(name, samples, elements) of each summarised parameter (gradients share it)."""
        rp = self.layouts[0]
        return [(n, len(sample_indices(numel(s))), numel(s)) for n, s in rp.summaries.items()]
