"""The engine against analytic numpy gradients, the tutorial's observations and the seeds."""

import itertools

import numpy as np
import pytest

from types import SimpleNamespace

from gradviz.engine import engine as engine_module
from gradviz.engine.engine import STEPS_PER_CALL, TUNE_CALLS, Engine
from gradviz.model.presets import load_preset
from gradviz.model.session import Session
from gradviz.engine.run_end import finish_step
from reference import NumpyOptimizer, first_overflow, forward, grads_for, replay
from gradviz.model.graph import initial_values

APIS = ("grad", "value_and_grad", "cell")
MODES = ("pynative", "graph")
AUX_OPTIONS = [
    (False, False, False),
    (True, False, False),
    (True, True, False),
    (True, False, True),
    (True, True, True),
]


def tutorial(**opts):
    s = load_preset("tutorial")
    for k, v in opts.items():
        setattr(s.options, k, v)
    return s


@pytest.mark.parametrize("api,mode", list(itertools.product(APIS, MODES)))
def test_every_option_matches_numpy(api, mode):
    for aux, sg, ha in AUX_OPTIONS:
        s = tutorial(api=api, mode=mode, aux_output=aux, stop_gradient=sg, has_aux=ha)
        e = Engine(s)
        loss, g, v = grads_for(s)
        r = e.step()
        got = e.grad_layout.unflatten(r.grads)
        assert r.loss == pytest.approx(loss, rel=1e-6)
        np.testing.assert_allclose(got["w"], g["w"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got["b"], g["b"], rtol=1e-5, atol=1e-6)
        if aux:
            np.testing.assert_allclose(e.aux_layout.unflatten(r.aux)["z"], v["z"], rtol=1e-6)


def test_tutorial_observations():
    """The tutorial's four grad calls, with np.random.seed(42) values (notes/mindspore.md)."""

    def db(**o):
        e = Engine(tutorial(**o))
        r = e.step()
        assert r.loss == pytest.approx(1.3423151, abs=1e-6)
        return e.grad_layout.unflatten(r.grads)

    plain = db()
    np.testing.assert_allclose(plain["b"], [0.326, 0.016, 0.042], atol=1e-3)
    with_z = db(aux_output=True)
    np.testing.assert_allclose(with_z["b"], plain["b"] + 1, rtol=1e-6)  # each db grows by 1
    np.testing.assert_allclose(with_z["w"], plain["w"] + np.ones((5, 1)), rtol=1e-6)  # dw by x
    for o in ({"stop_gradient": True}, {"has_aux": True}):
        back = db(aux_output=True, **o)
        np.testing.assert_allclose(back["b"], plain["b"], rtol=1e-6)
        np.testing.assert_allclose(back["w"], plain["w"], rtol=1e-6)


def test_has_aux_still_returns_z():
    e = Engine(tutorial(aux_output=True, has_aux=True))
    r = e.step()
    _, _, v = grads_for(tutorial())
    np.testing.assert_allclose(e.aux_layout.unflatten(r.aux)["z"], v["z"], rtol=1e-6)


@pytest.mark.parametrize("optimizer", ["sgd", "momentum", "adam"])
@pytest.mark.parametrize("mode", MODES)
def test_training_follows_numpy_optimizer(optimizer, mode):
    s = tutorial(optimizer=optimizer, mode=mode, lr=0.05, aux_output=True)
    e = Engine(s)
    ref = NumpyOptimizer(optimizer, 0.05)
    params = {k: v.astype(np.float64) for k, v in initial_values(s.graph, 42).items() if k in ("w", "b")}
    for _ in range(5):
        loss, g, _ = grads_for(s, params)
        r = e.step()
        got = e.param_layout.unflatten(r.params)
        np.testing.assert_allclose(got["w"], params["w"], rtol=1e-4, atol=1e-5)
        assert r.loss == pytest.approx(loss, rel=1e-5)
        params = ref.update(params, {"w": g["w"], "b": g["b"]})
    np.testing.assert_allclose(e.current_params()["b"], params["b"], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("api,mode", list(itertools.product(APIS, MODES)))
def test_linreg_seed_reproduced_step_for_step(api, mode):
    """The MindSpore loop of seed 000: loss 25290.72 at loop 0, stop at loop 299 (0.00099342)."""
    s = load_preset("linreg_seed")
    s.options.mode = mode
    s.options.api = api
    e = Engine(s)
    first = e.step()
    assert first.loss == pytest.approx(25290.72, rel=1e-6)
    after = e.current_params()
    np.testing.assert_allclose(after["weight"], [4.716075], rtol=1e-6)
    np.testing.assert_allclose(after["bias"], [0.94298875, 3.8777747], rtol=1e-6)
    second = e.step()
    assert second.loss == pytest.approx(22346.92, rel=1e-6)
    reason, r = None, second
    while reason is None:
        r = e.step()
        reason = finish_step(e, r)
    assert reason == "until_loss"
    assert r.step == 300  # loops 0..299 of the seed
    assert r.loss == pytest.approx(0.0009934219, rel=1e-3)
    np.testing.assert_allclose(e.current_params()["weight"], [83.50287], rtol=1e-4)  # update not kept


def test_linreg_reaches_target_like_pytorch_seed():
    s = load_preset("linreg")
    e = Engine(s)
    reason = None
    while reason is None:
        r = e.step()
        reason = finish_step(e, r)
    k, kept = next((k, p) for k, loss, _, p in replay(s, 1000) if loss < s.options.until_loss)
    assert reason == "until_loss" and r.step == k  # the first step below the target, as in numpy
    p = e.current_params()  # that step's update is not kept
    for n in ("weight", "bias"):
        np.testing.assert_allclose(p[n], kept[n], rtol=1e-4)
    np.testing.assert_allclose(forward(s.graph, {**initial_values(s.graph, 42), **p})["pred"], [101, 202], atol=0.1)


def test_pytorch_seed_initial_values_match_its_first_step():
    """Seed 000's PyTorch run: weight 1.0824, bias [1.0168, -0.8306] -> loss 25024.06, then 6.0848."""
    s = load_preset("linreg_seed")
    s.graph["weight"].values = [1.0824]
    s.graph["bias"].values = [1.0168, -0.8306]
    e = Engine(s)
    r = e.step()
    assert r.loss == pytest.approx(25024.0586, rel=1e-4)
    np.testing.assert_allclose(e.current_params()["weight"], [6.0848], atol=2e-3)
    np.testing.assert_allclose(e.current_params()["bias"], [2.0058, 1.1760], atol=2e-3)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("aux,sg,ha", AUX_OPTIONS)
def test_node_snapshot_values_and_gradients(aux, sg, ha, mode):
    s = tutorial(aux_output=aux, stop_gradient=sg, has_aux=ha, mode=mode)
    e = Engine(s)
    snap = e.node_snapshot()
    assert snap.step == 0
    _, g, v = grads_for(s)
    for name in ("x", "w", "b", "matmul", "z", "loss"):
        np.testing.assert_allclose(snap.values[name], v[name], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(snap.grads[name], g[name], rtol=1e-5, atol=1e-6)
    e.step()
    after = e.node_snapshot()  # at the parameters after one update
    params = {k: v for k, v in e.current_params().items()}
    _, g1, v1 = grads_for(s, params)
    assert after.step == 1
    np.testing.assert_allclose(after.grads["w"], g1["w"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(after.values["z"], v1["z"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("aux,sg,ha", AUX_OPTIONS)
def test_pynative_compiles_the_side_pass_while_training_with_the_same_numbers(aux, sg, ha):
    """PyNative runs the node side pass as PyNative until a snapshot is taken while training;
    from then on it is compiled, and its numbers are still the float64 reference's."""
    s = tutorial(aux_output=aux, stop_gradient=sg, has_aux=ha, mode="pynative")
    e = Engine(s)
    e.node_snapshot()
    assert not e.snapshot_compiled  # a build, a step, a pause: never waits for a compile
    for _ in range(3):
        e.step()
    snap = e.node_snapshot(training=True)
    assert e.snapshot_compiled and snap.step == 3
    _, g, v = grads_for(s, e.current_params())
    for name in ("x", "w", "b", "matmul", "z", "loss"):
        np.testing.assert_allclose(snap.values[name], v[name], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(snap.grads[name], g[name], rtol=1e-5, atol=1e-6)
    e.step()  # the compiled pass reads the Parameters as the optimizer left them
    later = e.node_snapshot()
    assert e.snapshot_compiled and later.step == 4
    _, g, v = grads_for(s, e.current_params())
    np.testing.assert_allclose(later.grads["b"], g["b"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(later.values["loss"], v["loss"], rtol=1e-5, atol=1e-6)


def test_a_side_pass_that_does_not_compile_keeps_pynatives(monkeypatch):
    """Where MindSpore cannot compile the side pass, PyNative's runs on: the nodes still come,
    with the reference's numbers, and no compile is tried again."""
    e = Engine(tutorial(aux_output=True, mode="pynative"))
    tries = []

    def refuse(fn):
        def compiled(*args):
            tries.append(fn)
            raise RuntimeError("no graph for this")

        return compiled

    monkeypatch.setattr(e._ms, "jit", refuse)
    snap = e.node_snapshot(training=True)
    assert not e.snapshot_compiled and len(tries) == 1
    _, g, v = grads_for(e.session)
    np.testing.assert_allclose(snap.grads["b"], g["b"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(snap.values["z"], v["z"], rtol=1e-5, atol=1e-6)
    e.node_snapshot(training=True)
    assert len(tries) == 1


def test_learning_rate_changes_mid_run_in_graph_mode():
    s = load_preset("linreg")
    s.options.mode = "graph"
    e = Engine(s)
    e.step()
    before = e.current_params()
    e.set_lr(0.0001)
    r = e.step()
    after = e.current_params()
    g = e.grad_layout.unflatten(r.grads)
    np.testing.assert_allclose(after["bias"], before["bias"] - 0.0001 * g["bias"], rtol=1e-5)


def test_divergence_stops_at_the_first_non_finite_step():
    s = load_preset("linreg")
    s.options.lr = 100.0
    e = Engine(s)
    reason = None
    while reason is None:
        r = e.step()
        reason = finish_step(e, r)
    k, kept = first_overflow(s, 50)
    assert reason == "non_finite" and not r.finite and r.step == k
    for n, v in e.current_params().items():  # the k-1 earlier updates are kept, step k's is not
        assert np.all(np.isfinite(v))
        np.testing.assert_allclose(v, kept[n], rtol=1e-4)


def test_requires_grad_false_parameter_is_not_trained():
    s = tutorial()
    s.graph["b"].requires_grad = False
    e = Engine(s)
    r = e.step()
    assert e.grad_layout.names == ["w"]
    b0 = initial_values(s.graph, 42)["b"]
    np.testing.assert_array_equal(e.current_params()["b"], b0)
    _, g, _ = grads_for(s)
    np.testing.assert_allclose(e.grad_layout.unflatten(r.grads)["w"], g["w"], rtol=1e-5)


def test_graph_mode_batches_match_single_steps_and_numpy():
    s = tutorial(mode="graph", aux_output=True)
    batched, single = Engine(s), Engine(s)
    results = batched.block_results(*batched.steps_block())  # one step's call, compiled
    assert len(results) == 1 and batched.needs_compile(batch=True)
    results += batched.block_results(*batched.steps_block())  # the steps trained while measuring
    assert batched.batch_size in STEPS_PER_CALL and len(results) >= 1 + 3 * TUNE_CALLS
    results += batched.block_results(*batched.steps_block())  # then batches of the chosen size
    for r in results:
        one = single.step()
        assert r.step == one.step
        assert r.loss == pytest.approx(one.loss, rel=1e-6)
        np.testing.assert_allclose(r.params, one.params, rtol=1e-6)
        np.testing.assert_allclose(r.grads, one.grads, rtol=1e-6)
        np.testing.assert_allclose(r.aux, one.aux, rtol=1e-6)
    loss, g, _ = grads_for(s)
    assert results[0].loss == pytest.approx(loss, rel=1e-6)


@pytest.mark.parametrize(
    "call_us, step_us, cliff, chosen, delayed, busy_ms",
    [
        (80, 100, None, 8, False, 0),  # a call's fixed cost: the largest size amortises it best
        (80, 100, 4, 2, False, 0),  # from 4 steps a call the step is 3x slower (MindSpore's actor threads)
        (1, 5000, None, 1, False, 0),  # a long step: larger calls gain less than TUNE_GAIN
        (80, 100, None, 8, True, 0),  # every 4th call of 8 steps held up 20x (the window took the core)
        # for the first 40 ms every call takes 4x as long (the window starting to draw): one size
        # measured after the other, 2 steps a call would win although each is 3x slower
        (80, 100, 2, 1, False, 40),
    ],
)
def test_steps_per_call_are_chosen_by_measuring(monkeypatch, call_us, step_us, cliff, chosen, delayed, busy_ms):
    e = Engine(tutorial(mode="graph"))
    clock = [0.0]
    calls = []

    def run_into(recs):  # a cost model in place of MindSpore's calls, timed by a fake clock
        steps = len(recs)
        calls.append(steps)
        e._batches.setdefault(steps, None)  # compiled on its first call, as Engine._batch_fn keeps it
        held = 20 if delayed and steps == 8 and calls.count(steps) % 4 == 0 else 1
        held *= 4 if clock[0] < busy_ms * 1e-3 else 1
        clock[0] += 1e-6 * held * (call_us + steps * step_us * (3 if cliff and steps >= cliff else 1))
        recs[:] = 0.0

    monkeypatch.setattr(e, "_run_into", run_into)
    monkeypatch.setattr(engine_module, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    assert e.needs_compile(batch=True) and e.batch_size == 1
    first, rows, _ = e.steps_block()  # the first block: one step's call (it compiles), shown at once
    assert first == 1 and len(rows) == 1 and calls == [1] and e.needs_compile(batch=True)
    first, rows, _ = e.steps_block()  # then the measurement
    assert first == 2 and len(rows) == sum(calls) - 1 == e.updates - 1
    assert e.batch_size == chosen and not e.needs_compile(batch=True)
    tried = sorted(set(calls))
    assert tried == [k for k in STEPS_PER_CALL if k <= max(tried)] and max(tried) >= chosen
    calls.clear()
    first, rows, _ = e.steps_block()  # then blocks of calls of the chosen size
    assert set(calls) == {chosen} and len(rows) == sum(calls) == e.updates - first + 1


def _with_parameter_output(s):
    """The session with one more Output, returning the Parameter w itself (z returned too)."""
    d = s.to_dict()
    d["graph"]["nodes"].append({"name": "w_out", "kind": "Output", "inputs": {"x": "w"}})
    out = Session.from_dict(d)
    out.options.aux_output = True
    return out


def _full_batch(s):
    """The session with its Dataset's first mini-batch pasted as the Inputs' values (a batch of
    several steps per call needs Inputs that stay the same)."""
    init = initial_values(s.graph, s.options.seed)
    for n in s.graph.data_inputs():
        node = s.graph[n.name]
        node.init, node.shape, node.values = "values", tuple(n.shape), init[n.name].tolist()
    s.graph.nodes = [n for n in s.graph.nodes if n.kind != "Dataset"]
    return s


@pytest.mark.parametrize(
    "make",
    [
        lambda: load_preset("linreg_seed"),
        lambda: _full_batch(load_preset("mlp")),
        lambda: tutorial(aux_output=True, has_aux=True),
        lambda: _with_parameter_output(tutorial()),
    ],
    ids=["linreg_seed", "mlp", "tutorial_has_aux", "parameter_output"],
)
def test_a_batch_records_what_single_steps_record(make):
    """4 steps in one compiled call record each step's loss, parameters before its update,
    gradients and auxiliary outputs as 4 calls of one step do."""
    s = make()
    s.options.mode = "graph"
    batched, single = Engine(s), Engine(s)
    batched.fix_steps_per_call(4)
    for _ in range(2):
        first, rows, _ = batched.steps_block(limit=8)
        assert len(rows) in (4, 8)  # one or two calls (BLOCK_SECONDS)
        for r in batched.block_results(first, rows, 0.0):
            one = single.step()
            assert r.step == one.step
            np.testing.assert_allclose(r.row, one.row, rtol=1e-6, atol=1e-7)


def test_measuring_stops_at_the_limit_and_goes_on_next_time():
    e = Engine(tutorial(mode="graph"))
    first, rows, _ = e.steps_block(limit=5)  # one step's call, compiled
    assert len(rows) == 1 == e.updates and e.needs_compile(batch=True)
    first, rows, _ = e.steps_block(limit=4)  # the run has 4 steps left: too few to measure
    assert len(rows) == 4 and e.updates == 5 and e.needs_compile(batch=True) and e.batch_size == 1
    first, rows, _ = e.steps_block()
    assert first == 6 and len(rows) >= 3 * TUNE_CALLS and e.batch_size in STEPS_PER_CALL
    single = Engine(tutorial(mode="graph"))
    for _ in range(6):
        one = single.step()
    r = e.block_results(first, rows, 0)[0]
    assert r.step == one.step == 6 and r.loss == pytest.approx(one.loss, rel=1e-6)
    np.testing.assert_allclose(r.params, one.params, rtol=1e-6)


def test_run_ending_inside_a_batch_undoes_the_later_updates():
    s = load_preset("linreg_seed")
    s.options.mode = "graph"
    e = Engine(s)
    e.fix_steps_per_call(8)  # 300 is inside a batch (8 * 37 + 4)
    reason = None
    while reason is None:
        for r in e.block_results(*e.steps_block()):
            reason = finish_step(e, r)
            if reason:
                break
    assert reason == "until_loss" and r.step == 300 and e.updates == 299  # step 300 computed, its update not kept
    np.testing.assert_allclose(e.current_params()["weight"], [83.50287], rtol=1e-4)
    again = e.step()  # the state is that before step 300's update, optimizer included: step 300 again
    assert again.step == 300 and again.loss == r.loss
    np.testing.assert_array_equal(again.params, r.params)
    np.testing.assert_array_equal(again.grads, r.grads)


def test_closing_an_engine_unloads_its_program():
    import sys

    e = Engine(tutorial())
    name = e._module.__name__
    assert name in sys.modules
    e.close()
    assert name not in sys.modules


@pytest.mark.parametrize("mode", MODES)
def test_large_tensors_are_recorded_exactly(mode):
    """Above SMALL_TENSOR elements a gradient is read with asnumpy() instead of tolist()."""
    from gradviz.engine.engine import SMALL_TENSOR

    s = tutorial(mode=mode, aux_output=True, optimizer="momentum", lr=0.01)
    s.graph["x"].shape = (60,)
    s.graph["w"].shape = (60, 3)
    assert 60 * 3 > SMALL_TENSOR >= 3
    e = Engine(s)
    ref = NumpyOptimizer("momentum", 0.01)
    params = {k: v.astype(np.float64) for k, v in initial_values(s.graph, 42).items() if k in ("w", "b")}
    for _ in range(3):
        loss, g, v = grads_for(s, params)
        r = e.step()
        assert r.finite and r.loss == pytest.approx(loss, rel=1e-5)
        got = e.grad_layout.unflatten(r.grads)
        np.testing.assert_allclose(got["w"], g["w"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(e.param_layout.unflatten(r.params)["w"], params["w"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(e.aux_layout.unflatten(r.aux)["z"], v["z"], rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(
            r.row, np.concatenate([[r.loss, 0.01], r.params, r.grads, r.aux]).astype(np.float32)
        )
        params = ref.update(params, {"w": g["w"], "b": g["b"]})


def test_finite_checks_every_gradient_element():
    from gradviz.engine.engine import SMALL_TENSOR, StepResult

    for n in (3, SMALL_TENSOR + 1):
        for bad in (np.nan, np.inf, -np.inf):
            g = np.ones(n, np.float32)
            g[n // 2] = bad
            assert not StepResult(1, 1.0, g, g, g, 0.0, g).finite
        big = np.full(n, 3e38, np.float32)  # finite, though their float32 sum would overflow
        assert StepResult(1, 1.0, big, big, big, 0.0, big).finite
        assert not StepResult(1, float("nan"), big, big, big, 0.0, big).finite


def test_pynative_parameter_views_follow_updates_and_undo():
    """PyNative reads the parameters before each step through numpy views of their storage."""
    e = Engine(tutorial(mode="pynative", optimizer="adam"))
    before = [e.param_layout.flatten(e.current_params())]
    results = []
    for _ in range(70):
        results.append(e.step())
        before.append(e.param_layout.flatten(e.current_params()))
    for r, b in zip(results, before):  # each step recorded the parameters as they were before it
        np.testing.assert_array_equal(r.params, b)
    assert e._views_follow  # on the CPU they are views, not copies
    r = e.step()
    e.undo_last_update(r)
    np.testing.assert_array_equal(e.step().params, r.params)


def test_a_moved_parameter_storage_is_followed_not_read_stale():
    e = Engine(tutorial(mode="pynative"))
    e.step()
    e._param_views = [v.copy() for v in e._param_views]  # as if MindSpore had moved the storage:
    e._view_ptrs = [p + 1 for p in e._view_ptrs]  # stale copies at other addresses
    e.step()
    now = e.param_layout.flatten(e.current_params())
    np.testing.assert_array_equal(e.step().params, now)


def test_a_scalar_parameter_trains_in_both_modes():
    """MindSpore returns the gradient of a shape-() Parameter with shape (1,)."""
    for mode in MODES:
        s = load_preset("linreg")
        s.graph["weight"].shape = ()
        s.options.mode = mode
        assert not s.problems()
        e = Engine(s)
        loss, g, _ = grads_for(s)
        r = e.step()
        assert r.loss == pytest.approx(loss, rel=1e-5)
        np.testing.assert_allclose(e.grad_layout.unflatten(r.grads)["weight"], g["weight"], rtol=1e-5)
        np.testing.assert_allclose(e.grad_layout.unflatten(r.grads)["bias"], g["bias"], rtol=1e-5)


def test_a_block_ends_at_the_first_non_finite_or_low_loss_row():
    """Where a block of steps ends, by the vectorised check the engine process runs on it
    (first_end) and step by step (step_end): the first row whose loss or a gradient is not
    finite, whose loss is below the target in double precision, or that reaches max steps; huge
    but finite gradients go on."""
    from gradviz.engine.run_end import first_end, step_end

    e = Engine(tutorial(until_loss=0.5 + 1e-12, steps=40))  # 0.5 as float32 is below, in double
    rng = np.random.default_rng(0)
    g = e.grad_columns
    for trial in range(300):
        rows = rng.uniform(0.6, 2.0, (8, e._width)).astype(np.float32)
        for _ in range(rng.integers(0, 3)):
            i, what = rng.integers(0, 8), rng.integers(0, 5)
            if what == 0:
                rows[i, 0] = rng.choice([np.nan, np.inf, -np.inf])
            elif what == 1:
                rows[i, rng.integers(g.start, g.stop)] = rng.choice([np.nan, np.inf, -np.inf])
            elif what == 2:
                rows[i, 0] = rng.uniform(0.0, 0.5)  # below the target
            elif what == 3:
                rows[i, g] = 3e38  # huge but finite
            else:
                rows[i, 0] = np.float32(0.5)  # exactly the float32 rounding of the target
        first = int(rng.integers(1, 40))
        ends = [
            not (np.isfinite(row[0]) and np.isfinite(row[g]).all()) or float(row[0]) < 0.5 + 1e-12 or first + k >= 40
            for k, row in enumerate(rows)
        ]
        expected = ends.index(True) if any(ends) else None
        results = e.block_results(first, rows, 0.0)
        by_step = next((k for k, r in enumerate(results) if step_end(e, r)), None)
        assert first_end(e, first, rows) == expected == by_step, trial


@pytest.mark.parametrize("mode", MODES)
def test_a_new_shape_gets_its_own_gradients(mode):
    """The same program on another shape, built after the first in one process (as the engine
    process does when a shape is edited): MindSpore must not reuse the first one's backward."""
    from gradviz.model import numeric
    from gradviz.model.graph import Graph, Node
    from gradviz.model.session import Options, Session

    for n in (3, 1, 2):
        nodes = [
            Node("x", "Input", shape=(n,), init="ones"),
            Node("w", "Parameter", shape=(n,), init="randn"),
            Node("t", "Sigmoid", inputs={"x": "x"}),
            Node("l", "BCEWithLogits", inputs={"logits": "w", "target": "t"}),
            Node("o", "Output", inputs={"x": "l"}),
        ]
        s = Session(Graph(nodes), Options(api="grad", mode=mode))
        e = Engine(s)
        np.testing.assert_allclose(e.step().grads, numeric.evaluate(s)[2]["w"], rtol=1e-5)
        e.close()
