"""The run-state model (gradviz/model/runstate.py): every transition against a hand-written
table, the permissions of each control with their reasons, and invariants over random event
sequences. Qt-free and fast."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradviz.model.runstate import Control, Event, Phase, RunState, permissions

E = Event
ABBR = {
    "ST": Phase.STOPPED,
    "SG": Phase.STARTING,
    "BD": Phase.BUILDING,
    "RD": Phase.READY,
    "CP": Phase.COMPILING,
    "TR": Phase.TRAINING,
    "PS": Phase.PAUSED,
    "FN": Phase.FINISHED,
    "DV": Phase.DIVERGED,
    "RV": Phase.REVIEWING,
    "ER": Phase.ERROR,
    "NA": Phase.NOT_ANSWERING,
    "LO": Phase.ENGINE_LOST,
}

# where each event leads from each phase ("." = stays); END here has reason "max_steps", and
# ANSWER from NOT_ANSWERING goes back to the phase it interrupted (tested below)
COLUMNS = [
    E.LAUNCH,
    E.STOP,
    E.LOSE,
    E.BUILD,
    E.BUILT,
    E.REVIEW,
    E.COMPILE,
    E.TRAIN,
    E.PAUSE,
    E.STEPPED,
    E.END,
    E.FAIL,
    E.SILENCE,
    E.ANSWER,
    E.REWIND,
    E.QUEUE_START,
    E.UNQUEUE,
    E.DROP,
]
TABLE = """
      launch stop lose build built review compile train pause stepped end fail silence answer rewind queue unqueue drop
