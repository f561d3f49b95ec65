"""The run state: where the window's training is, what moves it, and what each control allows.

One immutable RunState, moved by Events (what the engine said, what the controller did). The
controller holds the only RunState; the window asks `permissions()` what each control allows and
shows the reason of a disabled one as its tooltip, so no widget decides from raw state strings and
each rule is written once, here. Qt-free, so every transition has a plain unit test."""

from __future__ import annotations

import dataclasses
from enum import StrEnum

from ..i18n import Msg
from .ending import EndReason, end_reason
from .steps import end_message


class Phase(StrEnum):
    STOPPED = Msg("RunState", "stopped")  # no engine: before the first start, after shutting down
    STARTING = "starting"  # the engine process is starting (importing MindSpore)
    BUILDING = "building"  # the engine builds the session into a fresh run
    READY = Msg("RunState", "ready")  # built, nothing trained yet
    COMPILING = "compiling"  # Graph mode compiles before its first step (or batch)
    TRAINING = Msg("RunState", "training")
    PAUSED = Msg("RunState", "paused")
    FINISHED = Msg("RunState", "finished")  # ended by max steps or stop-at-loss
    DIVERGED = "diverged"  # ended by a non-finite loss or gradient
    REVIEWING = "reviewing"  # showing a run not trained by this engine (opened, or kept over a restart)
    ERROR = Msg("RunState", "error")  # the engine reported an exception; Reset recovers
    NOT_ANSWERING = "not_answering"  # the watchdog heard nothing for a while; Wait or Restart
    ENGINE_LOST = "engine_lost"  # the engine process is gone; Reset starts a fresh one


class Event(StrEnum):
    LAUNCH = "launch"  # a fresh engine process was started
    BUILD = "build"  # a build of the session was sent
    BUILT = "built"  # the engine built it
    REVIEW = "review"  # built, and a recorded history is shown instead of training
    COMPILE = "compile"  # the engine compiles
    TRAIN = "train"  # the engine trains
    PAUSE = "pause"  # the engine waits for the next command (after a pause)
    STEPPED = "stepped"  # the engine did the one step asked for and waits
    END = "end"  # the run ended (with a reason)
    FAIL = "fail"  # the engine reported an exception
    SILENCE = "silence"  # the watchdog heard nothing from the engine
    ANSWER = "answer"  # the engine was heard again
    LOSE = "lose"  # the engine process died, or could not load MindSpore
    STOP = "stop"  # everything was shut down
    REWIND = "rewind"  # the engine went back to an earlier step (time travel); it waits there
    QUEUE_START = "queue_start"  # Start pressed while MindSpore starts or the run builds
    UNQUEUE = "unqueue"  # that Start taken back (Pause pressed) before training began
    DROP = "drop"  # the run was dropped (File > New with an unfinished graph): none is left to go on


class Control(StrEnum):
    START = "start"  # train on
    PAUSE = "pause"
    STEP = "step"  # exactly one step
    RESET = "reset"  # a fresh run from the seed
    CANCEL = "cancel"  # abandon a start, build or compile (restarts the engine)
    EDIT = "edit"  # the graph, the preset, the options that need a new run
    DEVICE = "device"  # the device and the mode (a new engine process)
    LIVE = "live"  # learning rate, stop-at-loss, max steps, speed
    SAVE_RUN = "save_run"  # save the run with its history
    WAIT = "wait"  # keep waiting for an engine that does not answer
    RESTART = "restart"  # restart it, keeping the session and the history
    SCRUB = "scrub"  # show an earlier step of the history (time travel)
    CONTINUE = "continue"  # rewind to the step shown and train on from there


P = Phase
ENGINE_UP = frozenset(
    {P.BUILDING, P.READY, P.COMPILING, P.TRAINING, P.PAUSED, P.FINISHED, P.DIVERGED, P.REVIEWING, P.ERROR}
)
BUSY = frozenset({P.COMPILING, P.TRAINING})  # the engine trains: no edits, Pause offered
CAN_GO_ON = frozenset({P.READY, P.PAUSED, P.FINISHED})  # Start/Step may be sent (FINISHED: by max steps only)

