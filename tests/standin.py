"""An engine stand-in for the window's tests: no process to spawn, no MindSpore to import.

The window's real EngineClient talks over a real pipe (every message pickled, as between
processes) to the real engine Server (gradviz/engine/process.py), which runs in a thread of the
test process and trains a NumpyEngine: the session's graph in float64 numpy from the op table
(gradviz/model/numeric.py), updated by tests/reference.py's optimizers. Everything between the
widgets and the pipe is the app's own code; only MindSpore is replaced.

What needs MindSpore itself (its numbers, Graph mode, the lessons, the `cell` API's attribute
names) or a real process (faults, the watchdog, restarts, pids) takes the real engine: the
`real_engine` marker on a test that uses the `win` fixture."""

from __future__ import annotations

import copy
import multiprocessing
import threading
import time
from typing import ClassVar

import numpy as np

from gradviz.engine import protocol as msg
from gradviz.engine.checkpoints import Checkpoints, LrSchedule
from gradviz.engine.process import Outbox, Server
from gradviz.engine.engine import Eval, NodeSnapshot, StepResult
from gradviz.model import datasets, numeric, plane, predictions
from gradviz.model.codegen import generate, run_layouts
from gradviz.model.graph import initial_values
from gradviz.model.layout import LOSS_COL, LR_COL, row_slices
from gradviz.model.ops import OPS
from gradviz.model.recording import RecordingPlan
from gradviz.model.session import DEVICES, SessionError
from gradviz.ui.engine_client import EngineClient

from reference import NumpyOptimizer

BLOCK_STEPS = 64  # steps per steps_block() flat out, as the real engine's largest block


