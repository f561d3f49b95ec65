"""Gradient check: central finite differences in float64 of exactly the L that autodiff
differentiates with the session's options, against MindSpore's gradients, element by element.

L is the sum of the differentiated outputs (codegen.differentiated_outputs); a StopGradient node
holds its value at the point checked (autodiff sees it as a constant there), so the differences
are taken of the same function MindSpore differentiates."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..model import numeric
from ..model.graph import initial_values
from ..model.ops import OPS
from ..model.session import Session

EPS = 1e-6  # the central-difference step, in float64
TOLERANCE = 1e-4  # an element agrees when |MindSpore - differences| <= TOLERANCE * max(1, |differences|)
MAX_ELEMENTS = 2000  # per parameter; larger ones are checked at this many elements chosen at random


@dataclass
class ParamCheck:
    shape: tuple[int, ...]
    autodiff: np.ndarray  # MindSpore's gradient (float32)
    numeric: np.ndarray  # central differences (float64), NaN where not checked
    checked: int
    abs_error: np.ndarray = field(init=False)
    rel_error: np.ndarray = field(init=False)

    def __post_init__(self):
        with np.errstate(invalid="ignore"):
            self.abs_error = np.abs(self.autodiff.astype(np.float64) - self.numeric)
            self.rel_error = self.abs_error / np.maximum(1.0, np.abs(self.numeric))

    @property
    def max_abs_error(self) -> float:
        return float(np.nanmax(self.abs_error)) if self.checked else 0.0

    @property
    def max_rel_error(self) -> float:
        return float(np.nanmax(self.rel_error)) if self.checked else 0.0

    @property
    def ok(self) -> bool:
        return self.checked == 0 or bool(np.nanmax(self.rel_error) <= TOLERANCE)


@dataclass
class GradCheck:
    eps: float
    tolerance: float
    params: dict[str, ParamCheck]

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.params.values())

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "eps": self.eps,
            "tolerance": self.tolerance,
            "params": {
                k: {
                    "max_abs_error": p.max_abs_error,
                    "max_rel_error": p.max_rel_error,
                    "checked": p.checked,
                    "elements": int(np.prod(p.shape)) if p.shape else 1,
                }
                for k, p in self.params.items()
            },
        }


def objective(session: Session, base: dict[str, np.ndarray]):
    """L(params) in float64, with every StopGradient node held at its value at `base`."""
    g = session.graph
    seeds = numeric.seeds(session)
    at_base = numeric.forward(g, base)
    held = {n.name: np.array(at_base[n.name]) for n in g.nodes if n.kind in OPS and OPS[n.kind].blocks_gradient}

    def L(params: dict[str, np.ndarray]) -> float:
        v = numeric.forward(g, {**base, **params}, held)
        return float(sum(np.sum(v[s]) for s in seeds))

    return L


def finite_differences(
    session: Session,
    params: dict[str, np.ndarray],
    names: list[str],
    rng: np.random.RandomState | None = None,
    cancelled=None,
    progress=None,
) -> dict[str, np.ndarray]:
    """dL/dp by central differences for each of `names` (NaN at elements not checked);
    progress(fraction) after each element, cancelled() before each (then InterruptedError)."""
    base = {k: np.asarray(v, np.float64) for k, v in initial_values(session.graph, session.options.seed).items()}
    base.update({k: np.asarray(v, np.float64) for k, v in params.items()})
    L = objective(session, base)
    rng = rng or np.random.RandomState(0)
    out = {}
    chosen = {}
    for name in names:
        size = base[name].size
        chosen[name] = (
            np.arange(size) if size <= MAX_ELEMENTS else np.sort(rng.choice(size, MAX_ELEMENTS, replace=False))
        )
    total, done = sum(len(i) for i in chosen.values()), 0
    for name in names:
        p = base[name]
        flat = p.reshape(-1)
        num = np.full(flat.size, np.nan)
        for i in chosen[name]:
            if cancelled is not None and cancelled():
                raise InterruptedError("gradient check cancelled")
            old = flat[i]
            flat[i] = old + EPS
            up = L({name: p})
            flat[i] = old - EPS
            down = L({name: p})
            flat[i] = old
            num[i] = (up - down) / (2 * EPS)
            done += 1
            if progress is not None:
                progress(done / total)
        out[name] = num.reshape(p.shape)
    return out


def check(
    session: Session, autodiff: dict[str, np.ndarray], params: dict[str, np.ndarray], cancelled=None, progress=None
) -> GradCheck:
    """Compare MindSpore's gradients `autodiff` (at `params`) with central differences."""
    num = finite_differences(session, params, list(autodiff), cancelled=cancelled, progress=progress)
    return GradCheck(
        EPS,
        TOLERANCE,
        {
            k: ParamCheck(tuple(np.shape(autodiff[k])), np.asarray(autodiff[k]), num[k], int(np.sum(~np.isnan(num[k]))))
            for k in autodiff
        },
    )


def run(session: Session, params: dict[str, np.ndarray] | None = None, cancelled=None, progress=None) -> GradCheck:
    """The check at the session's initial parameters, or at `params` (the trainable ones, e.g.
    a run's current values), with MindSpore in this process."""
    from ..engine.checkpoints import TrainingState
    from ..engine.engine import Engine

    e = Engine(session)
    try:
        if params:
            e.restore(TrainingState(0, params, {}, float(session.options.lr)))
        r = e.step()
        grads = {k: np.array(v) for k, v in e.grad_layout.unflatten(r.grads).items()}
        params = e.param_layout.unflatten(r.params)
    finally:
        e.close()
    return check(session, grads, params, cancelled=cancelled, progress=progress)
