"""When a run ends, and why: the one end rule of the engine, the headless run, PyTorch parity
and the run state. Qt-free and MindSpore-free."""

from __future__ import annotations

from enum import StrEnum

import numpy as np


class EndReason(StrEnum):
    MAX_STEPS = "max_steps"  # the step reached Max steps
    UNTIL_LOSS = "until_loss"  # the loss fell below Stop at loss
    NON_FINITE = "non_finite"  # the loss or a gradient is not finite
    STOPPED = "stopped"  # the headless run was interrupted (a signal)
    ERROR = "error"  # the run failed


# end reasons whose last step's update is not kept (like the seed's loop, which breaks before
# optimizer(grads)); model/steps.py counts the updates kept from them
UPDATE_DISCARDED = frozenset({EndReason.UNTIL_LOSS, EndReason.NON_FINITE})


def _conditions(step, loss, finite, max_steps: int | None, until_loss: float | None) -> tuple:
    """The end rule, in order of precedence: (reason, whether it holds) for one step (Python
    numbers) or for many (numpy arrays, elementwise). `finite`: the gradients are all finite."""
    return (
        (EndReason.NON_FINITE, ~(finite & np.isfinite(loss))),
        (EndReason.UNTIL_LOSS, False if until_loss is None else loss < until_loss),
        (EndReason.MAX_STEPS, False if max_steps is None else step >= max_steps),
    )


def end_reason(
    step: int, loss: float, finite: bool, max_steps: int | None, until_loss: float | None
) -> EndReason | None:
    """Why the run ends after this step, or None to go on."""
    for reason, holds in _conditions(step, loss, np.bool_(finite), max_steps, until_loss):
        if holds:
            return reason
    return None


def first_end(
    first_step: int, loss: np.ndarray, finite: np.ndarray, max_steps: int | None, until_loss: float | None
) -> tuple[int, EndReason] | None:
    """The index of the first of these consecutive steps (numbered from `first_step`) at which
    end_reason ends the run, and why; None to go on. One vectorised check for a block of steps."""
    loss = np.asarray(loss, np.float64)  # compared in double precision, as one step's float is
    steps = first_step + np.arange(len(loss))
    with np.errstate(invalid="ignore"):
        held = [(r, np.broadcast_to(h, loss.shape)) for r, h in _conditions(steps, loss, finite, max_steps, until_loss)]
    ends = np.logical_or.reduce([h for _, h in held])
    hit = np.flatnonzero(ends)
    if not len(hit):
        return None
    i = int(hit[0])
    return i, next(r for r, h in held if h[i])