class NumpyEngine:
    """engine.Engine's interface as the Server uses it, computed in float64 numpy (rows in
    float32, as the real engine records them). PyNative on the CPU only."""

    def __init__(self, session):
        problems = session.problems()
        if problems:
            raise SessionError("; ".join(problems))
        self.session = session.copy()
        g, o = self.session.graph, self.session.options
        if o.mode != "pynative" or o.device != "CPU":
            raise SessionError("the engine stand-in trains PyNative on the CPU only: mark the test real_engine")
        self.shapes = g.check()
        self.cell_attributes = {p.name: p.name for p in g.parameters()}
        self.program = generate(g, o, self.cell_attributes)
        self.initial = initial_values(g, o.seed)
        self.param_layout, self.grad_layout, self.aux_layout = run_layouts(self.program, self.shapes)
        self.plan = RecordingPlan(self.param_layout, self.grad_layout, self.aux_layout)
        self._param_cols, self.grad_columns, self._aux_cols = row_slices(self.param_layout, self.grad_layout)
        self._width = self._aux_cols.start + self.aux_layout.total
        self.params = {n: np.asarray(self.initial[n], np.float64) for n in self.program.param_names}
        self.optimizer = NumpyOptimizer(o.optimizer, float(o.lr))
        self.updates = 0
        self.lr_schedule = LrSchedule([(1, float(o.lr))])
        self.checkpoints = Checkpoints()  # only its budget is set (SetHistoryBudget)
        self._states: dict[int, tuple] = {}  # updates -> (params, optimizer): every step's, for rewinds
        # over a Dataset node: each step's mini-batch in the documented order, an Eval per epoch
        spec = g.data_spec()
        self.data = datasets.prepare(spec) if spec is not None else None
        self.steps_per_epoch = spec.steps_per_epoch() if spec is not None else 0
        self._fed = {n.name: n.init for n in g.data_inputs()}
        self.evals: list[Eval] = []

    # -- training ---------------------------------------------------------------------------------
    def _data(self, part: str, positions=None) -> dict:
        return {n: self.data.inputs(init, part, positions).astype(np.float64) for n, init in self._fed.items()}

    def _evaluate(self, params: dict, step: int | None = None):
        sources = {k: np.asarray(v, np.float64) for k, v in self.initial.items()}
        if step is not None and self.data is not None:
            sources.update(self._data("train", self.data.batch_positions(step)))
        sources.update(params)
        values = numeric.forward(self.session.graph, sources)
        return values, numeric.backward(self.session.graph, values, numeric.seeds(self.session))

    def needs_compile(self, batch: bool = False) -> bool:
        return False

    def step(self) -> StepResult:
        t0 = time.perf_counter()
        row = self._train_one()
        return self.block_results(self.updates, row[None], (time.perf_counter() - t0) * 1e3)[0]

    def _train_one(self) -> np.ndarray:
        self._states[self.updates] = (copy.deepcopy(self.params), copy.deepcopy(self.optimizer))
        values, grads = self._evaluate(self.params, self.updates + 1)
        row = np.zeros(self._width, np.float32)
        with np.errstate(all="ignore"):
            row[LOSS_COL] = values[self.session.graph.loss_output().inputs["x"]]
            row[LR_COL] = self.optimizer.lr
            row[self._param_cols] = self.param_layout.flatten(self.params)
            row[self.grad_columns] = self.grad_layout.flatten({n: grads[n] for n in self.program.trainable_names})
            aux = dict(zip(self.program.aux_names, (values[s] for s in self.program.aux_sources)))
            row[self._aux_cols] = self.aux_layout.flatten(aux)
            self.params = self.optimizer.update(self.params, {n: grads[n] for n in self.program.trainable_names})
        self.updates += 1
        if self.data is not None and self.updates % self.steps_per_epoch == 0:
            self.evals.append(self._eval(self.updates // self.steps_per_epoch))
        return row

    def _eval(self, epoch: int) -> Eval:
        g = self.session.graph
        loss_node = g[g.loss_output().inputs["x"]]
        scores = loss_node.inputs[OPS[loss_node.kind].ports[0]]
        out, shown = [], []
        for part, labels in (("test", self.data.test_y), ("train", self.data.train_y)):
            sources = {k: np.asarray(v, np.float64) for k, v in self.initial.items()}
            sources.update(self._data(part))
            sources.update(self.params)
            values = numeric.forward(g, sources)
            out += [float(values[loss_node.name]), float(np.mean(values[scores].argmax(1) == labels))]
            shown.append(predictions.predict(values[scores], loss_node.kind))  # as the engine sends them
        predicted, top = shown[0]
        counts = predictions.confusion(predicted, self.data.test_y, self.data.spec.classes())
        counts = tuple(tuple(int(c) for c in row) for row in counts)
        return Eval(epoch, self.updates, out[0], out[1], out[2], out[3], predicted, top, counts)

    def steps_block(self, limit: int | None = None):
        if limit is not None and limit < 1:
            raise ValueError(f"a block needs at least one step left, not {limit}")
        first, t0 = self.updates + 1, time.perf_counter()
        rows = np.stack([self._train_one() for _ in range(BLOCK_STEPS if limit is None else min(BLOCK_STEPS, limit))])
        return first, rows, (time.perf_counter() - t0) * 1e3 / len(rows)

    def recorded_block(self, limit: int | None = None):
        first, rows, ms = self.steps_block(limit)
        return first, self.plan.reduce(rows), ms

    def recorded_results(self, first: int, recs: np.ndarray, t_ms: float) -> list[StepResult]:
        pc, gc, ac = row_slices(*self.plan.layouts[:2])
        return [
            StepResult(first + i, float(rec[LOSS_COL]), rec[pc], rec[gc], rec[ac], t_ms, rec, bool(ok))
            for i, (rec, ok) in enumerate(zip(recs, self.plan.finite(recs)))
        ]

    def block_results(self, first: int, recs: np.ndarray, t_ms: float) -> list[StepResult]:
        pc, gc, ac = self._param_cols, self.grad_columns, self._aux_cols
        return [
            StepResult(first + i, float(rec[LOSS_COL]), rec[pc], rec[gc], rec[ac], t_ms, rec)
            for i, rec in enumerate(recs)
        ]

    def undo_last_update(self, result: StepResult) -> None:
        self.rewind(result.step - 1)

    def rewind(self, updates: int) -> None:
        if not 0 <= updates <= self.updates:
            raise ValueError(f"cannot rewind to {updates} updates: the run has made {self.updates}")
        if updates < self.updates:
            params, optimizer = self._states[updates]
            self.params, self.optimizer = copy.deepcopy(params), copy.deepcopy(optimizer)
            self.session.options.lr = self.optimizer.lr
        self._states = {k: v for k, v in self._states.items() if k <= updates}
        self.updates = updates
        self.evals = [e for e in self.evals if e.step <= updates]

    def set_lr(self, lr: float) -> None:
        if not (np.isfinite(lr) and lr > 0):
            raise SessionError(f"learning rate must be a number above 0, not {lr!r}")
        self.optimizer.lr = self.session.options.lr = float(lr)
        self.lr_schedule.set(self.updates + 1, float(lr))

    def current_params(self) -> dict[str, np.ndarray]:
        return {n: np.array(v, np.float32) for n, v in self.params.items()}

    def close(self) -> None:
        pass

    # -- node values ------------------------------------------------------------------------------
    def node_snapshot(self, training: bool = False, params: dict | None = None) -> NodeSnapshot:
        values, grads = self._evaluate(self.params if params is None else params)
        g = self.session.graph
        snap = NodeSnapshot(self.updates)
        parts = {o: numeric.backward(g, values, [g[o].inputs["x"]]) for o in self.program.part_names}
        for name in self.program.node_names:
            shape = tuple(self.shapes[name])
            snap.values[name] = np.array(values[name], np.float32).reshape(shape)
            snap.grads[name] = np.array(grads[name], np.float32).reshape(shape)
            for o, part in parts.items():
                snap.parts.setdefault(o, {})[name] = np.array(part[name], np.float32).reshape(shape)
        return snap

    def plane(self, spec, params: dict | None = None):
        """The data view's plane, as the engine's (model/plane.py), in float64 numpy."""
        p = {**self.params, **{k: np.asarray(v, np.float64) for k, v in (params or {}).items()}}

        def values_of(fed):
            sources = {k: np.asarray(v, np.float64) for k, v in self.initial.items()}
            sources.update({k: np.asarray(v, np.float64) for k, v in fed.items()})
            sources.update(p)
            return numeric.forward(self.session.graph, sources)

        return plane.evaluate(self.session.graph, self.shapes, spec, self.data.spec.classes(), values_of)

    def snapshot_at(self, params: dict[str, np.ndarray]) -> NodeSnapshot:
        return self.node_snapshot(params={**self.params, **{k: np.asarray(v, np.float64) for k, v in params.items()}})


class _StandInServer(Server):
    def on_lesson(self, m) -> None:
        """The lessons run MindSpore itself (experiments/tasks.py): the real engine's job, never a
        thread of the test process (MindSpore belongs to one thread)."""
        self.send(msg.TaskFailed(m.run_id, m.task_id, "the engine stand-in runs no lessons: mark the test real_engine"))

    HANDLERS: ClassVar[dict] = {**Server.HANDLERS, **dict.fromkeys((t.command for t in msg.TASKS), on_lesson)}

    @staticmethod
    def inject(kind: str) -> None:
        if kind != "raise":  # an exit or a hang would take the test process: the real engine's job
            raise AssertionError(f"Fault({kind!r}) needs the real engine: mark the test real_engine")
        Server.inject(kind)


class _KillableConnection:
    """The server's end of the pipe; after kill() it reads as closed (a thread cannot be killed)."""

    def __init__(self, conn, killed: threading.Event):
        self._conn, self._killed = conn, killed

    def poll(self, timeout: float = 0.0) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            if self._killed.is_set():
                raise EOFError
            if self._conn.poll(min(0.02, max(0.0, deadline - time.monotonic()))):
                return True
            if time.monotonic() >= deadline:
                return False

    def recv(self):
        while not self.poll(0.05):
            pass
        return self._conn.recv()

    def send(self, m) -> None:
        if self._killed.is_set():
            raise BrokenPipeError
        self._conn.send(m)

    def close(self) -> None:
        self._conn.close()


class ThreadProcess:
    """The engine Server in a thread, shaped like the multiprocessing.Process EngineClient drives."""

    pid = None  # no process: tests of pids take the real engine

    def __init__(self, conn):
        self.exitcode: int | None = None
        self._killed = threading.Event()
        self._thread = threading.Thread(
            target=self._serve, args=(_KillableConnection(conn, self._killed),), name="gradviz-engine-standin"
        )
        self._thread.start()

    def _serve(self, conn) -> None:
        outbox = Outbox(conn)
        stop = threading.Event()
        beat = threading.Thread(target=outbox.heartbeat, args=(stop,), name="gradviz-standin-heartbeat")
        beat.start()
        try:
            outbox.send(msg.Devices({d: (d == "CPU", "" if d == "CPU" else "not in the stand-in") for d in DEVICES}))
            _StandInServer(conn, outbox, make_engine=NumpyEngine).loop()
        except (EOFError, BrokenPipeError, ConnectionResetError):
            pass  # killed, or the client went away
        finally:
            stop.set()
            beat.join()
            with outbox._lock:
                conn.close()
            self.exitcode = -9 if self._killed.is_set() else 0

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def kill(self) -> None:
        self._killed.set()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def close(self) -> None:
        pass


def client(mode: str = "pynative", device: str = "CPU") -> EngineClient:
    """An EngineClient whose engine is the stand-in (TrainingController's make_client)."""
    conn, child = multiprocessing.Pipe(duplex=True)
    return EngineClient(mode, device, started=(ThreadProcess(child), conn))


class RecordingPipe:
    """The engine process's end of the pipe, in-process: keeps every message Server sends."""

    def __init__(self):
        self.sent = []

    def poll(self, _timeout=0):
        return False

    def send(self, m):
        self.sent.append(m)
