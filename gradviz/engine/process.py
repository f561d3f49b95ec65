"""The engine process: owns MindSpore and trains on command, sending numpy batches back.

The app starts it with multiprocessing's spawn context (MindSpore fixes its device once per
process, the runtime settings that suit PyNative and Graph mode differ, a fork of a running
MindSpore hangs, and a crash here cannot take the window down).
All MindSpore calls happen on this process's main thread. Qt-free.

The messages are the dataclasses of protocol.py; Server.HANDLERS maps each command to its
handler. A heartbeat thread (no MindSpore) tells the window every HEARTBEAT_SECONDS that the
process is alive, busy or not, so the window's watchdog can tell a long computation from a
stopped or frozen process."""

from __future__ import annotations

import importlib

import os
import threading
import time
import traceback
from typing import ClassVar

import numpy as np

from ..i18n import Msg, message
from ..model import datasets, plane
from ..model.ending import EndReason
from ..model.options import OPTIONS
from ..model.history import DEFAULT_BUDGET
from . import protocol as msg
from .checkpoints import BUDGET_SHARE
from .memory import out_of_memory, ran_out_of_memory, step_bytes
from .run_end import finish_step, recorded_end

BATCH_SECONDS = 1 / 40  # at most this long between batches while training (the window draws at 30 Hz)
# The live nodes (the gv_snapshot side pass) while training: after every step up to
# NODES_EVERY_STEP_SPEED steps a second; faster, at least every NODES_SECONDS (twice a second at any
# speed, flat out included), more often where the snapshot is cheap: every NODES_COST_FACTOR times
# its own duration (~1% of the time), but never more often than every NODES_SECONDS_LEAST.
NODES_EVERY_STEP_SPEED = 10.0
NODES_SECONDS = 0.3
NODES_SECONDS_LEAST = 0.1
NODES_COST_FACTOR = 100


def describe(e: BaseException) -> str:
    said = message(e)
    if isinstance(said, Msg) and "\n" not in said:  # one of GradViz's own messages: the window translates it
        return Msg("Engine", "{error}: {message}").format(error=type(e).__name__, message=said)
    text = str(e).strip().splitlines()
    first = next((line for line in text if line.strip() and not line.startswith("-")), "")
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


class Outbox:
    """The process's sending end of the pipe, shared by the main thread and the heartbeat."""

    def __init__(self, conn):
        self.conn = conn
        self._lock = threading.Lock()

    def send(self, m) -> None:
        with self._lock:
            self.conn.send(m)

    def heartbeat(self, stop: threading.Event) -> None:
        """Until `stop` (or the pipe closes): a Heartbeat every HEARTBEAT_SECONDS."""
        beat = msg.Heartbeat()
        while not stop.wait(msg.HEARTBEAT_SECONDS):
            try:
                self.send(beat)
            except (OSError, ValueError, EOFError):
                return


