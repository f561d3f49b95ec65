"""What "step" and "update" mean, and the words every label uses for them. Qt-free.

Step k is the k-th computation of the loss and the gradients, numbered from 1 (as in the plots
and the JSON Lines; the seed prints it as `loop:k-1`). It computes at the parameters after k-1
updates, and its update (if kept) gives the parameters after k updates. A history row for step k
holds those parameters before its update and the gradients at them.

A run that ends by stop-at-loss or by a non-finite value at step k records step k but keeps only
k-1 updates (like the seed's loop, which breaks before `optimizer(grads)`); a run that ends by
max steps at step k keeps k.

Over a Dataset node, each step trains on one mini-batch: epoch e (1-based) has
`steps_per_epoch` steps, its batches 1 to steps_per_epoch in the documented order
(model/datasets.py), so step k is batch (k-1) % steps_per_epoch + 1 of epoch
(k-1) // steps_per_epoch + 1 (epoch_and_batch). The evaluation after epoch e is at the
parameters after its last step's update, e * steps_per_epoch updates (epoch_end).

The node values and gradients are a side pass at the current parameters. After n updates that is
exactly what step n+1 computes (or computed, when the run ended at step n+1 without its update).
The window names one step everywhere: 'step n (parameters after n-1 updates)' in the status bar,
the caption, the heat maps and the History label (model/shown.py's ShownNodes.named_step says which).
Paused or finished it is the last step computed, its loss and its parameters before its update,
and the nodes show it too (ui/timetravel.py asks for that step's nodes where its update was kept);
live nodes after step n's update where the history keeps only summaries are captioned 'live, after
step n's update'. While training it is the step the live nodes show: they arrive throttled, after
some step n's update, and are held until step n+1 is in the history, so the nodes, the labels and
the loss they name are step n+1's; the plots' curves may run a little ahead of it. Everything that
shows a step or a count of updates uses these functions, so the words never disagree."""

from __future__ import annotations

from ..i18n import Msg
from .ending import UPDATE_DISCARDED, EndReason


_COUNTS = {  # (word, one): how many, in words (every language forms its own plural)
    ("update", True): Msg("Steps", "{n:,} update"),
    ("update", False): Msg("Steps", "{n:,} updates"),
    ("step", True): Msg("Steps", "{n:,} step"),
    ("step", False): Msg("Steps", "{n:,} steps"),
}


def count(n: int, word: str) -> str:
    """'1 update', '0 updates', '12 updates' ("update" or "step")."""
    return _COUNTS[(word, n == 1)].format(n=n)


def epoch_and_batch(step: int, steps_per_epoch: int) -> tuple[int, int]:
    """(epoch, batch), both 1-based, of step `step` over a data set of steps_per_epoch batches."""
    return (step - 1) // steps_per_epoch + 1, (step - 1) % steps_per_epoch + 1


def epoch_end(epoch: int, steps_per_epoch: int) -> int:
    """The last step of epoch `epoch`; its evaluation is at the parameters after that many updates."""
    return epoch * steps_per_epoch


def last_eval(evals, step: int | None):
    """The evaluation a step shows: the last one made at or before it (each at the parameters
    after its step's update); the last of all for None, None before the first epoch ended."""
    found = None
    for e in evals:
        if step is not None and e["step"] > step:
            break
        found = e
    return found


def updates_kept(steps: int, end_reason: EndReason | None) -> int:
    """How many updates the parameters have had after `steps` steps that ended (or not) this way."""
    if steps <= 0:
        return 0
    return steps - 1 if end_reason in UPDATE_DISCARDED else steps


def step_of_parameters(updates: int) -> int:
    """The step that computes at the parameters after `updates` updates."""
    return updates + 1


def state_at(step: int) -> str:
    """The state a step shows: 'step 12 (parameters after 11 updates)'."""
    return Msg("Steps", "step {step:,} (parameters after {updates})").format(
        step=step, updates=count(step - 1, "update")
    )


def progress(steps: int) -> str:
    """The status bar's step: the last step computed, in the words the caption, the heat maps and
    the History label use for it: 'step 12 (parameters after 11 updates)'; 'no steps yet'."""
    return state_at(steps) if steps > 0 else Msg("Steps", "no steps yet")


def kept(updates: int) -> str:
    """The status bar step's tooltip: how many updates the run has kept ('12 updates kept')."""
    return Msg("Steps", "{updates} kept").format(updates=count(updates, "update"))


def loss_at(step: int, loss: str) -> str:
    return Msg("Steps", "loss at step {step:,}: {loss}").format(step=step, loss=loss)


def nodes_caption(updates: int, last_step: int, training: bool = False) -> str:
    """What the numbers on the nodes are, and how they relate to the plots' last step. While
    training, live nodes whose step the history has are that step's, named as the labels name it."""
    k = step_of_parameters(updates)
    if training and 0 < k <= last_step:
        return Msg("Steps", "Nodes: {state}, live").format(state=state_at(k))
    if last_step == k:
        return Msg("Steps", "Nodes: {state}, the plots' last step").format(state=state_at(k))
    if last_step == 0:
        return Msg("Steps", "Nodes: {state}, what the first step computes").format(state=state_at(k))
    if updates == last_step:  # live nodes after the last step's update (training; summaries kept)
        return Msg("Steps", "Nodes: live, after step {last:,}'s update (the plots' last step)").format(last=last_step)
    return Msg("Steps", "Nodes: {state}, what the next step computes (the plots end at step {last:,})").format(
        state=state_at(k), last=last_step
    )


def heatmap_title(name: str, step: int, grads: bool) -> str:
    """A plot heat map's title, two lines: the tensor, and the state it shows (a history row)."""
    what = f"∂L/∂{name}" if grads else name
    return Msg("Steps", "{tensor}\n{state}").format(tensor=what, state=state_at(step))


def at_parameters(updates: int) -> str:
    """Where a computation was made: 'at the initial parameters', 'at the parameters after 1 update'."""
    if updates <= 0:
        return Msg("Steps", "at the initial parameters")
    return Msg("Steps", "at the parameters after {updates}").format(updates=count(updates, "update"))


def end_message(reason: str, step: int, max_steps: int | None = None) -> str:
    """Why a run ended at `step`, with the updates it kept. `max_steps`: the Max steps option now
    (it may have been lowered below the steps already done, which ends the run at once)."""
    kept = count(updates_kept(step, reason), "update")
    if reason == EndReason.MAX_STEPS and max_steps is not None and max_steps < step:
        return Msg(
            "Steps", "Finished at step {step}: Max steps was set to {max}, below the steps already done ({kept} kept)."
        ).format(step=f"{step:,}", max=f"{max_steps:,}", kept=kept)
    if reason == EndReason.MAX_STEPS:
        return Msg("Steps", "Finished at step {step:,}: reached the maximum of {steps} ({kept} kept).").format(
            step=step, steps=count(step, "step"), kept=kept
        )
    if reason == EndReason.UNTIL_LOSS:
        return Msg(
            "Steps",
            "Finished at step {step:,}: the loss fell below the target, so that step's update "
            "was not kept ({kept} kept).",
        ).format(step=step, kept=kept)
    if reason == EndReason.NON_FINITE:
        return Msg(
            "Steps",
            "Stopped at step {step:,}: the loss or a gradient is not finite, so that step's update "
            "was not kept ({kept} kept). The learning rate is probably too large: lower it and "
            "press Reset.",
        ).format(step=step, kept=kept)
    return Msg("Steps", "Ended at step {step:,} ({reason}; {kept} kept).").format(step=step, reason=reason, kept=kept)
