"""When a run ends: shared by the headless command and the app's engine process."""

from __future__ import annotations

import numpy as np

from .trainer import Engine, StepResult
from ..model.session import Options


def end_reason(result: StepResult, options: Options) -> str | None:
    """Why the run ends after this step, or None to go on.

    Like the seed's loop, a step whose loss is already below the target (or not finite) is
    recorded but its update is not kept; see finish_step."""
    if not result.finite:
        return "non_finite"
    if options.until_loss is not None and result.loss < options.until_loss:
        return "until_loss"
    if result.step >= options.steps:
        return "max_steps"
    return None


def finish_step(engine: Engine, result: StepResult) -> str | None:
    """Decide whether the run ends and undo the last update where the seed's loop would not
    have made it (it breaks before optimizer(grads))."""
    reason = end_reason(result, engine.session.options)
    if reason in ("non_finite", "until_loss"):
        engine.undo_last_update(result)
    return reason


def first_end(engine: Engine, first: int, rows: np.ndarray) -> int | None:
    """The index of the first of these rows (consecutive steps from `first` on, StepResult.row
    layout) at which end_reason would end the run, or None: one vectorised check for a
    Graph-mode batch instead of one StepResult a step."""
    o = engine.session.options
    loss = rows[:, 0].astype(np.float64)  # compared as end_reason does, in double precision
    with np.errstate(invalid="ignore", over="ignore"):
        ends = ~(np.isfinite(loss) & np.isfinite(rows[:, engine.grad_columns].sum(axis=1, dtype=np.float64)))
        if o.until_loss is not None:
            ends |= loss < o.until_loss
    ends |= first + np.arange(len(rows)) >= o.steps
    hit = np.flatnonzero(ends)
    return int(hit[0]) if len(hit) else None
