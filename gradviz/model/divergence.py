"""The divergence coach's diagnosis, read from a run's History. Qt-free.

When a run meets its first non-finite loss or gradient, a student wants to know what went bad,
where, and how long before that the steps were already too large. Everything here is computed
from the recorded steps (the parameters before each step's update, the gradients at them and the
learning rate in force), so a saved run is diagnosed the same way as a live one.

The update-to-value ratio of a trained tensor p at step k is ‖lr·∂L/∂p‖ / ‖p‖ (Euclidean norms
over the tensor's elements; for a one-element tensor simply |lr·g| / |p|): the size of the plain
gradient step against the size of what it changes. Well-behaved training keeps it far below 1;
above 1 one step changes a parameter by more than its whole value."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..i18n import Msg
from .colorscale import nice_ceil
from .formatting import fmt_number
from .recording import STATS
from .history import History

RATIO_LIMIT = 1.0
RESCUE_RATIO = 0.5  # the coach's factor keeps the ratio at the step it rewinds to at most this


@dataclass(frozen=True)
class BadValue:
    """The first non-finite value of a run: at `step`, in `tensor` (a parameter name, "loss" or
    "∂L/∂name"), element `element` (a Layout label such as w[2,1])."""

    step: int
    kind: str  # "parameter", "loss" or "gradient"
    tensor: str
    element: str
    value: float

    def describe(self) -> str:
        """'the gradient ∂L/∂w[2,1] became +inf at step 58'"""
        what = {
            "parameter": Msg("Divergence", "the parameter {element} became {value} at step {step:,}"),
            "loss": Msg("Divergence", "the {element} became {value} at step {step:,}"),
            "gradient": Msg("Divergence", "the gradient {element} became {value} at step {step:,}"),
        }[self.kind]
        return what.format(element=self.element, value=fmt_number(self.value), step=self.step)


@dataclass(frozen=True)
class RatioCrossing:
    """The first step whose update-to-value ratio passed RATIO_LIMIT, and for which tensor."""

    step: int
    tensor: str
    ratio: float


def _row_finite(h: History) -> np.ndarray:
    """Per step: loss, every parameter and every gradient finite."""
    with np.errstate(invalid="ignore"):
        return np.isfinite(h.loss) & np.isfinite(h.params).all(axis=1) & np.isfinite(h.grads).all(axis=1)


def first_non_finite(h: History) -> BadValue | None:
    """The first non-finite value, in the order a step computes them: the parameters it starts
    from, then the loss, then the gradients; within a tensor kind, in layout order (the first
    flattened element)."""
    ok = _row_finite(h)
    bad = np.flatnonzero(~ok)
    if not len(bad):
        return None
    i = int(bad[0])
    step = int(h.steps[i])
    p = h.params[i]
    nf = np.flatnonzero(~np.isfinite(p))
    if len(nf):
        return _element(h.param_layout, nf[0], p, step, "parameter", "")
    if not np.isfinite(h.loss[i]):
        return BadValue(step, "loss", "loss", "loss", float(h.loss[i]))
    g = h.grads[i]
    return _element(h.grad_layout, np.flatnonzero(~np.isfinite(g))[0], g, step, "gradient", "∂L/∂")


def _element(layout, j: int, row: np.ndarray, step: int, kind: str, prefix: str) -> BadValue:
    labels = layout.labels()
    k = 0
    for name, size in zip(layout.names, layout.sizes):
        if j < k + size:
            return BadValue(step, kind, prefix + name, prefix + labels[j], float(row[j]))
        k += size
    raise IndexError(j)


def last_finite_step(h: History) -> int | None:
    """The last step before the first non-finite one (every step if none is), or None."""
    ok = _row_finite(h)
    bad = np.flatnonzero(~ok)
    i = (int(bad[0]) if len(bad) else h.n) - 1
    return int(h.steps[i]) if i >= 0 else None


def ratios(h: History) -> tuple[list[str], np.ndarray]:
    """(trained tensor names, R) with R[i, j] the update-to-value ratio of tensor j at row i
    (inf where the tensor is all zeros and its gradient is not, NaN where both are 0 or the
    learning rate is unknown)."""
    names = list(h.grad_layout.names)
    pcols = dict(zip(h.param_layout.names, _slices(h.param_layout)))
    lr = h.lr.astype(np.float64)
    out = np.empty((h.n, len(names)))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for j, (name, gs) in enumerate(zip(names, _slices(h.grad_layout))):
            g = _norm(h.grad_layout, name, h.grads[:, gs])
            p = _norm(h.param_layout, name, h.params[:, pcols[name]])
            out[:, j] = np.abs(lr) * g / p
    return names, out


def first_ratio_above(h: History, limit: float = RATIO_LIMIT) -> RatioCrossing | None:
    """The first step at which some trained tensor's update-to-value ratio exceeded `limit`
    (the first such tensor in layout order)."""
    names, r = ratios(h)
    with np.errstate(invalid="ignore"):
        over = r > limit
    rows = np.flatnonzero(over.any(axis=1))
    if not len(rows):
        return None
    i = int(rows[0])
    j = int(np.flatnonzero(over[i])[0])
    return RatioCrossing(int(h.steps[i]), names[j], float(r[i, j]))


@dataclass(frozen=True)
class Rescue:
    """The coach's default: continue from `step` (the state before it) with the learning rate
    times `factor`."""

    step: int
    factor: float


def rescue(h: History, lr: float) -> Rescue | None:
    """Where the coach goes back to and by how much it lowers the learning rate `lr` (the one set
    now), or None while every value is finite.

    It goes back to the first step whose update-to-value ratio passed RATIO_LIMIT (the steps from
    there on were already too large), never later than the last finite step, and to the first
    step when no ratio passed it. The factor is the largest 1/(1, 2 or 5 x 10^k), at most 1/2,
    that keeps every tensor's ratio at that step at most RESCUE_RATIO with the new rate: a step
    recomputed there has the same gradients, so its ratio scales with the rate."""
    bad = first_non_finite(h)
    if bad is None:
        return None
    first = int(h.steps[0])
    cross = first_ratio_above(h)
    step = cross.step if cross is not None else first
    step = max(first, min(step, bad.step - 1))
    _, r = ratios(h)
    i = h.index(step)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_lr = r[i] / abs(float(h.lr[i])) if r.shape[1] else np.zeros(0)  # the ratio per unit rate
    per_lr = per_lr[np.isfinite(per_lr)]
    worst = float(per_lr.max()) * abs(lr) if len(per_lr) else 0.0
    factor = min(0.5, 1.0 / nice_ceil(worst / RESCUE_RATIO)) if worst > 0 else 0.5
    return Rescue(step, float(f"{factor:.1g}"))


def _norm(layout, name: str, cols: np.ndarray) -> np.ndarray:
    """Per row, the norm of tensor `name` from its columns: of a summarised tensor (model/recording.py)
    its recorded norm, of any other every element's."""
    if name in layout.summaries:
        return cols[:, STATS.index("norm")].astype(np.float64)
    return np.sqrt(np.sum(cols.astype(np.float64) ** 2, axis=1))