# where each event leads from each phase; a pair not listed leaves the state as it is
TRANSITIONS: dict[Event, dict[Phase, Phase]] = {
    Event.LAUNCH: {p: P.STARTING for p in Phase},
    Event.STOP: {p: P.STOPPED for p in Phase},
    Event.LOSE: {p: P.ENGINE_LOST for p in Phase if p is not P.STOPPED},
    Event.BUILD: {p: P.BUILDING for p in ENGINE_UP | {P.STARTING}},
    Event.BUILT: {P.BUILDING: P.READY},
    Event.REVIEW: {P.BUILDING: P.REVIEWING},
    Event.COMPILE: {p: P.COMPILING for p in CAN_GO_ON | BUSY},
    Event.TRAIN: {p: P.TRAINING for p in CAN_GO_ON | BUSY},
    Event.PAUSE: {p: P.PAUSED for p in CAN_GO_ON | BUSY},
    Event.STEPPED: {p: P.PAUSED for p in CAN_GO_ON | BUSY},
    Event.END: {p: P.FINISHED for p in CAN_GO_ON | BUSY},  # DIVERGED for a non-finite end
    Event.FAIL: {p: P.ERROR for p in ENGINE_UP | {P.STARTING}},
    Event.SILENCE: {p: P.NOT_ANSWERING for p in ENGINE_UP},
    Event.ANSWER: {},  # NOT_ANSWERING goes back to the phase it interrupted
    Event.REWIND: {p: P.PAUSED for p in (P.PAUSED, P.FINISHED, P.DIVERGED)},
    Event.QUEUE_START: {p: p for p in (P.STARTING, P.BUILDING)},
    Event.UNQUEUE: {p: p for p in (P.STARTING, P.BUILDING, P.READY)},
    # a training run is paused first: the controller drops it again once the engine has paused
    Event.DROP: {p: P.READY for p in (P.READY, P.PAUSED, P.FINISHED, P.DIVERGED, P.REVIEWING, P.ERROR)},
}
# a queued Start waits through these events (the engine coming up, a build, the run ready); the
# controller sends it on READY, and any other event drops it
KEEPS_QUEUED_START = frozenset({Event.LAUNCH, Event.BUILD, Event.BUILT, Event.QUEUE_START, Event.ANSWER})


@dataclasses.dataclass(frozen=True)
class RunState:
    phase: Phase = Phase.STOPPED
    end_reason: EndReason | None = None  # why the run ended (FINISHED, DIVERGED, REVIEWING)
    resume: Phase | None = None  # NOT_ANSWERING: the phase to go back to when the engine answers
    end_step: int | None = None  # the step at which the run ended (with end_reason)
    stepped: bool = False  # PAUSED after a single Step (not a Pause)

    # Start was pressed before the engine was ready: a click during start-up is acted on
    start_queued: bool = False

    def on(self, event: Event, reason: EndReason | None = None, step: int | None = None) -> RunState:
        """The state after `event` (`reason` and `step`: why and at which step the run ended, for
        END and REVIEW)."""
        new = self._on(event, reason, step)
        if event is Event.QUEUE_START:
            queued = self.phase in TRANSITIONS[Event.QUEUE_START]
        else:
            queued = self.start_queued and event in KEEPS_QUEUED_START
        queued = queued and new.phase in (P.STARTING, P.BUILDING, P.READY)
        if queued == new.start_queued:
            return new
        return dataclasses.replace(new, start_queued=queued)

    def _on(self, event: Event, reason: EndReason | None, step: int | None) -> RunState:
        if event is Event.ANSWER:
            return dataclasses.replace(self, phase=self.resume, resume=None) if self.phase is P.NOT_ANSWERING else self
        to = TRANSITIONS[event].get(self.phase)
        if to is None:
            return self
        if event is Event.SILENCE:
            return dataclasses.replace(self, phase=P.NOT_ANSWERING, resume=self.phase)
        if event is Event.END:
            return RunState(P.DIVERGED if reason == EndReason.NON_FINITE else P.FINISHED, reason, end_step=step)
        if event is Event.REVIEW:
            return RunState(to, reason, end_step=step)
        if event is Event.STEPPED:
            return RunState(to, stepped=True)
        if to is P.ERROR or to is P.ENGINE_LOST or to is P.STOPPED:
            return RunState(to, self.end_reason, end_step=self.end_step)  # the history of the run stays readable
        return RunState(to)

    @property
    def busy(self) -> bool:
        """The engine trains (or compiles to train)."""
        return self.phase in BUSY

    @property
    def label(self) -> str:
        """The phase in a few words, for the status bar."""
        if self.phase is P.NOT_ANSWERING and self.resume in BUSY:
            return Msg("RunState", "engine not answering (was training)")
        if self.phase is P.PAUSED and self.stepped:
            return STEPPED_LABEL  # what happened, not "paused": nothing was running
        if self.start_queued:
            return Msg("RunState", "{phase} (training starts when ready)").format(phase=LABELS[self.phase])
        return LABELS[self.phase]

    @property
    def notice(self) -> str:
        """What the window says about this run above the graph ("" for nothing): a diverged run
        says where and why it stopped. It belongs to that run, so any other state (a reset, a
        rebuild, a rewind, a new run) clears it."""
        if self.phase is P.DIVERGED and self.end_step is not None:
            return end_message(EndReason.NON_FINITE, self.end_step)
        return ""

    @property
    def start_text(self) -> str:
        """The Start/Pause button's text."""
        return Msg("RunState", "Pause") if self.offers_pause else Msg("RunState", "Start")

    @property
    def offers_pause(self) -> bool:
        """The Start/Pause button pauses (or takes back a queued Start) rather than starting."""
        return self.busy or self.start_queued


