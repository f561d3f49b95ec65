"""Blocks of steps recorded straight into recorded rows (Engine.recorded_block): a summarised
tensor summarised from its Parameter's memory and the call's output, never copied into a full row.
The rows are the very numbers the full rows reduce to (RecordingPlan.reduce), which float64
numpy agrees with, and a run ends at the same step, with the same rows, as step by step."""

import numpy as np
import pytest

from gradviz.engine import protocol as msg
from gradviz.engine.engine import Engine
from gradviz.engine.process import Server
from gradviz.engine.run_end import finish_step
from gradviz.model.layout import Layout, row_slices
from gradviz.model.presets import load_preset
from gradviz.model.recording import STATS, RecordingPlan, quantile_indices, sample_indices, QUANTILES
from reference import first_overflow, replay
from standin import RecordingPipe

MODES = ("pynative", "graph")
NONE = Layout([], [])


def _wide(mode: str, **opts):
    """The tutorial graph with a 40x12 weight: above the per-element limit, so it is summarised."""
    s = load_preset("tutorial")
    s.graph["x"].shape = (40,)
    s.graph["w"].shape = (40, 12)
    s.graph["b"].shape = (12,)
    s.graph["y"].shape = (12,)
    s.options.mode, s.options.api, s.options.steps = mode, "value_and_grad", 1000
    for k, v in opts.items():
        setattr(s.options, k, v)
    return s


def _train(e: Engine, steps: int, block) -> np.ndarray:
    rows = []
    while e.updates < steps:
        rows.append(block(limit=steps - e.updates)[1])
    return np.concatenate(rows)


def _stats64(x) -> np.ndarray:
    flat = np.asarray(x, np.float64).reshape(-1)
    q = np.quantile(flat[quantile_indices(flat.size)], QUANTILES)
    return np.array([np.sqrt(np.sum(flat**2)), flat.min(), flat.max(), flat.mean(), *q])


@pytest.mark.parametrize("mode,per_call", [("pynative", 1), ("graph", 1), ("graph", 4)])
def test_recorded_blocks_are_the_full_rows_reduced_bit_for_bit_and_numpy_agrees(mode, per_call):
    s = _wide(mode, aux_output=True)
    direct, full = Engine(s), Engine(s)
    assert direct.plan.layouts[0].summaries == {"w": (40, 12)}
    if mode == "graph":
        for e in (direct, full):
            e.fix_steps_per_call(per_call)
    first = direct.recorded_block(limit=per_call)[1]  # the first block learns how outputs are read

    def refuse(limit=None):
        raise AssertionError("the recorded block went through full rows")

    direct.steps_block = refuse
    got = np.concatenate([first, _train(direct, 12, direct.recorded_block)])
    want = full.plan.reduce(_train(full, 12, full.steps_block))
    assert got.shape == want.shape == (12, direct.plan.width)
    np.testing.assert_array_equal(got.view(np.int32), want.view(np.int32))  # the same bits, NaN or not
    rp, rg, _ = direct.plan.layouts
    pc, gc, _ = row_slices(rp, rg)
    for row, (_, loss, g, params) in zip(got, replay(s, 12)):
        assert row[0] == pytest.approx(loss, rel=1e-5)
        for layout, cols, want_t in ((rp, pc, params), (rg, gc, g)):
            rec = layout.unflatten(row[cols])
            w = np.asarray(want_t["w"], np.float64).reshape(-1)
            scale = np.abs(w).max()
            np.testing.assert_allclose(rec["w"][: len(STATS)], _stats64(w), rtol=1e-5, atol=1e-6 * scale)
            np.testing.assert_allclose(rec["w"][len(STATS) :], w[sample_indices(w.size)], rtol=1e-5, atol=1e-6 * scale)
            np.testing.assert_allclose(rec["b"], want_t["b"], rtol=1e-5, atol=1e-6)
    direct.close()
    full.close()


