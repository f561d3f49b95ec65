"""Full training states: restoring any step and training on repeats the original run, for every
optimizer in both modes, with the learning rate in force at each step."""

import numpy as np
import pytest

from gradviz.engine.checkpoints import Checkpoints, LrSchedule, TrainingState
from gradviz.engine.engine import Engine
from gradviz.engine.run_end import finish_step
from gradviz.model.graph import initial_values
from gradviz.model.presets import load_preset
from reference import NumpyOptimizer, grads_for

MODES = ("pynative", "graph")


def tutorial(**opts):
    s = load_preset("tutorial")
    for k, v in opts.items():
        setattr(s.options, k, v)
    return s


def run(e, n):
    return [e.step().row.copy() for _ in range(n)]


@pytest.mark.parametrize("optimizer", ["sgd", "momentum", "adam"])
@pytest.mark.parametrize("mode", MODES)
def test_restoring_step_k_and_training_on_repeats_the_run(optimizer, mode):
    e = Engine(tutorial(optimizer=optimizer, mode=mode, lr=0.05, aux_output=True))
    e.checkpoints.interval = 8  # several kept states, and steps to replay between them
    original = run(e, 20)
    e.set_lr(0.02)  # a change mid-run: step 21 on
    original += run(e, 20)
    for k in (0, 5, 16, 23, 39):
        e.rewind(k)  # the abandoned future's learning-rate change goes with it
        assert e.updates == k
        again = run(e, max(20 - k, 0))
        if k < 20:
            e.set_lr(0.02)
        again += run(e, 40 - e.updates)
        np.testing.assert_allclose(np.array(again), np.array(original[k:]), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(np.array(original)[:, 1], np.float32([0.05] * 20 + [0.02] * 20))


@pytest.mark.parametrize("optimizer", ["momentum", "adam"])
def test_a_graph_batch_that_runs_past_the_end_is_undone_whole(optimizer):
    """A Graph-mode batch ends 5 steps into the second batch: the optimizer's state too goes back
    to the updates before that step, exactly as numpy's optimizer after as many updates."""
    s = tutorial(optimizer=optimizer, mode="graph", lr=0.05)
    e = Engine(s)
    e.fix_steps_per_call(8)
    end = e.batch_size + 5  # the step where the run ends
    e.steps_block(limit=8)  # one call of 8 steps each
    first, rows, ms = e.steps_block(limit=8)
    r = e.block_results(first, rows, ms)[end - first]
    e.undo_last_update(r)
    assert e.updates == end - 1
    ref = NumpyOptimizer(optimizer, 0.05)
    params = {k: v.astype(np.float64) for k, v in initial_values(s.graph, 42).items() if k in ("w", "b")}
    for _ in range(end - 1):
        _, g, _ = grads_for(s, params)
        params = ref.update(params, {"w": g["w"], "b": g["b"]})
    got = e.current_params()
    for k in ("w", "b"):
        np.testing.assert_allclose(got[k], params[k], rtol=1e-5, atol=1e-6)
    state = e.state()
    moment = "moments" if optimizer == "momentum" else "moment1"
    np.testing.assert_allclose(state.optimizer[f"{moment}.gv_b"], ref.m["b"], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(e.step().row, rows[end - first])  # that step again, the same numbers


@pytest.mark.parametrize("mode", MODES)
def test_an_end_by_stop_at_loss_keeps_k_minus_1_updates(mode):
    s = load_preset("linreg_seed")
    s.options.mode = mode
    s.options.optimizer = "adam"
    s.options.lr = 0.5
    s.options.until_loss = 1.0
    e = Engine(s)
    reason = None
    while reason is None:
        r = e.step()
        reason = finish_step(e, r)
    assert reason == "until_loss" and e.updates == r.step - 1
    again = e.step()
    assert again.step == r.step and again.loss == r.loss


def test_state_round_trip_and_restore_on_a_fresh_engine():
    a = Engine(tutorial(optimizer="adam", lr=0.05))
    run(a, 7)
    state = a.state()
    later = run(a, 5)
    b = Engine(tutorial(optimizer="adam", lr=0.05))
    b.restore(state)
    assert b.updates == 7
    np.testing.assert_array_equal(np.array(run(b, 5)), np.array(later))


def test_checkpoints_stay_within_their_budget():
    state = TrainingState(0, {"w": np.zeros(1000, np.float32)}, {}, 0.1)
    c = Checkpoints(interval=1, budget=10 * state.nbytes)
    for k in range(100):  # as the engine does: a state each time one is due
        if c.due(k):
            c.keep(TrainingState(k, state.params, {}, 0.1))
    assert len(c) <= 10 and c.interval == 16
    kept = sorted(c._states)
    assert kept[0] == 0 and all(b - a >= 8 for a, b in zip(kept, kept[1:]))
    assert c.at_or_before(5).updates == 0 and 99 - c.at_or_before(99).updates < 16


def test_states_are_kept_after_a_rewind_off_the_interval():
    e = Engine(tutorial(optimizer="adam", lr=0.05, mode="graph"))
    e.checkpoints.interval = 16
    e.fix_steps_per_call(8)
    for _ in range(4):
        e.steps_block(limit=8)  # 4 batches of 8
    e.rewind(13)
    starts = []
    for _ in range(4):
        starts.append(e.updates)
        e.steps_block(limit=8)  # from 13: no batch starts at a multiple of the interval
    assert all(k % 16 for k in starts)
    assert max(e.checkpoints._states) > 13 + 16  # kept on the way all the same


def test_lr_schedule():
    s = LrSchedule([(1, 0.1)])
    s.set(11, 0.05)
    s.set(21, 0.01)
    assert [s.at(k) for k in (1, 10, 11, 20, 21, 99)] == [0.1, 0.1, 0.05, 0.05, 0.01, 0.01]
    s.truncate(15)
    assert s.changes == [(1, 0.1), (11, 0.05)]