LABELS = {
    P.STOPPED: Msg("RunState", "stopped"),
    P.STARTING: Msg("RunState", "starting MindSpore…"),
    P.BUILDING: Msg("RunState", "building…"),
    P.READY: Msg("RunState", "ready"),
    P.COMPILING: Msg("RunState", "compiling…"),
    P.TRAINING: Msg("RunState", "training"),
    P.PAUSED: Msg("RunState", "paused"),
    P.FINISHED: Msg("RunState", "finished"),
    P.DIVERGED: Msg("RunState", "stopped: not finite"),
    P.REVIEWING: Msg("RunState", "saved run"),
    P.ERROR: Msg("RunState", "error"),
    P.NOT_ANSWERING: Msg("RunState", "engine not answering"),
    P.ENGINE_LOST: Msg("RunState", "engine stopped"),
}
STEPPED_LABEL = Msg("RunState", "1 step done")

WHY_NOT_ANSWERING = Msg(
    "RunState", "The engine is not answering: Wait for it, or Restart it (the session and history are kept)."
)
WHY_BUSY_EDIT = Msg("RunState", "Pause to change this: it needs a new run.")
WHY_ALREADY_TRAINING = Msg("RunState", "Already training.")


@dataclasses.dataclass(frozen=True)
class Permissions:
    """For each control, "" if allowed, else why not (a disabled control's tooltip)."""

    reasons: dict
    problems: frozenset = frozenset()  # controls whose reason is something to fix, not a wait or a note

    def ok(self, control: Control) -> bool:
        return not self.reasons[control]

    def why(self, control: Control) -> str:
        return self.reasons[control]

    def problem(self, control: Control) -> bool:
        """Whether `control` is refused because something must be fixed (shown as an error); a
        refusal that only waits (MindSpore is starting, already training) or informs (the run
        finished) is not one."""
        return control in self.problems


# phases whose refusals are problems to fix (the others wait, or inform)
PROBLEM_PHASES = frozenset({P.DIVERGED, P.ERROR, P.NOT_ANSWERING, P.ENGINE_LOST})