def test_finiteness_from_recorded_rows_is_that_of_every_gradient_element():
    """A summarised gradient is finite iff its min and max are: huge but finite values (whose
    norm overflows float32) go on; one NaN or infinity anywhere stops."""
    params = Layout(["w", "b"], [(30, 20), (3,)])
    plan = RecordingPlan(params, params, NONE)
    assert plan.layouts[1].summaries == {"w": (30, 20)}
    _, gc, _ = row_slices(params, params)
    rng = np.random.default_rng(1)
    for trial in range(200):
        rows = rng.standard_normal((6, 2 + 2 * 603)).astype(np.float32)
        for _ in range(rng.integers(0, 4)):
            i, what = rng.integers(0, 6), rng.integers(0, 3)
            col = rng.integers(gc.start, gc.stop) if what else rng.integers(2, gc.start)  # a gradient or a parameter
            rows[i, col] = rng.choice([np.nan, np.inf, -np.inf, 3e38, -3e38])
            if what == 2:
                rows[i, gc] = 3e38  # every element huge: the norm overflows
        want = np.isfinite(rows[:, gc]).all(axis=1)
        np.testing.assert_array_equal(plan.finite(plan.reduce(rows)), want, err_msg=str(trial))


def test_a_block_of_recorded_rows_ends_where_its_full_rows_say():
    """recorded_end on recorded rows: the first step whose loss or any gradient element (of the
    full row) is not finite, whose loss is below the target in double precision, or that
    reaches max steps."""
    from types import SimpleNamespace

    from gradviz.engine.run_end import recorded_end

    params = Layout(["w", "b"], [(30, 20), (3,)])
    plan = RecordingPlan(params, params, NONE)
    _, gc, _ = row_slices(params, params)
    rng = np.random.default_rng(2)
    for trial in range(400):
        until = [None, 0.5 + 1e-12][trial % 2]
        e = SimpleNamespace(plan=plan, session=SimpleNamespace(options=SimpleNamespace(steps=60, until_loss=until)))
        rows = rng.uniform(0.6, 2.0, (8, 2 + 2 * 603)).astype(np.float32)
        for _ in range(rng.integers(0, 3)):
            i, what = rng.integers(0, 8), rng.integers(0, 5)
            if what == 0:
                rows[i, 0] = rng.choice([np.nan, np.inf, -np.inf])
            elif what == 1:
                rows[i, rng.integers(gc.start, gc.stop)] = rng.choice([np.nan, np.inf, -np.inf])
            elif what == 2:
                rows[i, 0] = rng.uniform(0.0, 0.5)
            elif what == 3:
                rows[i, gc] = 3e38  # huge but finite
            else:
                rows[i, 0] = np.float32(0.5)  # the float32 rounding of the target: below it in double
        first = int(rng.integers(1, 60))
        ends = [
            not (np.isfinite(r[0]) and np.isfinite(r[gc]).all())
            or (until is not None and float(r[0]) < until)
            or first + k >= 60
            for k, r in enumerate(rows)
        ]
        assert recorded_end(e, first, plan.reduce(rows)) == (ends.index(True) if any(ends) else None), trial


@pytest.mark.parametrize("mode", MODES)
def test_a_run_that_diverges_inside_a_block_ends_as_step_by_step(mode):
    s = load_preset("big")  # made smaller: MSE of x @ w + b, which diverges at this rate
    s.graph["x"].shape, s.graph["w"].shape = (40,), (40, 12)
    s.graph["b"].shape = s.graph["y"].shape = (12,)
    s.options.mode, s.options.lr, s.options.steps = mode, 0.4, 2000
    # step by step, with full rows, as the headless run trains
    e = Engine(s)
    want, reason = [], None
    while reason is None:
        r = e.step()
        want.append(e.plan.reduce_row(r.row))
        reason = finish_step(e, r)
    k = r.step
    assert reason == "non_finite" and k > 64  # past the first block
    assert abs(k - first_overflow(s, 2000)[0]) <= 5  # float32 overflows a little before float64's range
    # flat out in the engine process: recorded blocks
    pipe = RecordingPipe()
    srv = Server(pipe)
    srv.build(1, s.to_dict())
    srv.start()
    while srv.running:
        srv.train_slice()
    ended = [m for m in pipe.sent if isinstance(m, msg.Ended)]
    assert [(m.reason, m.step) for m in ended] == [("non_finite", k)]
    steps = np.concatenate([m.steps for m in pipe.sent if isinstance(m, msg.Batch)])
    rows = np.concatenate([m.rows for m in pipe.sent if isinstance(m, msg.Batch)])
    assert steps.tolist() == list(range(1, k + 1))
    np.testing.assert_array_equal(rows.view(np.int32), np.stack(want).view(np.int32))
    assert srv.engine.updates == e.updates == k - 1
    for n, v in e.current_params().items():
        np.testing.assert_array_equal(srv.engine.current_params()[n], v)
    srv.engine.close()
    e.close()
