"""PyTorch parity: the session trained in PyTorch from the same initial values beside MindSpore,
and per step the largest difference in the loss, the gradients and the parameters.

The PyTorch side runs the exported script's definitions (model.scripts.pytorch_parts: the same
initial values, `function` from the op table's PyTorch expressions, the matching optimizer) with
a loop that records what `gradviz run` records. A difference is |MindSpore - PyTorch| divided by
the largest magnitude that quantity (the loss, a gradient, a parameter) reaches in the run, at
least 1: float32 rounding is relative to that scale, and a gradient that cancels down to nearly
0 (the seed's linear regression near its end) cannot be compared element by element."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.ending import end_reason
from ..model.codegen import differentiated_outputs, returned_names
from ..model.scripts import pytorch_parts
from ..model.session import Session

TOLERANCE = 1e-5


def torch_available() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass
class Parity:
    steps: np.ndarray  # 1-based step numbers compared
    loss: np.ndarray  # per step, the largest difference of each kind
    grads: np.ndarray
    params: np.ndarray
    mindspore_end: tuple[str, int]
    pytorch_end: tuple[str, int]

    @property
    def worst(self) -> float:
        return float(max(self.loss.max(initial=0), self.grads.max(initial=0), self.params.max(initial=0)))

    @property
    def tolerance(self) -> float:
        return TOLERANCE

    @property
    def ok(self) -> bool:
        return self.mindspore_end == self.pytorch_end and self.worst <= TOLERANCE

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "tolerance": TOLERANCE,
            "steps": int(len(self.steps)),
            "max_loss_difference": float(self.loss.max(initial=0)),
            "max_grad_difference": float(self.grads.max(initial=0)),
            "max_param_difference": float(self.params.max(initial=0)),
            "mindspore_end": list(self.mindspore_end),
            "pytorch_end": list(self.pytorch_end),
        }


def _diffs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per step (rows), the largest |a - b| over the row, divided by the run's scale of b."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape[1] == 0:
        return np.zeros(len(a))
    with np.errstate(invalid="ignore"):
        scale = max(1.0, float(np.nanmax(np.abs(np.where(np.isfinite(b), b, np.nan))))) if np.isfinite(b).any() else 1.0
        d = np.abs(a - b) / scale
    both = np.isnan(a) & np.isnan(b)
    d = np.where(both, 0.0, np.where(np.isnan(d), np.inf, d))
    return d.max(axis=1)


def pytorch_run(session: Session, cancelled=None) -> tuple[list[tuple[float, np.ndarray, np.ndarray]], str]:
    """Per step (loss, parameters before the update, gradients), flattened in graph order, and
    why the run ended: the same loop as gradviz run, in PyTorch."""
    import torch

    defs, _ = pytorch_parts(session)
    ns: dict = {"__name__": "gradviz_parity"}
    exec(compile(defs, "<pytorch parity>", "exec"), ns)
    g = session.graph
    args = [ns[n.name] for n in g.inputs()] + [ns[n.name] for n in g.parameters()]
    params = [ns[n.name] for n in g.parameters()]
    trainable = [ns[n.name] for n in g.trainable()]
    diff = len(differentiated_outputs(g, session.options))
    n_out = len(returned_names(g)) if session.options.aux_output and len(g.outputs()) > 1 else 1
    fn, opt = ns["function"], ns["optimizer"]
    records, step = [], 0
    while True:
        step += 1
        if cancelled is not None and cancelled():
            raise InterruptedError("parity cancelled")
        before = np.concatenate([p.detach().numpy().reshape(-1).copy() for p in params])
        out = fn(*args)
        out = out if isinstance(out, tuple) else (out,)
        assert len(out) == n_out
        total = out[0] + sum(o.sum() for o in out[1:diff])
        total.backward()
        grads = np.concatenate([p.grad.detach().numpy().reshape(-1).copy() for p in trainable])
        loss = float(out[0].item())
        records.append((loss, before, grads))
        o = session.options
        reason = end_reason(step, loss, bool(np.all(np.isfinite(grads))), o.steps, o.until_loss)
        if reason:
            return records, reason
        opt.step()
        opt.zero_grad()
        if not torch.is_grad_enabled():  # pragma: no cover - defensive
            raise RuntimeError("autograd is off")


def compare(session: Session, progress=None, cancelled=None) -> Parity:
    """Train both (MindSpore in this process) and compare step by step; progress(fraction) and
    cancelled() between steps."""
    from ..engine.engine import Engine
    from ..engine.run_end import finish_step

    e = Engine(session)
    ms, reason = [], None
    try:
        while reason is None:
            if cancelled is not None and cancelled():
                raise InterruptedError("parity cancelled")
            r = e.step()
            ms.append((r.loss, r.params.copy(), r.grads.copy()))
            reason = finish_step(e, r)
            if progress is not None and r.step % 50 == 0:
                progress(0.5 * r.step / session.options.steps)
    finally:
        e.close()
    pt, pt_reason = pytorch_run(session, cancelled)
    n = min(len(ms), len(pt))
    kinds = [
        [np.atleast_1d(np.asarray(run[i][k], np.float64)) for i in range(n)] for run in (ms, pt) for k in (0, 2, 1)
    ]
    loss, grads, params = (
        _diffs(np.array(kinds[k]).reshape(n, -1), np.array(kinds[k + 3]).reshape(n, -1)) for k in range(3)
    )
    return Parity(np.arange(1, n + 1), loss, grads, params, (reason, len(ms)), (pt_reason, len(pt)))