def permissions(
    state: RunState,
    problem: str = "",
    steps: int = 0,
    max_steps: int | None = None,
    until_loss: float | None = None,
    last_loss: float = float("nan"),
) -> Permissions:
    """What each control allows in `state`. `problem`: the graph's first problem ("" if it can be
    trained); `steps`: steps in the history; `max_steps`, `until_loss`: the Max steps and Stop at
    loss options; `last_loss`: the loss of the history's last step."""
    p = state.phase
    fix = Msg("RunState", "Fix the graph first: {problem}").format(problem=problem) if problem else ""
    r = {c: "" for c in Control}
    go_on = (steps, max_steps, until_loss, last_loss)
    r[Control.START] = fix or _why_not_go_on(state, *go_on, busy=WHY_ALREADY_TRAINING)
    r[Control.STEP] = fix or _why_not_go_on(
        state, *go_on, busy=Msg("RunState", "Pause first: Step does exactly one step.")
    )
    r[Control.PAUSE] = "" if state.offers_pause else Msg("RunState", "Not training.")
    r[Control.RESET] = fix or {
        P.STARTING: Msg("RunState", "MindSpore is starting…"),
        P.NOT_ANSWERING: WHY_NOT_ANSWERING,
        P.STOPPED: Msg("RunState", "The engine is stopped."),
    }.get(p, "")
    r[Control.CANCEL] = "" if p in (P.STARTING, P.BUILDING, P.COMPILING) else Msg("RunState", "Nothing to cancel.")
    r[Control.EDIT] = r[Control.DEVICE] = (
        WHY_BUSY_EDIT if p in BUSY else WHY_NOT_ANSWERING if p is P.NOT_ANSWERING else ""
    )
    r[Control.SAVE_RUN] = (
        Msg("RunState", "Nothing to save yet: train at least one step.")
        if steps <= 0
        else Msg("RunState", "Pause first to save the run.")
        if p in BUSY
        else ""
    )
    r[Control.WAIT] = r[Control.RESTART] = "" if p is P.NOT_ANSWERING else Msg("RunState", "The engine is answering.")
    r[Control.SCRUB] = (
        Msg("RunState", "Pause to look back through the run.")
        if p in BUSY
        else Msg("RunState", "No steps yet: train at least one step.")
        if steps <= 0 or p is P.READY
        else ""
        if p in (P.PAUSED, P.FINISHED, P.DIVERGED, P.REVIEWING)
        else _why_not_go_on(state, steps, None, None, float("nan"), "")
    )
    r[Control.CONTINUE] = (
        fix
        or r[Control.SCRUB]
        or (Msg("RunState", "Showing a saved run: press Reset to train it again.") if p is P.REVIEWING else "")
    )
    problems = {c for c in (Control.START, Control.STEP) if r[c] and (fix or p in PROBLEM_PHASES)}
    if fix:
        problems |= {Control.RESET, Control.CONTINUE}
    return Permissions(r, frozenset(problems))


def _why_not_go_on(
    state: RunState, steps: int, max_steps: int | None, until_loss: float | None, last_loss: float, busy: str
) -> str:
    p = state.phase
    if p in BUSY:
        return busy
    if p in (P.STARTING, P.BUILDING) and busy is WHY_ALREADY_TRAINING:
        # Start is queued until the run is ready
        return (
            Msg("RunState", "Start was pressed: training starts when the run is ready.") if state.start_queued else ""
        )
    if (
        p is P.FINISHED
        and state.end_reason == EndReason.UNTIL_LOSS
        and end_reason(steps, last_loss, True, None, until_loss) == EndReason.UNTIL_LOSS
    ):
        return Msg(
            "RunState",
            "The loss fell below Stop at loss: lower it or set it to off to train on, or press Reset.",
        )
    if p is P.FINISHED and state.end_reason not in (EndReason.MAX_STEPS, EndReason.UNTIL_LOSS):
        return Msg("RunState", "The run has finished: press Reset to train again.")
    if p in CAN_GO_ON:
        if max_steps is not None and steps >= max_steps:
            return Msg("RunState", "Reached max steps: raise Max steps to go on, or Reset.")
        return ""
    return {
        P.STOPPED: Msg("RunState", "The engine is stopped."),
        P.STARTING: Msg("RunState", "MindSpore is starting…"),
        P.BUILDING: Msg("RunState", "Building the run…"),
        P.DIVERGED: Msg(
            "RunState",
            "Stopped: the loss or a gradient is not finite. Press Reset to train again, or go back with the coach above the plots.",
        ),
        P.REVIEWING: Msg("RunState", "Showing a saved run: press Reset to train it again."),
        P.ERROR: Msg("RunState", "The engine reported an error: press Reset to recover."),
        P.NOT_ANSWERING: WHY_NOT_ANSWERING,
        P.ENGINE_LOST: Msg("RunState", "The engine process stopped: press Reset to start a fresh one."),
    }[p]
