"""The typed messages between the window and the engine process (gradviz/engine/protocol.py),
and the engine's dispatch of them, driven in this process over a real pipe (no MindSpore needed
for these commands)."""

import dataclasses
import multiprocessing
import pickle
import threading

import numpy as np
import pytest

from gradviz.engine import protocol as msg
from gradviz.engine.engine import TUNE_CALLS
from gradviz.engine.process import Outbox, Server
from gradviz.experiments.gradcheck import GradCheck
from gradviz.experiments.modecost import ModeCost
from gradviz.experiments.variants import Variant
from gradviz.model.plane import PlaneSpec
from reference import grads_for


def test_every_message_is_a_frozen_dataclass_that_pickles():
    samples = {
        msg.Build: msg.Build(3, {"a": 1}),
        msg.SetOption: msg.SetOption("lr", 0.5),
        msg.Fault: msg.Fault("raise"),
        msg.Devices: msg.Devices({"CPU": (True, "")}),
        msg.Device: msg.Device("CPU"),
        msg.Built: msg.Built(1, msg.BuildInfo({"names": []}, {}, {}, "src", {}, {"w": 1.0}, {"w": [1]}, {"w": "w"})),
        msg.State: msg.State(1, "paused"),
        msg.Nodes: msg.Nodes(1, 4, {"w": 1.0}, {"w": 2.0}),
        msg.Ended: msg.Ended(1, "max_steps", 9),
        msg.Evals: msg.Evals(1, ({"type": "eval", "epoch": 1, "step": 4},)),
        msg.Error: msg.Error(1, "E", "tb"),
        msg.Fatal: msg.Fatal("F", "tb"),
        msg.ComputeVariants: msg.ComputeVariants(1, 2, {"a": 1}),
        msg.CheckGradients: msg.CheckGradients(1, 2, {}),
        msg.MeasureModeCost: msg.MeasureModeCost(1, 2, {}, 5),
        msg.Cancel: msg.Cancel(2),
        msg.ComputeLandscape: msg.ComputeLandscape(1, 2, {}, (0, 1), 1.0, 5),
        msg.TaskProgress: msg.TaskProgress(1, 2, 0.5),
        msg.TaskFailed: msg.TaskFailed(1, 2, "why"),
        msg.TaskCancelled: msg.TaskCancelled(1, 2),
        msg.VariantsResult: msg.VariantsResult(1, 2, (Variant("loss", "c", "r", "f", {}, "loss", ("z",)),), "w"),
        msg.GradCheckResult: msg.GradCheckResult(1, 2, GradCheck(1e-6, 1e-4, {}), 0),
        msg.ModeCostResult: msg.ModeCostResult(1, 2, ModeCost(5, 1.0, 0.5, 0.2, 0.0, 0.0)),
        msg.ComparePyTorch: msg.ComparePyTorch(1, 2, {"a": 1}, 300),
        msg.ParityResult: msg.ParityResult(1, 2, ("the experiments.parity.Parity", 3)),
        msg.ComputeHessian: msg.ComputeHessian(1, 2, {"a": 1}, "w", 4, 16),
        msg.ComputeJacobian: msg.ComputeJacobian(1, 2, {"a": 1}, "z", "w"),
        msg.ComputeProducts: msg.ComputeProducts(1, 2, {"a": 1}, "z", "w", (1.0, 0.0), None),
        msg.HessianResult: msg.HessianResult(1, 2, ("the experiments.transforms.HigherOrder",), 0),
        msg.JacobianResult: msg.JacobianResult(1, 2, ("the experiments.transforms.Jacobian",), 0),
        msg.ProductsResult: msg.ProductsResult(1, 2, ("the experiments.transforms.Products",), 3),
        msg.SnapshotAt: msg.SnapshotAt(3, {"w": 1.0}),
        msg.ContinueFrom: msg.ContinueFrom(7, 0.1),
        msg.NodesAt: msg.NodesAt(1, 3, {"w": 1.0}, {"w": 2.0}),
        msg.Rewound: msg.Rewound(1, 7),
        msg.SetHistoryBudget: msg.SetHistoryBudget(64 << 20),
        msg.PlaneAt: msg.PlaneAt(1, 5, PlaneSpec(-1.0, 1.0, -2.0, 2.0), {"w": 1.0}, 3),
    }
    for cls in msg.COMMANDS + msg.REPLIES:
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
        if cls in (msg.Batch, msg.LandscapeResult, msg.Plane):
            continue  # numpy fields: below
        m = samples.get(cls) or cls()
        assert pickle.loads(pickle.dumps(m)) == m
        with pytest.raises(dataclasses.FrozenInstanceError):
            m.run_id = 1
    b = msg.Batch(2, np.arange(3), np.ones((3, 4), np.float32), np.zeros(3, np.float32))
    b2 = pickle.loads(pickle.dumps(b))
    assert b2.run_id == 2 and np.array_equal(b2.rows, b.rows) and np.array_equal(b2.steps, [0, 1, 2])
    p = msg.Plane(2, 5, PlaneSpec(0.0, 1.0, 0.0, 1.0), 4, np.ones((3, 3, 2), np.float32), {"h": np.zeros((2, 2, 8))})
    p2 = pickle.loads(pickle.dumps(p))
    assert (p2.run_id, p2.request, p2.updates, p2.spec) == (2, 5, 4, p.spec) and np.array_equal(p2.probs, p.probs)


