"""When a run ends: shared by the headless command and the app's engine process."""
from __future__ import annotations

from .engine import Engine, StepResult
from .session import Options


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