class Server:
    def __init__(self, conn, outbox: Outbox | None = None, make_engine=None):
        self.conn = conn
        self.make_engine = make_engine  # Session -> an Engine (None: trainer.Engine, MindSpore)
        self.outbox = outbox or Outbox(conn)
        self.engine = None
        self.run_id = 0
        self.running = False
        self.speed = 0.0
        self.next_time = 0.0
        self.last_nodes = 0.0
        self.nodes_interval = NODES_SECONDS
        self.ended = False
        self.end_reason: EndReason | None = None
        self.deferred: list = []  # commands that came while a task ran, handled after it
        self.history_budget: int | None = None  # SetHistoryBudget: bounds the kept training states
        self.session = None  # the session built last (an error names what it needs)
        self._reset_batch()

    _evals_sent: tuple = ()  # the Evals last sent: the engine's Eval objects, held

    def _reset_batch(self):
        # the next Batch, in pieces (a block's rows, or one step's): joined when it is sent
        self.b_steps, self.b_rows, self.b_ms = [], [], []

    def send(self, m) -> None:
        self.outbox.send(m)

    def state(self, s: msg.EngineState) -> None:
        self.send(msg.State(self.run_id, s))

    # -- main loop ----------------------------------------------------------------------------
    def loop(self) -> None:
        while True:
            if self.deferred:
                if not self.handle(self.deferred.pop(0)):
                    return
                continue
            if self.running:
                while not self.deferred and self.conn.poll():
                    if not self.handle(self.conn.recv()):
                        return
                if self.running and not self.deferred:
                    self.train_slice()
            else:
                try:
                    m = self.conn.recv()
                except EOFError:
                    return
                if not self.handle(m):
                    return

    def handle(self, m) -> bool:
        """Do one command; False when it says to quit."""
        if isinstance(m, msg.Quit):
            return False
        handler = self.HANDLERS.get(type(m))
        try:
            if handler is None:
                raise TypeError(f"the engine does not know the command {m!r}")
            handler(self, m)
        except Exception as e:  # everything reaches the window as a message
            self.fail(e)
        return True

    def on_build(self, m: msg.Build) -> None:
        self.build(m.run_id, m.session)

    def on_start(self, _m: msg.Start) -> None:
        self.start()

    def on_pause(self, _m: msg.Pause) -> None:
        if self.running:
            self.running = False
            self.flush()
            self.state(msg.EngineState.PAUSED)
            self.send_nodes()

    def on_step(self, _m: msg.Step) -> None:
        if self.engine is not None and not self.running and self.end_reason != EndReason.NON_FINITE:
            self.ended = False
            self.one_step()
            self.flush()
            if not self.ended:
                self.state(msg.EngineState.PAUSED)
            self.send_nodes()

    def on_set(self, m: msg.SetOption) -> None:
        self.set_option(m.name, m.value)

    def on_budget(self, m: msg.SetHistoryBudget) -> None:
        self.history_budget = int(m.budget)
        if self.engine is not None:
            self.engine.checkpoints.fit_history_budget(self.history_budget)

    def on_nodes(self, _m: msg.GetNodes) -> None:
        self.send_nodes()

    def on_fault(self, m: msg.Fault) -> None:
        self.inject(m.kind)

    def on_task(self, m) -> None:
        """An experiment (protocol.TASK_HANDLERS), run here between training slices: progress at most
        once a percent, cancelled by Cancel, Build or Quit; other commands wait until it is done."""
        from ..model.session import SessionError

        handlers = importlib.import_module(msg.TASK_HANDLERS).HANDLERS

        sent = [-1]

        def progress(fraction: float) -> None:
            pct = int(fraction * 100)
            if pct != sent[0]:
                sent[0] = pct
                self.send(msg.TaskProgress(m.run_id, m.task_id, float(fraction)))

        def cancelled() -> bool:
            while self.conn.poll():
                c = self.conn.recv()
                if isinstance(c, msg.Cancel) and c.task_id == m.task_id:
                    return True
                if not isinstance(c, msg.Cancel):
                    self.deferred.append(c)
                if isinstance(c, (msg.Build, msg.Quit)):
                    return True
            return False

        self.flush()
        try:
            reply = handlers[type(m)](m, self.engine, progress, cancelled)
        except InterruptedError:
            reply = msg.TaskCancelled(m.run_id, m.task_id)
        except Exception as e:  # the task failed, the run did not; a SessionError says why in words
            text = message(e) if isinstance(e, SessionError) else describe(e)
            reply = msg.TaskFailed(m.run_id, m.task_id, text, "".join(traceback.format_exception(e)))
        self.send(reply)
        self.next_time = time.perf_counter()  # paced training goes on from now

    def on_cancel(self, _m: msg.Cancel) -> None:
        """A Cancel for a task already done (or not begun): nothing to do."""

    def on_snapshot_at(self, m: msg.SnapshotAt) -> None:
        if self.engine is not None:
            snap = self.engine.snapshot_at(m.params)
            self.send(msg.NodesAt(self.run_id, m.step, snap.values, snap.grads, snap.parts))

    def on_plane(self, m: msg.PlaneAt) -> None:
        """The data view's outputs over the plane (model/plane.py), now or at a past step's parameters."""
        e = self.engine
        if e is None or m.run_id != self.run_id:
            return  # a request of a run since reset: its answer would be dropped
        updates = e.updates if m.step is None else m.step - 1
        try:
            out = e.plane(m.spec, m.params)
        except Exception as ex:  # the view goes without its picture; the run goes on
            self.send(msg.Plane(self.run_id, m.request, m.spec, updates, None, {}, m.step, describe(ex)))
            return
        self.send(msg.Plane(self.run_id, m.request, m.spec, updates, out.probs, out.hidden, m.step))

    def on_continue(self, m: msg.ContinueFrom) -> None:
        """Time travel: back to the state before step `m.step`, with the learning rate now set."""
        e = self.engine
        if e is None or self.running:
            return
        e.rewind(m.step - 1)
        e.set_lr(m.lr)
        self.ended, self.end_reason = False, None
        self._reset_batch()
        self.send(msg.Rewound(self.run_id, m.step))
        self.send_evals()
        if m.train:
            self.start()
        else:
            self.state(msg.EngineState.PAUSED)
            self.send_nodes()

    HANDLERS: ClassVar[dict] = {
        msg.Build: on_build,
        msg.Start: on_start,
        msg.Pause: on_pause,
        msg.Step: on_step,
        msg.SetOption: on_set,
        msg.SetHistoryBudget: on_budget,
        msg.GetNodes: on_nodes,
        msg.Fault: on_fault,
        **dict.fromkeys((t.command for t in msg.TASKS), on_task),
        msg.Cancel: on_cancel,
        msg.SnapshotAt: on_snapshot_at,
        msg.ContinueFrom: on_continue,
        msg.PlaneAt: on_plane,
    }

    def start(self) -> None:
        """Train on; a run that reached its max steps goes on once max steps was raised."""
        e = self.engine
        if e is None:
            return
        if self.ended and self.end_reason == EndReason.NON_FINITE:
            return  # the window shows the divergence; Reset (or a rewind) trains again
        # after max steps (raised since) or stop-at-loss (lowered or off since) it trains on; a
        # stop-at-loss end kept the state before its last step, which is computed again
        if e.updates >= e.session.options.steps:
            self.ended, self.end_reason = True, EndReason.MAX_STEPS
            self.send(msg.Ended(self.run_id, EndReason.MAX_STEPS, e.updates))
            return
        self.ended = False
        self.running = True
        self.next_time = time.perf_counter()
        self.state(msg.EngineState.TRAINING)

    @staticmethod
    def inject(kind: str) -> None:
        if kind == "raise":
            raise RuntimeError("injected fault: the engine raised on purpose")
        if kind == "exit":
            os._exit(3)
        if kind == "hang":
            time.sleep(600)

    def fail(self, e: BaseException) -> None:
        self.running = False
        self.flush()
        detail = "".join(traceback.format_exception(e))  # the whole traceback, for the details view
        text = describe(e)
        if self.session is not None:
            need = step_bytes(self.session)
            if ran_out_of_memory(e, need):
                budget = DEFAULT_BUDGET if self.history_budget is None else self.history_budget
                text = out_of_memory(need, budget // BUDGET_SHARE, text)
        self.send(msg.Error(self.run_id, text, detail))

    def build(self, run_id: int, session_dict: dict) -> None:
        from ..model.session import Session, SessionError
        from .devices import current_device, prepared_for

        if self.engine is not None:
            self.engine.close()
        self.run_id, self.running, self.ended, self.end_reason, self.engine = run_id, False, False, None, None
        self._reset_batch()
        self._evals_sent = ()
        session = self.session = Session.from_dict(session_dict)
        profile = prepared_for()
        if profile is not None and profile != (session.options.mode, session.options.device):
            raise SessionError(
                f"this engine process was set up for {profile[0]} on {profile[1]}; "
                "the app starts a new one for another mode or device"
            )
        self.speed = float(session.options.speed)
        try:
            make = self.make_engine
            if make is None:
                from .engine import Engine as make
            self.engine = e = make(session)
            if self.history_budget is not None:
                e.checkpoints.fit_history_budget(self.history_budget)
        finally:
            self.send(msg.Device(current_device()))  # which device this process is fixed to, if any
        rp, rg, ra = e.plan.layouts  # the recorded rows' layouts: what each Batch row holds
        info = msg.BuildInfo(
            param_layout=rp.to_dict(),
            grad_layout=rg.to_dict(),
            aux_layout=ra.to_dict(),
            program=e.program.source,
            inputs={n: e.initial[n] for n in e.program.input_names},
            params=e.current_params(),
            shapes={k: list(v) for k, v in e.shapes.items()},
            cell_attributes=e.cell_attributes,
            test_images=datasets.test_images(getattr(e, "data", None)),
            plane=plane.plane_info(e.session.graph, e.shapes, getattr(e, "data", None)),
        )
        self.send(msg.Built(run_id, info))
        self.send_nodes()

    def set_option(self, name: str, value) -> None:
        if name == "speed":
            self.speed = float(value)
            self.next_time = time.perf_counter()
            return
        if self.engine is None:
            return
        if name not in msg.LIVE_OPTIONS:
            raise ValueError(f"{name} is not an option that changes mid-run")
        value = None if value is None else OPTIONS[name].type(value)
        if name == "lr":
            self.engine.set_lr(value)
        else:  # read by the end rule at each step
            setattr(self.engine.session.options, name, value)

    # -- training -----------------------------------------------------------------------------
    def record(self, results) -> bool:
        """Queue the results for the next batch; True if the run ended at one of them (the later
        ones of a Graph-mode batch are then dropped and their updates undone)."""
        return any(self._record_one(r) for r in results)

    def _record_one(self, r) -> bool:
        """Queue one result; True if the run ended at it."""
        self.b_steps.append(np.array([r.step], np.int64))
        self.b_rows.append((r.row if r.recorded else self.engine.plan.reduce_row(r.row))[None])
        self.b_ms.append(np.array([r.step_ms], np.float32))
        reason = finish_step(self.engine, r)
        if reason:
            self.running, self.ended, self.end_reason = False, True, reason
            self.flush()
            self.send(msg.Ended(self.run_id, reason, r.step))
            return True
        return False

    def one_step(self) -> None:
        if self.engine.needs_compile():
            self.state(msg.EngineState.COMPILING)
        self.record([self.engine.step()])

    def train_slice(self) -> None:
        """Train until a batch is due (BATCH_SECONDS), a command arrives or the run ends."""
        t_end = time.perf_counter() + BATCH_SECONDS
        before = self.engine.updates
        try:
            if self.speed > 0:
                self._paced(t_end)
            else:
                self._flat_out(t_end)
            self.flush()
            every_step = 0 < self.speed <= NODES_EVERY_STEP_SPEED and self.engine.updates != before
            if not self.running or every_step or time.perf_counter() - self.last_nodes > self.nodes_interval:
                self.send_nodes()
        except (BrokenPipeError, ConnectionResetError, EOFError):
            raise  # the app went away
        except Exception as ex:
            self.fail(ex)

    def _paced(self, t_end: float) -> None:
        """At most `speed` steps a second, one at a time; a command cuts the wait short."""
        e = self.engine
        while self.running:
            now = time.perf_counter()
            if now >= t_end and self.b_steps:
                return
            wait = self.next_time - now
            if wait > 0:
                if self.conn.poll(min(wait, BATCH_SECONDS)):
                    return  # a command came: handle it first
                continue
            self.next_time = max(self.next_time + 1.0 / self.speed, now - 0.5)
            if self._steps(e):
                return

    def _flat_out(self, t_end: float) -> None:
        """As fast as MindSpore goes: blocks of steps (Engine.steps_block), each checked once.
        Whatever this loop does per step is the app's cost to training."""
        e = self.engine
        clock = time.perf_counter
        while self.running:
            left = e.session.options.steps - e.updates  # below 1 where max steps was lowered
            if self._steps(e, left if left >= 1 else None) or clock() >= t_end:
                return

    def _steps(self, e, block_limit: int | None = None) -> bool:
        """One step, or a block of at most `block_limit` steps; True if the slice should end here
        (compiled, or run ended)."""
        batch = block_limit is not None
        compiling = e.needs_compile(batch)
        if compiling:
            self.state(msg.EngineState.COMPILING)
        if batch:
            ended = self._record_block(e, *e.recorded_block(limit=block_limit))
        else:
            ended = self.record([e.step()])
        if compiling and not ended:
            self.state(msg.EngineState.TRAINING)
            return True
        return ended

    def _record_block(self, e, first: int, rows: np.ndarray, t_ms: float) -> bool:
        """A block of recorded rows: queued whole unless the run ends inside it (then step by
        step, and the later steps' updates are undone)."""
        if recorded_end(e, first, rows) is not None:
            return self.record(e.recorded_results(first, rows, t_ms))
        self.b_steps.append(np.arange(first, first + len(rows), dtype=np.int64))
        self.b_rows.append(rows)
        self.b_ms.append(np.full(len(rows), t_ms, np.float32))
        return False

    def send_evals(self) -> None:
        """The run's evaluations, whenever they changed (an epoch ended, a rewind dropped some)."""
        e = self.engine
        now = tuple(getattr(e, "evals", ()))
        # compared by identity (the objects are held, so an id is never reused): an epoch's Eval
        # is made once, and a rewind or a repeated epoch makes new ones
        sent = self._evals_sent
        if len(now) >= len(sent) and (not sent or now[len(sent) - 1] is sent[-1]):
            kept = len(sent)  # a rewind keeps a prefix: the last one sent still there, all are
        else:
            kept = next((i for i, (a, b) in enumerate(zip(now, sent)) if a is not b), min(len(now), len(sent)))
        if e is not None and (kept < len(now) or kept < len(self._evals_sent)):
            self._evals_sent = now
            new = now[kept:]
            shown = tuple(p for p in (v.predictions() for v in new) if p is not None)
            self.send(msg.Evals(self.run_id, tuple(v.to_dict() for v in new), shown, kept))

    def flush(self) -> None:
        self.send_evals()
        if not self.b_steps:
            return
        self.send(
            msg.Batch(
                self.run_id,
                np.concatenate(self.b_steps),
                np.concatenate(self.b_rows),
                np.concatenate(self.b_ms),
            )
        )
        self._reset_batch()

    def send_nodes(self) -> None:
        """Node values and gradients (and each differentiated output's share of them); while
        training, spaced as the NODES_ constants say."""
        if self.engine is None:
            return
        t = time.perf_counter()
        # compiled from the first snapshot flat out: its compile stalls training once, which
        # at a set speed would run the next steps back to back and skip their nodes
        snap = self.engine.node_snapshot(training=self.running and self.speed <= 0)
        self.send(msg.Nodes(self.run_id, snap.step, snap.values, snap.grads, snap.parts))  # snap.step: updates kept
        self.last_nodes = time.perf_counter()
        # the first call in Graph mode compiles: NODES_SECONDS bounds the interval anyway
        cost = NODES_COST_FACTOR * (self.last_nodes - t)
        self.nodes_interval = min(NODES_SECONDS, max(NODES_SECONDS_LEAST, cost))


def serve(conn, mode: str = "pynative", device: str = "CPU") -> None:
    """Entry point of the spawned engine process, set up to train in `mode` on `device` (see
    devices.prepare_process: another mode or device needs a new process)."""
    from .allocator import return_large_blocks
    from .devices import prepare_process, probe, quiet_mindspore

    outbox = Outbox(conn)
    stop = threading.Event()
    threading.Thread(target=outbox.heartbeat, args=(stop,), name="gradviz-heartbeat", daemon=True).start()
    try:
        quiet_mindspore()
        prepare_process(mode, device)
        return_large_blocks()
        try:
            devices = probe()
        except Exception as e:  # MindSpore itself failed to load
            outbox.send(
                msg.Fatal(
                    Msg("Engine", "MindSpore could not be loaded: {error}").format(error=describe(e)),
                    "".join(traceback.format_exception(e)),
                )
            )
            return
        outbox.send(msg.Devices(devices))
        Server(conn, outbox).loop()
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the app went away
    finally:
        stop.set()
        with outbox._lock:  # not while the heartbeat sends
            conn.close()