def test_every_command_has_a_handler_and_every_reply_a_receiver():
    from gradviz.ui.controller import _REPLIES

    assert set(Server.HANDLERS) == set(msg.COMMANDS) - {msg.Quit}  # Quit ends the loop itself
    assert set(_REPLIES) == set(msg.REPLIES) - {msg.Heartbeat}  # the reader consumes heartbeats


@pytest.fixture
def server():
    here, there = multiprocessing.Pipe(duplex=True)
    yield Server(there), here
    here.close()
    there.close()


def test_an_engine_exception_arrives_with_its_whole_traceback(server):
    s, conn = server
    s.run_id = 7
    assert s.handle(msg.Fault("raise"))
    reply = conn.recv()
    assert isinstance(reply, msg.Error) and reply.run_id == 7
    assert reply.message == "RuntimeError: injected fault: the engine raised on purpose"
    assert reply.detail.startswith("Traceback (most recent call last):")
    assert "in handle" in reply.detail and "in inject" in reply.detail  # every frame, not just the last
    assert reply.detail.rstrip().endswith("RuntimeError: injected fault: the engine raised on purpose")


def test_an_unknown_command_is_an_error_not_a_crash(server):
    s, conn = server
    assert s.handle(("start",))  # an old-style tuple: refused by name
    reply = conn.recv()
    assert isinstance(reply, msg.Error) and "does not know the command ('start',)" in reply.message


def test_quit_ends_the_loop_and_options_apply_without_an_engine(server):
    s, conn = server
    assert s.handle(msg.SetOption("speed", 12.5)) and s.speed == 12.5
    assert s.handle(msg.SetOption("lr", 0.1)) and s.handle(msg.GetNodes()) and s.handle(msg.Step())
    assert not conn.poll()  # nothing to say without a built run
    assert not s.handle(msg.Quit())


def test_the_heartbeat_beats_until_stopped():
    here, there = multiprocessing.Pipe(duplex=True)
    stop = threading.Event()
    out = Outbox(there)
    t = threading.Thread(target=out.heartbeat, args=(stop,))
    t.start()
    try:
        beats = [here.recv() for _ in range(3) if here.poll(5)]
    finally:
        stop.set()
        t.join(5)
    assert beats == [msg.Heartbeat()] * 3 and not t.is_alive()
    here.close()
    there.close()


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_flat_out_blocks_stop_where_the_seed_stops(server, mode):
    """Seed 000 trained flat out by the engine process: blocks of steps run past the step where
    the loss falls below 0.001 (loop 299 of the seed, step 300) and are undone to it."""
    from gradviz.model.presets import load_preset

    s, conn = server
    session = load_preset("linreg_seed")
    session.options.mode, session.options.speed = mode, 0.0
    s.handle(msg.Build(1, session.to_dict()))
    s.handle(msg.Start())
    steps, losses, ended = [], [], None
    for _ in range(10_000):
        if not s.running:
            break
        s.train_slice()
        while conn.poll():
            m = conn.recv()
            if isinstance(m, msg.Batch):
                steps += m.steps.tolist()
                losses += m.rows[:, 0].tolist()
            elif isinstance(m, msg.Ended):
                ended = m
            elif isinstance(m, msg.Error):
                raise AssertionError(m.detail)
    assert ended is not None and (ended.reason, ended.step) == ("until_loss", 300)
    assert steps == list(range(1, 301))  # nothing past the end reaches the window
    assert losses[0] == pytest.approx(25290.72, rel=1e-6)
    assert losses[-1] == pytest.approx(0.0009934219, rel=1e-3) and min(losses[:-1]) >= 0.001
    assert s.engine.updates == 299
    np.testing.assert_allclose(s.engine.current_params()["weight"], [83.50287], rtol=1e-4)