def _slices(layout) -> list[slice]:
    out, k = [], 0
    for size in layout.sizes:
        out.append(slice(k, k + size))
        k += size
    return out


def update_table(h: History, name: str, element: int | None, rows: slice) -> dict[str, np.ndarray]:
    """Per step of `rows` for trained tensor `name`: step, lr, value, gradient, -lr x gradient and
    the update-to-value ratio. `element`: an index into the flattened tensor (the values are that
    element's, signed), or None (the tensor's norms: ‖p‖, ‖g‖, ‖lr·g‖)."""
    p = h.params[rows, dict(zip(h.param_layout.names, _slices(h.param_layout)))[name]].astype(np.float64)
    g = h.grads[rows, dict(zip(h.grad_layout.names, _slices(h.grad_layout)))[name]].astype(np.float64)
    lr = h.lr[rows].astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if element is None:
            pv = _norm(h.param_layout, name, p)
            gv = _norm(h.grad_layout, name, g)
            uv = np.abs(lr) * gv
        else:
            pv, gv = p[:, element], g[:, element]
            uv = -lr * gv
        ratio = np.abs(uv) / np.abs(pv)
    return {"step": h.steps[rows], "lr": lr, "value": pv, "grad": gv, "update": uv, "ratio": ratio}


def coach_text(h: History) -> str:
    """What went wrong, in two sentences, or "" while every value is finite."""
    bad = first_non_finite(h)
    if bad is None:
        return ""
    cross = first_ratio_above(h)
    if cross is not None and cross.step <= bad.step:
        return Msg(
            "Divergence",
            "First non-finite value: {bad}. The update-to-value ratio ‖lr·∂L/∂p‖/‖p‖ first passed {limit:g} at "
            "step {step:,} ({tensor}: {ratio}): each step changed it by more than its whole size.",
        ).format(
            bad=bad.describe(), limit=RATIO_LIMIT, step=cross.step, tensor=cross.tensor, ratio=fmt_number(cross.ratio)
        )
    return Msg(
        "Divergence",
        "First non-finite value: {bad}. The update-to-value ratio ‖lr·∂L/∂p‖/‖p‖ stayed below {limit:g} until then.",
    ).format(bad=bad.describe(), limit=RATIO_LIMIT)
