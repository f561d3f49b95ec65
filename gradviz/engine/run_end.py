"""The end rule (model/ending.py) applied to an Engine's steps: shared by the headless command,
the app's engine process and PyTorch parity."""

from __future__ import annotations

import numpy as np

from ..model.ending import UPDATE_DISCARDED, EndReason, end_reason
from ..model.ending import first_end as _first_end
from .engine import Engine, StepResult


def step_end(engine: Engine, result: StepResult) -> EndReason | None:
    """Why the run ends after this step, or None to go on."""
    o = engine.session.options
    return end_reason(result.step, result.loss, result.finite, o.steps, o.until_loss)


def finish_step(engine: Engine, result: StepResult) -> EndReason | None:
    """Decide whether the run ends and undo the last update where the seed's loop would not
    have made it (it breaks before optimizer(grads))."""
    reason = step_end(engine, result)
    if reason in UPDATE_DISCARDED:
        engine.undo_last_update(result)
    return reason


def first_end(engine: Engine, first: int, rows: np.ndarray) -> int | None:
    """The index of the first of these rows (consecutive steps from `first` on, StepResult.row
    layout) at which the run ends, or None: one vectorised check for a Graph-mode batch."""
    o = engine.session.options
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.isfinite(rows[:, engine.grad_columns].sum(axis=1, dtype=np.float64))
    hit = _first_end(first, rows[:, 0], finite, o.steps, o.until_loss)
    return None if hit is None else hit[0]


def recorded_end(engine: Engine, first: int, rows: np.ndarray) -> int | None:
    """first_end of recorded rows (Engine.recorded_block): the gradients' finiteness from the
    recorded columns that tell it (RecordingPlan.finite), with the same answer."""
    o, loss = engine.session.options, rows[:, 0]
    with np.errstate(over="ignore", invalid="ignore"):  # first, the whole block at once
        goes_on = (
            (o.steps is None or first + len(rows) - 1 < o.steps)
            and np.isfinite(np.add.reduce(loss, dtype=np.float64))
            and np.isfinite(np.add.reduce(rows[:, engine.plan.finite_columns], axis=None, dtype=np.float64))
            and (o.until_loss is None or float(loss.min()) >= o.until_loss)
        )
    if goes_on:
        return None
    hit = _first_end(first, loss, engine.plan.finite(rows), o.steps, o.until_loss)
    return None if hit is None else hit[0]