ST    SG     ST   .    .     .     .      .       .     .     .       .   .    .       .      . .     .     .
SG    SG     ST   LO   BD    .     .      .       .     .     .       .   ER   .       .      . SG    .     .
BD    SG     ST   LO   BD    RD    RV     .       .     .     .       .   ER   NA      .      . BD    .     .
RD    SG     ST   LO   BD    .     .      CP      TR    PS    PS      FN  ER   NA      .      . .     .     RD
CP    SG     ST   LO   BD    .     .      CP      TR    PS    PS      FN  ER   NA      .      . .     .     .
TR    SG     ST   LO   BD    .     .      CP      TR    PS    PS      FN  ER   NA      .      . .     .     .
PS    SG     ST   LO   BD    .     .      CP      TR    PS    PS      FN  ER   NA      .      PS .     .     RD
FN    SG     ST   LO   BD    .     .      CP      TR    PS    PS      FN  ER   NA      .      PS .     .     RD
DV    SG     ST   LO   BD    .     .      .       .     .     .       .   ER   NA      .      PS .     .     RD
RV    SG     ST   LO   BD    .     .      .       .     .     .       .   ER   NA      .      . .     .     RD
ER    SG     ST   LO   BD    .     .      .       .     .     .       .   ER   NA      .      . .     .     RD
NA    SG     ST   LO   .     .     .      .       .     .     .       .   .    .       *      . .     .     .
LO    SG     ST   LO   .     .     .      .       .     .     .       .   .    .       .      . .     .     .
"""
ROWS = [line.split() for line in TABLE.strip().splitlines()[1:]]
CASES = [(ABBR[row[0]], event, cell) for row in ROWS for event, cell in zip(COLUMNS, row[1:])]


def test_the_table_covers_every_phase_and_event():
    assert {ABBR[r[0]] for r in ROWS} == set(Phase) and len(ROWS) == len(Phase)
    assert set(COLUMNS) == set(Event) and all(len(r) == len(COLUMNS) + 1 for r in ROWS)


def _in(phase: Phase) -> RunState:
    """A state in `phase` (NOT_ANSWERING interrupted training)."""
    return RunState(phase, resume=Phase.TRAINING) if phase is Phase.NOT_ANSWERING else RunState(phase)


@pytest.mark.parametrize("phase,event,cell", CASES, ids=[f"{p}-{e}" for p, e, _ in CASES])
def test_every_transition(phase, event, cell):
    before = _in(phase)
    after = before.on(event, "max_steps" if event in (E.END, E.REVIEW) else None)
    if cell == ".":
        assert after == before
    elif cell == "*":
        assert after == RunState(Phase.TRAINING)
    else:
        assert after.phase is ABBR[cell]
        assert (after.resume is not None) == (after.phase is Phase.NOT_ANSWERING)


def test_end_reasons_choose_finished_or_diverged_and_are_kept():
    ready = RunState(Phase.TRAINING)
    assert ready.on(E.END, "non_finite") == RunState(Phase.DIVERGED, "non_finite")
    assert ready.on(E.END, "until_loss") == RunState(Phase.FINISHED, "until_loss")
    done = ready.on(E.END, "until_loss")
    assert done.on(E.FAIL).end_reason == "until_loss"  # the history's end stays readable
    assert done.on(E.LOSE).end_reason == "until_loss"
    assert done.on(E.BUILD) == RunState(Phase.BUILDING)  # a new run has no end yet
    assert RunState(Phase.BUILDING).on(E.REVIEW, "stopped") == RunState(Phase.REVIEWING, "stopped")
    assert done.on(E.TRAIN) == RunState(Phase.TRAINING)  # max steps raised: trains on


def test_silence_then_answer_goes_back_exactly():
    for s in (RunState(Phase.DIVERGED, "non_finite"), RunState(Phase.PAUSED), RunState(Phase.COMPILING)):
        quiet = s.on(E.SILENCE)
        assert quiet.phase is Phase.NOT_ANSWERING and quiet.resume is s.phase
        assert quiet.on(E.SILENCE) == quiet and quiet.on(E.ANSWER) == s


def test_a_start_pressed_during_start_up_waits_for_the_run_to_be_ready():
    s = RunState(Phase.STARTING).on(E.QUEUE_START)
    assert s.start_queued and s.start_text == "Pause" and "training starts when ready" in s.label
    assert permissions(s).ok(C.PAUSE)  # the button takes the queued Start back
    ready = s.on(E.BUILD).on(E.BUILT)  # MindSpore up, the session built: the controller starts
    assert ready == RunState(Phase.READY, start_queued=True)
    assert ready.on(E.TRAIN) == RunState(Phase.TRAINING)  # done: nothing queued any more
    assert s.on(E.UNQUEUE) == RunState(Phase.STARTING) and s.on(E.UNQUEUE).start_text == "Start"
    for dropped_by in (E.FAIL, E.LOSE, E.STOP, E.SILENCE):
        assert not s.on(E.BUILD).on(dropped_by).start_queued
    assert not RunState(Phase.PAUSED).on(E.QUEUE_START).start_queued  # only while starting or building
    assert RunState(Phase.STARTING).on(E.UNQUEUE) == RunState(Phase.STARTING)


def test_a_single_step_says_it_was_done_and_an_end_keeps_its_step():
    for phase in (Phase.READY, Phase.PAUSED, Phase.COMPILING):
        s = RunState(phase).on(E.STEPPED)
        assert s == RunState(Phase.PAUSED, stepped=True) and s.label == "1 step done"
    assert RunState(Phase.TRAINING).on(E.PAUSE).label == "paused"
    assert RunState(Phase.PAUSED, stepped=True).on(E.TRAIN).on(E.PAUSE).label == "paused"
    done = RunState(Phase.TRAINING).on(E.END, "non_finite", 59)
    assert done == RunState(Phase.DIVERGED, "non_finite", end_step=59)
    assert done.on(E.SILENCE).on(E.ANSWER) == done  # the engine answering again changes nothing
    assert done.on(E.FAIL).end_step == 59


def test_the_divergence_notice_belongs_to_the_run_that_diverged():
    diverged = RunState(Phase.TRAINING).on(E.END, "non_finite", 59)
    assert diverged.notice.startswith("Stopped at step 59:") and "(58 updates kept)" in diverged.notice
    # a rebuild (Reset, a preset, a mode switch), a rewind, a new engine: the notice is gone
    for event in (E.BUILD, E.REWIND, E.LAUNCH, E.LOSE, E.FAIL, E.STOP):
        assert diverged.on(event).notice == "", event
    assert diverged.on(E.BUILD).on(E.BUILT).on(E.TRAIN).on(E.END, "max_steps", 23_000).notice == ""
    assert diverged.on(E.SILENCE).notice == "" and diverged.on(E.SILENCE).on(E.ANSWER).notice == diverged.notice
    assert all(RunState(p).notice == "" for p in Phase)


def test_labels_and_start_text():
    assert RunState(Phase.TRAINING).start_text == "Pause" and RunState(Phase.PAUSED).start_text == "Start"
    assert RunState(Phase.DIVERGED, "non_finite").label == "stopped: not finite"
    assert RunState(Phase.TRAINING).on(E.SILENCE).label == "engine not answering (was training)"
    assert RunState(Phase.PAUSED).on(E.SILENCE).label == "engine not answering"
    assert all(RunState(p).label for p in Phase)


# -- permissions ------------------------------------------------------------------------------------
C = Control
ALWAYS = {C.LIVE}
# what each phase allows with a valid graph, 5 steps done of max 10 (FINISHED: by max steps)
ALLOWED = {
    Phase.STOPPED: {C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.STARTING: {C.START, C.CANCEL, C.EDIT, C.DEVICE, C.SAVE_RUN},  # Start: queued until ready
    Phase.BUILDING: {C.START, C.RESET, C.CANCEL, C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.READY: {C.START, C.STEP, C.RESET, C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.COMPILING: {C.PAUSE, C.RESET, C.CANCEL},
    Phase.TRAINING: {C.PAUSE, C.RESET},
    Phase.PAUSED: {C.SCRUB, C.CONTINUE, C.START, C.STEP, C.RESET, C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.FINISHED: {C.SCRUB, C.CONTINUE, C.START, C.STEP, C.RESET, C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.DIVERGED: {C.SCRUB, C.CONTINUE, C.RESET, C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.REVIEWING: {C.SCRUB, C.RESET, C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.ERROR: {C.RESET, C.EDIT, C.DEVICE, C.SAVE_RUN},
    Phase.NOT_ANSWERING: {C.SAVE_RUN, C.WAIT, C.RESTART},
    Phase.ENGINE_LOST: {C.RESET, C.EDIT, C.DEVICE, C.SAVE_RUN},
}


@pytest.mark.parametrize("phase", list(Phase))
def test_what_each_phase_allows(phase):
    s = RunState(
        phase,
        "max_steps" if phase is Phase.FINISHED else None,
        resume=Phase.PAUSED if phase is Phase.NOT_ANSWERING else None,
    )
    p = permissions(s, steps=5, max_steps=10)
    assert {c for c in Control if p.ok(c)} == ALLOWED[phase] | ALWAYS
    for c in Control:
        assert p.ok(c) or p.why(c).endswith((".", "…")), (c, p.why(c))  # a sentence, shown as it is


@pytest.mark.parametrize(
    "phase,control,expected",
    [
        (Phase.TRAINING, C.EDIT, "Pause to change this"),
        (Phase.TRAINING, C.STEP, "Pause first"),
        (Phase.TRAINING, C.SAVE_RUN, "Pause first"),
        (Phase.DIVERGED, C.START, "not finite. Press Reset to train again, or go back with the coach"),
        (Phase.REVIEWING, C.START, "saved run: press Reset"),
        (Phase.ERROR, C.START, "press Reset to recover"),
        (Phase.ENGINE_LOST, C.STEP, "press Reset to start a fresh one"),
        (Phase.NOT_ANSWERING, C.EDIT, "Wait for it, or Restart it"),
        (Phase.NOT_ANSWERING, C.RESET, "Wait for it, or Restart it"),
        (Phase.STARTING, C.STEP, "MindSpore is starting"),
        (Phase.READY, C.RESTART, "The engine is answering."),
        (Phase.TRAINING, C.SCRUB, "Pause to look back"),
        (Phase.TRAINING, C.CONTINUE, "Pause to look back"),
        (Phase.READY, C.SCRUB, "No steps yet"),
        (Phase.REVIEWING, C.CONTINUE, "saved run: press Reset"),
    ],
)
def test_reasons(phase, control, expected):
    p = permissions(
        RunState(phase, resume=Phase.PAUSED if phase is Phase.NOT_ANSWERING else None), steps=5, max_steps=10
    )
    assert not p.ok(control) and expected in p.why(control)


def test_a_finished_run_goes_on_once_its_end_no_longer_holds():
    by_loss = permissions(
        RunState(Phase.FINISHED, "until_loss"), steps=5, max_steps=10, until_loss=1e-3, last_loss=5e-4
    )
    assert "loss fell below Stop at loss" in by_loss.why(C.START) and not by_loss.ok(C.STEP)
    assert not by_loss.problem(C.START)  # a note, not an error
    for until_loss in (None, 4e-4, 5e-4):  # off, or lowered to the last loss or below: trains on
        p = permissions(
            RunState(Phase.FINISHED, "until_loss"), steps=5, max_steps=10, until_loss=until_loss, last_loss=5e-4
        )
        assert p.ok(C.START) and p.ok(C.STEP), until_loss
    stopped = permissions(RunState(Phase.FINISHED, "stopped"), steps=5, max_steps=10)
    assert "press Reset" in stopped.why(C.START)
    at_max = permissions(RunState(Phase.FINISHED, "max_steps"), steps=10, max_steps=10)
    assert "raise Max steps" in at_max.why(C.START) and not at_max.ok(C.STEP)
    assert permissions(RunState(Phase.FINISHED, "max_steps"), steps=10, max_steps=11).ok(C.START)
    assert "raise Max steps" in permissions(RunState(Phase.PAUSED), steps=12, max_steps=10).why(C.STEP)


@pytest.mark.parametrize("phase", list(Phase))
def test_only_something_to_fix_is_a_problem(phase):
    p = permissions(
        RunState(phase, resume=Phase.PAUSED if phase is Phase.NOT_ANSWERING else None), steps=5, max_steps=10
    )
    serious = {Phase.DIVERGED, Phase.ERROR, Phase.NOT_ANSWERING, Phase.ENGINE_LOST}
    for c in (C.START, C.STEP):
        assert p.problem(c) == (not p.ok(c) and phase in serious), (c, p.why(c))
    starting = permissions(RunState(Phase.STARTING))
    assert starting.why(C.STEP) == "MindSpore is starting…" and not starting.problem(C.STEP)
    assert starting.ok(C.START)  # queued until the run is ready


def test_a_graph_problem_blocks_training_and_says_which():
    p = permissions(RunState(Phase.READY), problem="Add \"z\": input port 'b' is not connected")
    for c in (C.START, C.STEP, C.RESET):
        assert p.why(c) == "Fix the graph first: Add \"z\": input port 'b' is not connected"
    assert p.ok(C.EDIT)  # so that it can be fixed
    assert all(p.problem(c) for c in (C.START, C.STEP, C.RESET))
    assert "train at least one step" in p.why(C.SAVE_RUN)


# -- random event sequences -------------------------------------------------------------------------
events = st.tuples(st.sampled_from(list(Event)), st.sampled_from(["max_steps", "until_loss", "non_finite", "stopped"]))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(events, max_size=40), st.integers(0, 20), st.integers(1, 20), st.booleans())
def test_invariants_over_random_event_sequences(seq, steps, max_steps, broken):
    s = RunState()
    for event, reason in seq:
        prev, s = s, s.on(event, reason)
        if event is E.LAUNCH:  # a fresh start; a Start clicked meanwhile stays queued (KEEPS_QUEUED_START)
            assert s == RunState(Phase.STARTING, start_queued=prev.start_queued)
        if event is E.STOP:
            assert s.phase is Phase.STOPPED
        if event is E.ANSWER and prev.phase is Phase.NOT_ANSWERING:
            assert s.phase is prev.resume and s.end_reason == prev.end_reason
        if s.phase in (Phase.BUILDING, Phase.READY, Phase.TRAINING, Phase.PAUSED, Phase.COMPILING):
            assert s.end_reason is None  # a run in progress has not ended
        p = permissions(s, problem="broken" if broken else "", steps=steps, max_steps=max_steps)
        assert not (s.busy and p.ok(C.EDIT)), s  # never training and editable at once
        assert not (s.busy and p.ok(C.DEVICE)), s
        assert p.ok(C.PAUSE) == s.offers_pause == (s.busy or s.start_queued)
        assert s.start_queued <= (s.phase in (Phase.STARTING, Phase.BUILDING, Phase.READY))
        assert not (p.ok(C.START) and p.ok(C.PAUSE))
        assert p.ok(C.WAIT) == p.ok(C.RESTART) == (s.phase is Phase.NOT_ANSWERING)
        assert (s.resume is not None) == (s.phase is Phase.NOT_ANSWERING)
        assert s.resume not in (Phase.NOT_ANSWERING, Phase.STOPPED, Phase.STARTING, Phase.ENGINE_LOST)
        assert (s.phase is Phase.DIVERGED) <= (s.end_reason == "non_finite")
        assert (s.phase is Phase.FINISHED) <= (s.end_reason in ("max_steps", "until_loss", "stopped"))
        if p.ok(C.START) or p.ok(C.STEP):
            assert not broken
            if s.phase in (Phase.STARTING, Phase.BUILDING):  # Start is queued until ready (Step is not)
                assert p.ok(C.START) and not p.ok(C.STEP) and not s.start_queued
            else:
                assert s.phase in (Phase.READY, Phase.PAUSED, Phase.FINISHED) and steps < max_steps
        if broken:
            assert not (p.ok(C.START) or p.ok(C.STEP) or p.ok(C.RESET))
        if s.phase is Phase.NOT_ANSWERING:
            assert s.on(E.ANSWER).on(E.SILENCE) == s