def test_graph_modes_first_batch_is_the_first_step_alone_then_the_measured_calls(server):
    """Start in Graph mode: the first slice compiles and trains one step's call and sends it (the
    window shows step 1 while the larger calls compile); the next compiles and measures them.
    Compiling is said before each, training after."""
    from gradviz.model.presets import load_preset

    s, conn = server
    session = load_preset("tutorial")
    session.options.mode, session.options.speed, session.options.until_loss = "graph", 0.0, None
    s.handle(msg.Build(1, session.to_dict()))
    s.handle(msg.Start())
    seen = []
    for _ in range(2):
        s.train_slice()
        while conn.poll():
            m = conn.recv()
            if isinstance(m, msg.Batch):
                seen.append(("batch", m.steps.tolist()))
            elif isinstance(m, msg.State):
                seen.append(("state", m.state))
            elif isinstance(m, msg.Error):
                raise AssertionError(m.detail)
    compiling, training = ("state", msg.EngineState.COMPILING), ("state", msg.EngineState.TRAINING)
    at = seen.index(compiling)  # after Start's "training"
    assert seen[at:-1] == [compiling, training, ("batch", [1]), compiling, training]
    kind, steps = seen[-1]
    assert kind == "batch" and steps[0] == 2 and len(steps) >= 3 * TUNE_CALLS


def test_nodes_sent_while_training_come_from_the_compiled_side_pass(server):
    """PyNative flat out: the live nodes come from the compiled side pass (a PyNative one costs
    training far more), at the parameters of the step they say, as the float64 reference has them."""
    from gradviz.model.presets import load_preset

    s, conn = server
    session = load_preset("tutorial")
    session.options.mode, session.options.speed, session.options.until_loss = "pynative", 0.0, None
    s.handle(msg.Build(1, session.to_dict()))
    while conn.poll():
        conn.recv()
    assert not s.engine.snapshot_compiled  # a build shows its nodes without waiting for a compile
    s.handle(msg.Start())
    nodes = None
    for _ in range(1_000):
        s.train_slice()
        while conn.poll():
            m = conn.recv()
            if isinstance(m, msg.Nodes):
                nodes = m
            elif isinstance(m, msg.Error):
                raise AssertionError(m.detail)
        if nodes is not None:
            break
    assert nodes is not None and s.engine.snapshot_compiled
    s.handle(msg.Pause())
    at = s.engine.current_params()
    last = None
    while conn.poll():
        m = conn.recv()
        if isinstance(m, msg.Nodes):
            last = m
    assert last is not None and last.updates == s.engine.updates
    _, g, v = grads_for(session, at)
    for name in ("w", "b", "z", "loss"):
        np.testing.assert_allclose(last.values[name], v[name], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(last.grads[name], g[name], rtol=1e-5, atol=1e-6)


def test_at_a_set_speed_the_side_pass_is_not_compiled(server):
    """At a set speed the nodes come after every step: a compile there would stall training
    once and run the next steps back to back, without their nodes."""
    from gradviz.model.presets import load_preset

    s, conn = server
    session = load_preset("tutorial")
    session.options.mode, session.options.speed, session.options.steps = "pynative", 10.0, 3
    s.handle(msg.Build(1, session.to_dict()))
    s.handle(msg.Start())
    nodes = []
    for _ in range(1_000):
        if not s.running:
            break
        s.train_slice()
        while conn.poll():
            m = conn.recv()
            if isinstance(m, msg.Nodes):
                nodes.append(m.updates)
    assert s.engine.updates == 3 and not s.engine.snapshot_compiled
    while conn.poll():
        m = conn.recv()
        if isinstance(m, msg.Nodes):
            nodes.append(m.updates)
    assert nodes and nodes[-1] == 3


def test_every_task_row_has_its_handler_and_its_view_and_nothing_else_does():
    """protocol.TASKS is the one list of lesson tasks: the engine's handlers, the window's
    receivers and the Experiments panel's views are made from it."""
    from gradviz.experiments.tasks import HANDLERS
    from gradviz.ui.controller import _REPLIES
    from gradviz.ui.experiments_panel import VIEWS

    names = [t.name for t in msg.TASKS]
    assert sorted(v.TASK for v in VIEWS) == sorted(names)
    assert set(HANDLERS) == {t.command for t in msg.TASKS}
    assert all(HANDLERS[t.command].__name__ == t.name for t in msg.TASKS)
    assert all(Server.HANDLERS[t.command] is Server.on_task for t in msg.TASKS)
    assert all(_REPLIES[t.result] is _REPLIES[msg.TaskFailed] for t in msg.TASKS)


def test_end_reasons_and_engine_states_travel_as_their_enums():
    from gradviz.model.ending import EndReason

    for m in (msg.Ended(1, EndReason.UNTIL_LOSS, 4), msg.State(1, msg.EngineState.COMPILING)):
        back = pickle.loads(pickle.dumps(m))
        assert back == m and type(getattr(back, "reason", getattr(back, "state", None))) in (
            EndReason,
            msg.EngineState,
        )
