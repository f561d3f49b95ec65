"""GradViz benchmark: the app against the bare MindSpore loop, in one run on one machine.

    python benchmarks/bench.py [--quick] [--json FILE] [--only WHAT] [--presets P ...]

How a figure is judged (benchmarks/stats.py): a ratio is the median of at least 20 alternating
pairs (8 with --quick, which says so) with a bootstrap 95% interval; it meets its budget when the
median does, and a ratio whose interval reaches more than 0.10 from its median is "too noisy to
judge": it is measured on, 10 pairs at a time up to 60, until it is judged or reported as such.
Absolute times and sizes are the median of several repetitions against their budget.

1. Throughput, every preset (tutorial, mlp, moons, digits, big; a preset not in this checkout
   is reported as not measured), PyNative and Graph mode: steps/s of the bare loop against the
   same training driven by the app's engine with the real main window open offscreen, plots and
   node values refreshing, set to value_and_grad. The bare loop of the tutorial is written by
   hand as the seed's loop is (`loss.asnumpy()` every step); of the others, the generated
   program's own train step, nothing recorded, and over a Dataset node (mlp, moons, digits) fed
   each mini-batch of the documented order as Tensors made from its numpy rows (no pipeline
   between). It runs in a process with the runtime
   settings the app's engine process uses for that mode (gradviz.engine.devices.prepare_process),
   its repetitions alternating with the app's. Budget: app/bare >= 0.90 (PyNative), >= 0.95
   (Graph). MindSpore's own tutorial loop with its default runtime is reported beside them.
   Where torch is installed (`pip install -e '.[torch]'`), PyTorch eager on the same graph
   (the tutorial's written out; the other presets' network, initial values, optimizer and
   mini-batches from their exported PyTorch script; `loss.backward(); optimizer.step();
   optimizer.zero_grad()`, the loss read every step) joins
   the alternation: app/PyTorch, budget >= 1.0 on the digits network in Graph mode, the others
   reported.
2. Responsiveness while Graph mode trains the tutorial flat out: lateness of a 5 ms GUI timer
   (p99 <= 25 ms) and plot refreshes per second (>= 30); the first Graph-mode step after a
   switch, from Start, within 1.5x MindSpore's own first call of the same jitted step.
3. History scale: 1,000,000 steps of the tutorial graph: memory (<= 300 MB) and a full redraw of
   all plots zoomed out (<= 16 ms).
   Time travel: 100,000 steps of the tutorial graph with all that is kept to continue from any
   step (the window's history and the engine's training states, Graph mode): <= 200 MB; and the
   time to rewind to a step in the middle.
4. Start-up, as `gradviz` launches (gradviz.app.open_window, a first launch), alternating with
   `python -c "import mindspore"`: the start screen that says what is loading painted within
   0.5 s, the main window painted (reported), and the tutorial ready to train within MindSpore's
   import time plus 0.5 s.
6. The data view (`--only dataview`), moons trained flat out in PyNative with the Data tab in
   front: live pictures per second (>= 2), each request's round trip, and each picture's cost
   on the GUI thread (set and painted, the mini maps included; the thread's CPU time): p99
   within the GUI timer's lateness budget (25 ms).
5. Memory (benchmarks/memory.py, `--only memory`): the tutorial, digits (many epochs, far past
   20, with their evaluations) and the `big` preset (one 1000x1000 Parameter), each mode: the
   bare loop's, the headless run's and the app's steps/s, the history's bytes per step, the window's and the engine's RSS and the headless run's peak
   (20 s a configuration, `--memory-seconds S`; `--only memory --soak 600` is the 10-minute soak
   of `big`).
`--json FILE` writes every row: its median, interval, n, budget and verdict."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GLOG_v", "3")


# -- 1 and 5: the bare loop, in its own process (MindSpore fixes its device per process) ---------
def bare_step(mode: str, defaults: bool = False, preset: str = "tutorial"):
    """One step of the bare loop as a function returning the loss tensor, with the runtime set up
    for `mode` (the app engine's settings, or MindSpore's own with `defaults`). Call it once per
    process, before any other MindSpore work (benchmarks/step_profile.py runs it beside the engine)."""
    import numpy as np

    if not defaults:  # the same runtime settings as the app's engine process for this mode
        from gradviz.engine.devices import prepare_process

        prepare_process(mode)
    import mindspore
    from mindspore import Parameter, Tensor, nn, ops

    if defaults:
        mindspore.set_device("CPU")  # MindSpore's own runtime settings
    else:
        from gradviz.engine.devices import use_device

        use_device("CPU")
    if preset == "tutorial":
        np.random.seed(42)
        x = ops.ones(5, mindspore.float32)
        y = ops.zeros(3, mindspore.float32)
        w = Parameter(Tensor(np.random.randn(5, 3), mindspore.float32), name="w")
        b = Parameter(
            Tensor(
                np.random.randn(
                    3,
                ),
                mindspore.float32,
            ),
            name="b",
        )

        def function(x, y, w, b):
            z = ops.matmul(x, w) + b
            return ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))

        grad_fn = mindspore.value_and_grad(function, (2, 3))
        optimizer = nn.SGD([w, b], learning_rate=0.01)

        def train_step(x, y):
            loss, grads = grad_fn(x, y, w, b)
            optimizer(grads)
            return loss
    else:  # any other preset: the generated program's own train step, nothing recorded
        from gradviz.engine.engine import Engine
        from gradviz.model.presets import load_preset

        s = load_preset(preset)
        s.options.mode, s.options.api = mode, "value_and_grad"
        engine = Engine(s)
        x, train_step = engine._inputs, engine._module.train_step  # x: all of the step's inputs

    step = mindspore.jit(train_step) if mode == "graph" else train_step
    if preset == "tutorial":

        def call():
            return step(x, y)
    elif engine.data is not None:  # over a Dataset node: each step a mini-batch, in the documented order
        batches = _course_batches(engine)

        def call():
            return step(*next(batches))[0]
    else:

        def call():
            return step(*x)[0]

    return call


def _course_batches(engine):
    """The step's inputs with each mini-batch in the documented order, epoch after epoch: the
    leanest feeding loop (numpy rows of each batch into Tensors), no pipeline between."""
    from mindspore import Tensor

    from gradviz.model.datasets import epoch_order

    d = engine.data
    fed = [i for i, init in enumerate(engine._data_inits) if init is not None]
    columns = [d.inputs(engine._data_inits[i]) for i in fed]
    bs, epoch = d.spec.batch_size, 0
    while True:
        epoch += 1
        order = epoch_order(len(d.train_x), d.spec.seed, epoch)
        for start in range(0, len(order), bs):
            rows = order[start : start + bs]
            inputs = list(engine._inputs)
            for i, c in zip(fed, columns):
                inputs[i] = Tensor(c[rows])
            yield inputs


def _bare_child(conn, mode: str, seconds: float, defaults: bool, preset: str = "tutorial") -> None:
    """Times `seconds` of the bare loop each time it is sent "go"; answers with the rate."""
    call = bare_step(mode, defaults, preset)
    t = time.perf_counter()
    float(call().asnumpy())
    conn.send(time.perf_counter() - t)  # the first step (compiles in Graph mode)
    while conn.recv() == "go":
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            float(call().asnumpy())  # the seed's loop reads the loss every step
            n += 1
        conn.send(n / (time.perf_counter() - t0))


def _torch_child(conn, seconds: float, preset: str = "tutorial") -> None:
    """The peer: the same graph in PyTorch eager on the CPU, written as seed 000 writes its loop
    (`loss.backward(); optimizer.step(); optimizer.zero_grad()`, the loss read every step), with
    PyTorch's own threading defaults. Same protocol as _bare_child."""
    import numpy as np
    import torch
    import torch.nn.functional as F

    if preset == "tutorial":
        np.random.seed(42)  # the tutorial's data and initial values, as in _bare_child
        x, y = torch.ones(5), torch.zeros(3)
        w = torch.nn.Parameter(torch.tensor(np.random.randn(5, 3), dtype=torch.float32))
        b = torch.nn.Parameter(torch.tensor(np.random.randn(3), dtype=torch.float32))
        params = [w, b]

        def function():
            return F.binary_cross_entropy_with_logits(torch.matmul(x, w) + b, y)

        optimizer = torch.optim.SGD(params, lr=0.01)
        feed = None
    else:  # any other preset: the network, initial values, optimizer and data of its exported script
        function, optimizer, feed = _exported_torch(preset)

    def step() -> float:
        loss = function() if feed is None else function(*next(feed))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return float(loss.detach().numpy())  # seed 000 reads the loss every step

    t = time.perf_counter()
    step()
    conn.send(time.perf_counter() - t)
    while conn.recv() == "go":
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            step()
            n += 1
        conn.send(n / (time.perf_counter() - t0))


def _exported_torch(preset: str):
    """(function, optimizer, batches) of the preset's exported PyTorch script (model/scripts.py),
    its definitions run up to its training loop: over a Dataset node each step's inputs are the
    next mini-batch in the documented order, gathered from numpy rows as _course_batches does."""
    import inspect

    import torch

    from gradviz.model import datasets
    from gradviz.model.presets import load_preset
    from gradviz.model.scripts import script

    s = load_preset(preset)
    src = script(s, "pytorch")
    cut = min(
        i for i in (src.find(m) for m in ("\nfor step in range(", "\ndef test_forward(", "\ndef train_loop(")) if i >= 0
    )
    ns: dict = {"__name__": f"gradviz_bench_{preset}"}
    exec(compile(src[:cut], f"<{preset}: exported PyTorch script>", "exec"), ns)
    function, optimizer = ns["function"], ns["optimizer"]
    names = list(inspect.signature(function).parameters)
    spec = s.graph.data_spec()

    def batches():
        d = datasets.prepare(spec)
        inits = {n.name: n.init for n in s.graph if n.name in names and n.init in datasets.DATA_INITS}
        epoch = 0
        while True:
            epoch += 1
            order = datasets.epoch_order(len(d.train_x), spec.seed, epoch)
            for start in range(0, len(order), spec.batch_size):
                rows = order[start : start + spec.batch_size]
                yield [torch.from_numpy(d.inputs(inits[n], positions=rows)) if n in inits else ns[n] for n in names]

    def fixed():
        args = [ns[n] for n in names]
        while True:
            yield args

    return function, optimizer, batches() if spec is not None else fixed()


def torch_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("torch") is not None


class Bare:
    """The bare loop (or, with peer="torch", PyTorch's) in a process of its own, kept warm
    between repetitions."""

    def __init__(
        self, mode: str, seconds: float, defaults: bool = False, preset: str = "tutorial", peer: str = "mindspore"
    ):
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        if peer == "torch":
            self._proc = ctx.Process(target=_torch_child, args=(child, seconds, preset))
        else:
            self._proc = ctx.Process(target=_bare_child, args=(child, mode, seconds, defaults, preset))
        self._proc.start()
        self.first_step_s = self._conn.recv()

    def rep(self) -> float:
        self._conn.send("go")
        return self._conn.recv()

    def close(self) -> None:
        self._conn.send("stop")
        self._proc.join()


# -- 1 and 2: the app -----------------------------------------------------------------------------
def _app():
    from PySide6.QtWidgets import QApplication

    from gradviz.ui import theme
    from gradviz.ui.garbage import collect_on_the_gui_thread

    app = QApplication.instance() or QApplication([])
    app.setFont(theme.font(theme.BASE_POINT_SIZE))
    collect_on_the_gui_thread(app)  # the app's garbage collection
    return app


def _wait(app, cond, timeout=120.0):
    """Run the event loop (idle, as a real app is) until cond() holds."""
    from PySide6.QtCore import QEventLoop, QTimer

    t = time.perf_counter()
    loop = QEventLoop()
    while not cond():
        QTimer.singleShot(10, loop.quit)
        loop.exec()
        if time.perf_counter() - t > timeout:
            raise TimeoutError("the app did not get there in time")


def _run_for(seconds: float) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def _training_window(app, mode: str, preset: str = "tutorial"):
    """The main window, shown, ready to train `preset` flat out in `mode` with no end: the same
    program as the bare loop, value_and_grad (the tutorial preset opens with mindspore.grad,
    whose train step runs the function once more for the loss)."""
    from gradviz.ui.main_window import MainWindow

    w = MainWindow()
    w.resize(1600, 1000)
    w.show()
    c = w.controller
    _wait(app, lambda: c.state == "ready")
    if preset != "tutorial":
        w.files.load_preset(preset)
        _wait(app, lambda: c.state == "ready" and c.session.name == preset)
        w.controls.untilLossSpin.setValue(0)  # train on: no stop at loss
        _wait(app, lambda: c.state == "ready" and c.session.options.until_loss is None)
    w.controls.apiCombo.setCurrentIndex(w.controls.apiCombo.findData("value_and_grad"))
    _wait(app, lambda: c.state == "ready" and c.session.options.api == "value_and_grad")
    w.controls.modeCombo.setCurrentIndex(w.controls.modeCombo.findData(mode))
    _wait(app, lambda: c.state == "ready" and c._client.mode == mode)
    w.controls.maxStepsSpin.setValue(100_000_000)
    _wait(app, lambda: c.state == "ready")
    return w


class Throughput:
    """Steps/s of the bare loop (and of PyTorch eager, where installed) and of the app training
    flat out (with the GUI timer's lateness and the plots' refresh rate), in alternating pairs:
    the machine's speed drifts, and each pair sees the same drift. The app pauses while the bare
    loop runs. `more(n)` adds n pairs, so that a ratio too noisy to judge can be measured on."""

    def __init__(self, mode: str, seconds: float, preset: str = "tutorial"):
        from PySide6.QtCore import QElapsedTimer, Qt, QTimer

        self.app = _app()
        self.seconds = seconds
        self.w = _training_window(self.app, mode, preset)
        self.refreshes = [0]
        real_refresh = self.w.plots.refresh

        def counting_refresh(force=False):
            v = self.w.plots._version
            real_refresh(force)
            self.refreshes[0] += self.w.plots._version != v

        self.w.plots.refresh = counting_refresh
        self.lateness: list[float] = []
        self.clock = QElapsedTimer()
        self.probe = QTimer()
        self.probe.setTimerType(Qt.TimerType.PreciseTimer)
        self.probe.setInterval(5)
        self.last = [0.0]

        def tick():
            now = self.clock.nsecsElapsed() / 1e6
            if self.last[0]:
                self.lateness.append(max(0.0, now - self.last[0] - 5.0))
            self.last[0] = now

        self.probe.timeout.connect(tick)
        self.bare = Bare(mode, seconds, preset=preset)
        torch_peer = torch_installed() and preset in TORCH_LOOPS
        self.peer = Bare(mode, seconds, preset=preset, peer="torch") if torch_peer else None
        self.out = {
            "bare": [],
            "torch": [],
            "rates": [],
            "p99_late_ms": [],
            "refresh_hz": [],
            "first_step_s": self.bare.first_step_s,
            "app_first_step_s": None,
        }

    def more(self, n: int) -> dict:
        import numpy as np

        out, c = self.out, self.w.controller
        for _ in range(n):
            out["bare"].append(self.bare.rep())
            if self.peer is not None:
                out["torch"].append(self.peer.rep())
            s0, t0 = c.step_count, time.perf_counter()
            c.start()
            if out["app_first_step_s"] is None:  # Start to the first step: Graph mode compiles here
                _wait(self.app, lambda s0=s0: c.step_count > s0)
                out["app_first_step_s"] = time.perf_counter() - t0
            _wait(self.app, lambda s0=s0: c.state == "training" and c.step_count > s0 + 50)
            self.lateness.clear()
            self.refreshes[0] = 0
            self.last[0] = 0.0
            self.clock.start()
            self.probe.start()
            s0, t0 = c.step_count, time.perf_counter()
            _run_for(self.seconds)
            dt = time.perf_counter() - t0
            self.probe.stop()
            # the history only holds what arrived; count steps the engine finished in this window
            out["rates"].append((c.step_count - s0) / dt)
            out["p99_late_ms"].append(float(np.percentile(self.lateness, 99)) if self.lateness else 0.0)
            out["refresh_hz"].append(self.refreshes[0] / dt)
            c.pause()
            _wait(self.app, lambda: c.state == "paused")
        return out

    def close(self) -> dict:
        c = self.w.controller
        self.bare.close()
        if self.peer is not None:
            self.peer.close()
        self.out["lost_steps"] = int(c.history.n != c.step_count or list(c.history.steps[:3]) != [1, 2, 3])
        self.w.close()
        self.app.processEvents()
        return self.out


def judged_ratio(mode: str, seconds: float, preset: str, budget: float, pairs: int, max_pairs: int) -> dict:
    """The app against its bare loop: `pairs` alternating pairs, then 10 more at a time while the
    ratio is too noisy to judge, up to `max_pairs`."""
    run = Throughput(mode, seconds, preset)
    try:
        out = run.more(pairs)
        fig = stats.judge([a / b for a, b in zip(out["rates"], out["bare"])], budget)
        while fig.verdict == stats.NOISY and len(out["rates"]) < max_pairs:
            out = run.more(min(10, max_pairs - len(out["rates"])))
            fig = stats.judge([a / b for a, b in zip(out["rates"], out["bare"])], budget)
    finally:
        out = run.close()
    out["ratio"] = fig
    return out


def node_refreshes(mode: str, seconds: float, reps: int) -> list[float]:
    """Live node refreshes per second (graphView.nodesShown) while the app trains flat out."""

    app = _app()
    w = _training_window(app, mode)
    c = w.controller
    shown = [0]
    w.graphView.nodesShown.connect(lambda _n: shown.__setitem__(0, shown[0] + 1))
    rates = []
    try:
        for _ in range(reps):
            c.start()
            _wait(app, lambda: c.state == "training")  # compiled (Graph mode)
            shown[0] = 0
            t0 = time.perf_counter()
            _run_for(seconds)
            rates.append(shown[0] / (time.perf_counter() - t0))
            c.pause()
            _wait(app, lambda: c.state == "paused")
    finally:
        w.close()
        app.processEvents()
    return rates


def data_view_refresh(seconds: float) -> dict:
    """The data view while the app trains moons flat out (PyNative): live pictures per second,
    each request's round trip (sent to drawn, ms), and each picture's cost on the GUI thread (its
    image and the hidden nodes' mini maps set and painted: the thread's CPU time, ms, which other
    programs on the machine do not lengthen)."""
    from PySide6.QtWidgets import QDockWidget

    app = _app()
    w = _training_window(app, "pynative", "moons")
    c, panel = w.controller, w.dataPanel
    w.findChild(QDockWidget, "dataDock").raise_()
    sent: dict[int, float] = {}
    trips, costs = [], []
    ask = c.request_plane

    def timed_ask(request, *a, **k):
        sent[request] = time.perf_counter()
        return ask(request, *a, **k)

    def drawn(m) -> None:  # after the panel's own slot: the picture is set, now painted
        t = time.thread_time()
        panel.view.repaint()
        for item in w.scene.items_by_name.values():  # the graph where the mini maps changed
            if item.unit_maps is not None:
                gv = w.graphView
                gv.viewport().repaint(gv.mapFromScene(item.unit_maps.sceneBoundingRect()).boundingRect())
        costs.append((time.thread_time() - t) * 1e3 + spent[0])
        if m.request in sent:
            trips.append((time.perf_counter() - sent.pop(m.request)) * 1e3)

    spent = [0.0]
    on_plane = panel._on_plane

    def measured(m) -> None:
        t = time.thread_time()
        on_plane(m)
        spent[0] = (time.thread_time() - t) * 1e3

    c.request_plane = timed_ask
    c.planeArrived.disconnect(panel._on_plane)
    c.planeArrived.connect(measured)
    c.planeArrived.connect(drawn)
    try:
        c.start()
        _wait(app, lambda: c.state == "training" and panel.pictures >= 3)  # compiled by now
        first, t0 = panel.pictures, time.perf_counter()
        trips.clear()
        costs.clear()
        _run_for(seconds)
        rate = (panel.pictures - first) / (time.perf_counter() - t0)
        c.pause()
        _wait(app, lambda: c.state == "paused")
    finally:
        w.close()
        app.processEvents()
    return {"rate": rate, "trip_ms": trips, "gui_ms": costs}


def _data_view_rows(res: dict, seconds: float) -> list[Row]:
    import numpy as np

    dv = data_view_refresh(seconds)
    gui = stats.judge([float(np.percentile(dv["gui_ms"], 99))], 25, at_least=False, noise=None)
    res["data_view"] = {"rate": dv["rate"], "trip_ms": _stat(dv["trip_ms"]), "gui_p99_ms": gui.to_dict()}
    return [
        Row("data view pictures per second, moons flat out", figure=stats.judge([dv["rate"]], 2, noise=None)),
        Row("  a picture's round trip, request to drawn (ms)", "", _fmt(_stat(dv["trip_ms"]))),
        Row("  a picture's cost on the GUI thread, p99 (ms)", "", _fmt(_stat(dv["gui_ms"])), gui),
    ]


# -- 3: history scale ------------------------------------------------------------------------------
def history_scale(reps: int, steps: int = 1_000_000) -> dict:
    import numpy as np

    from gradviz.model.history import History
    from gradviz.model.layout import Layout
    from gradviz.ui.plots import PlotPanel

    app = _app()
    pl = Layout(["w", "b"], [(5, 3), (3,)])
    h = History(pl, pl, Layout([], []))
    rng = np.random.default_rng(0)
    B = 10_000
    t = time.perf_counter()
    for i in range(0, steps, B):
        k = min(B, steps - i)
        decay = np.exp(-np.arange(i, i + k) / 2e5)[:, None]
        h.append(
            np.arange(i + 1, i + k + 1),
            (1.3 * decay[:, 0] + 0.01 * rng.random(k)).astype(np.float32),
            (rng.standard_normal((1, 18)) * (1 + decay)).astype(np.float32),
            (rng.standard_normal((k, 18)) * decay * 0.3).astype(np.float32),
            np.zeros((k, 0), np.float32),
            np.ones(k, np.float32),
        )
    append_s = time.perf_counter() - t
    panel = PlotPanel()
    panel.resize(1400, 380)
    panel.show()
    panel.set_history(h)
    panel.refresh(force=True)
    panel.grab()
    times = []
    for _ in range(max(reps, 5)):
        t = time.perf_counter()
        panel.refresh(force=True)
        panel.grab()  # paints every plot
        times.append((time.perf_counter() - t) * 1e3)
    panel.close()
    app.processEvents()
    return {"mb": h.nbytes() / 2**20, "redraw_ms": times, "append_s": append_s}


# -- 3: time travel: what a run keeps to continue from any step ----------------------------------
def _time_travel_child(conn, steps: int) -> None:
    """Trains `steps` steps of the tutorial in Graph mode as the app's engine does (whole batches,
    a training state kept every few steps), recording every step in a History as the window
    does; sends the bytes of both and the time to rewind to a step in the middle."""
    import numpy as np

    from gradviz.engine.devices import prepare_process

    prepare_process("graph")
    from gradviz.engine.engine import Engine
    from gradviz.model.history import History
    from gradviz.model.layout import LOSS_COL, LR_COL, row_slices
    from gradviz.model.presets import load_preset

    s = load_preset("tutorial")
    s.options.mode, s.options.steps = "graph", steps
    e = Engine(s)
    h = History(e.param_layout, e.grad_layout, e.aux_layout)
    pc, gc, ac = row_slices(e.param_layout, e.grad_layout)
    t = time.perf_counter()
    while e.updates < steps:
        first, rows, ms = e.steps_block()
        h.append(
            np.arange(first, first + len(rows)),
            rows[:, LOSS_COL],
            rows[:, pc],
            rows[:, gc],
            rows[:, ac],
            np.full(len(rows), ms, np.float32),
            rows[:, LR_COL],
        )
    train_s = time.perf_counter() - t
    t = time.perf_counter()
    e.rewind(steps // 2 + 77)  # not on a kept state: restore the one before and replay
    rewind_ms = (time.perf_counter() - t) * 1e3
    conn.send(
        {
            "history_mb": h.nbytes() / 2**20,
            "states_mb": e.checkpoints.nbytes / 2**20,
            "states": len(e.checkpoints),
            "interval": e.checkpoints.interval,
            "train_s": train_s,
            "rewind_ms": rewind_ms,
            "steps": h.n,
        }
    )
    e.close()


def time_travel_memory(steps: int = 100_000) -> dict:
    ctx = multiprocessing.get_context("spawn")
    conn, child = ctx.Pipe()
    p = ctx.Process(target=_time_travel_child, args=(child, steps))
    p.start()
    try:
        out = conn.recv()
    finally:
        p.join()
    out["mb"] = out["history_mb"] + out["states_mb"]
    return out


def _time_travel_rows(tt: dict) -> list[tuple]:
    return [
        (
            f"time travel: {tt['steps']:,} steps, history + training states (MB)",
            "",
            f"{tt['mb']:.1f} ({tt['history_mb']:.1f} + {tt['states_mb']:.2f}, {tt['states']} states)",
            "",
            "<= 200",
            tt["mb"] <= 200,
        ),
        ("time travel: rewind to the middle of that run (ms)", "", f"{tt['rewind_ms']:.1f}", "", "reported", True),
    ]


# -- 4: start-up ----------------------------------------------------------------------------------
STARTUP = r"""
import time, sys
t0 = float(sys.argv[1])
from gradviz.app import open_window  # what `gradviz` runs before its event loop
from gradviz.ui import start_screen
app, w = open_window([])
app.processEvents()  # the main window's first paint
window = time.time() - t0
shown = start_screen.painted_at - t0  # the start screen, painted before the window is built
from PySide6.QtCore import QEventLoop, QTimer
loop = QEventLoop()
while w.controller.state != "ready":
    QTimer.singleShot(5, loop.quit)
    loop.exec()
print(shown, window, time.time() - t0, flush=True)
w.close()
"""


def startup(reps: int) -> dict:
    import tempfile

    shown, window, ready = [], [], []
    for _ in range(reps):
        home = tempfile.mkdtemp(prefix="gradviz-bench-")
        t0 = time.time()
        r = subprocess.run(
            [sys.executable, "-c", STARTUP, repr(t0)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            # a first launch: the app's settings and autosave in a fresh folder
            env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home},
        )
        a, b, c = r.stdout.split()[-3:]
        shown.append(float(a))
        window.append(float(b))
        ready.append(float(c))
    return {"shown_s": shown, "window_s": window, "ready_s": ready}


# -- report ---------------------------------------------------------------------------------------
def _stat(v: list[float]) -> dict:
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}


def _fmt(s: dict, digits: int = 1) -> str:
    return f"{s['median']:,.{digits}f} ({s['min']:,.{digits}f} – {s['max']:,.{digits}f})"


PRESETS = ("tutorial", "mlp", "moons", "digits", "big")
TORCH_LOOPS = PRESETS  # the presets whose PyTorch eager loop _torch_child writes
BUDGETS = {"pynative": 0.90, "graph": 0.95}  # the app's steps/s against its bare loop's, every preset
TORCH_BUDGET = ("digits", "graph", 1.0)  # app against PyTorch eager, where a kernel does enough work


class Row:
    """One line of the report: what was measured, the bare and app figures as text, and the
    judged figure (or a verdict alone for rows that report)."""

    def __init__(
        self, measure: str, bare: str = "", app: str = "", figure=None, verdict: str | None = None, budget: str = ""
    ):
        self.measure, self.bare, self.app, self.figure, self._budget = measure, bare, app, figure, budget
        self.verdict = verdict or (figure.verdict if figure is not None else stats.REPORTED)

    @classmethod
    def of(cls, t: tuple) -> Row:
        """A row of the older (measure, bare, app, ratio, budget, met) tuples (memory, time travel)."""
        reported = t[4] in ("reported", "info")
        return cls(
            t[0],
            str(t[1]),
            str(t[2]),
            verdict=stats.REPORTED if reported else stats.MET if t[5] else stats.NOT_MET,
            budget="" if reported else t[4],
        )

    @property
    def budget(self) -> str:
        f = self.figure
        if f is None or f.budget is None:
            return self._budget
        return f"{'>=' if f.at_least else '<='} {f.budget:g}"

    @property
    def ok(self) -> bool:
        return self.verdict in (stats.MET, stats.REPORTED)

    def cells(self) -> tuple:
        fig = "" if self.figure is None else stats.fmt(self.figure, 3 if self.figure.noise else 2)
        return (self.measure, self.bare, self.app, fig, self.budget, self.verdict)

    def to_dict(self) -> dict:
        d = {"measure": self.measure, "bare": self.bare, "app": self.app, "verdict": self.verdict}
        if self.figure is not None:
            d.update(self.figure.to_dict())
        return d


def _available(preset: str) -> bool:
    from gradviz.model.presets import preset_names

    return preset in preset_names()


def _throughput_rows(res: dict, seconds: float, pairs: int, max_pairs: int, presets=PRESETS) -> list[Row]:
    rows: list[Row] = []
    for preset in presets:
        for mode, budget in BUDGETS.items():
            label = f"throughput {preset}, {mode}: app / bare loop (steps/s)"
            if not _available(preset):
                rows.append(Row(label, verdict=stats.MISSING, app=f"no {preset} preset"))
                continue
            run = judged_ratio(mode, seconds, preset, budget, pairs, max_pairs)
            fig = run.pop("ratio")
            res[f"{preset}_{mode}"] = {**run, "ratio": fig.to_dict()}
            rows.append(Row(label, _fmt(_stat(run["bare"]), 0), _fmt(_stat(run["rates"]), 0), fig))
            if run["torch"]:
                tb = TORCH_BUDGET[2] if (preset, mode) == TORCH_BUDGET[:2] else None
                tf = stats.judge([a / b for a, b in zip(run["rates"], run["torch"])], tb)
                res[f"{preset}_{mode}"]["torch_ratio"] = tf.to_dict()
                rows.append(Row(f"  app / PyTorch eager, {preset}, {mode}", _fmt(_stat(run["torch"]), 0), "", tf))
            elif (preset, mode) == TORCH_BUDGET[:2]:
                why = "no torch" if not torch_installed() else f"no PyTorch loop of {preset} yet"
                rows.append(Row(f"  app / PyTorch eager, {preset}, {mode}", verdict=stats.MISSING, app=why))
            if preset == "tutorial" and mode == "graph":
                late = stats.judge(run["p99_late_ms"], 25, at_least=False, noise=None)
                hz = stats.judge(run["refresh_hz"], 30, noise=None)
                res["responsiveness"] = {"p99_late_ms": late.to_dict(), "refresh_hz": hz.to_dict()}
                rows.append(Row("GUI 5 ms timer while Graph mode trains, p99 lateness (ms)", figure=late))
                rows.append(Row("plot refreshes per second", figure=hz))
                # a Graph-mode switch's first step against MindSpore's own first call of the
                # same jitted step (the bare loop's, which compiles it)
                first = run["app_first_step_s"] / run["first_step_s"]
                res["first_graph_step"] = {"app_s": run["app_first_step_s"], "bare_s": run["first_step_s"]}
                rows.append(
                    Row(
                        "first Graph-mode step: app / MindSpore's own first jitted call (s)",
                        f"{run['first_step_s']:.3f}",
                        f"{run['app_first_step_s']:.3f}",
                        stats.judge([first], 1.5, at_least=False, noise=None),
                    )
                )
    return rows


def _ceiling_rows(res: dict, reps: int, seconds: float) -> list[Row]:
    """MindSpore's own best compiled loop of the tutorial graph, with its default runtime: the
    framework's floor that no app on it can go under."""
    rows = []
    for mode in BUDGETS:
        d = Bare(mode, seconds, defaults=True)
        try:
            rates = [d.rep() for _ in range(reps)]
        finally:
            d.close()
        res[f"bare_default_runtime_{mode}"] = _stat(rates)
        rows.append(Row(f"  bare tutorial loop, MindSpore's default runtime ({mode})", _fmt(_stat(rates), 0)))
    return rows


IMPORT_MINDSPORE = "import time, sys; t0 = float(sys.argv[1]); import mindspore; print(time.time() - t0)"


def _startup_rows(res: dict, reps: int) -> list[Row]:
    """Start-up judged against `python -c "import mindspore"` timed in the same run, alternating."""
    shown, window, ready, imports = [], [], [], []
    for _ in range(reps):
        st = startup(1)
        shown += st["shown_s"]
        window += st["window_s"]
        ready += st["ready_s"]
        t0 = time.time()
        r = subprocess.run([sys.executable, "-c", IMPORT_MINDSPORE, repr(t0)], capture_output=True, text=True)
        imports.append(float(r.stdout.split()[-1]))
    imp = statistics.median(imports)
    res["startup"] = {"shown_s": shown, "window_s": window, "ready_s": ready, "import_mindspore_s": imports}
    return [
        Row("start-up: start screen painted (s)", "", _fmt(_stat(shown), 2), stats.judge(shown, 0.5, False, None)),
        Row("start-up: main window painted (s)", "", _fmt(_stat(window), 2)),
        Row(
            "start-up: ready to train, less `import mindspore` (s)",
            _fmt(_stat(imports), 2),
            _fmt(_stat(ready), 2),
            stats.judge([r - imp for r in ready], 0.5, False, None),
        ),
    ]


def _print(rows: list[Row]) -> None:
    head = ("measure", "bare", "app", "median [95% interval] n", "budget", "verdict")
    table = [head] + [r.cells() for r in rows]
    widths = [max(len(str(r[i])) for r in table) for i in range(len(head))]
    lines = ["| " + " | ".join(str(c).ljust(wd) for c, wd in zip(r, widths)) + " |" for r in table]
    lines.insert(1, "|" + "|".join("-" * (wd + 2) for wd in widths) + "|")
    print("\n".join(lines), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer, shorter pairs (says so; a couple of minutes a row)")
    ap.add_argument("--json", help="also write every row (median, interval, budget, verdict) here")
    ap.add_argument(
        "--only",
        choices=["time_travel", "throughput", "startup", "memory", "dataview"],
        help="measure only this (a quick check)",
    )
    ap.add_argument("--presets", nargs="+", choices=PRESETS, default=list(PRESETS), help="the throughput rows' presets")
    ap.add_argument("--memory-seconds", type=float, default=20.0, help="seconds per configuration of the memory rows")
    ap.add_argument("--soak", type=float, help="with --only memory: train `big` this many seconds (600: the soak)")
    a = ap.parse_args()
    if a.only == "memory":
        import memory

        res = memory.measure(a.soak, presets=("big",)) if a.soak else memory.measure(a.memory_seconds)
        for r in memory.rows(res):
            print(" | ".join(str(c) for c in r[:5]), "| met" if r[5] else "| NOT MET")
        if a.json:
            Path(a.json).write_text(json.dumps(res, indent=1))
        return 0 if all(r[5] for r in memory.rows(res)) else 1
    if a.only == "time_travel":
        tt = time_travel_memory()
        for r in _time_travel_rows(tt):
            print(" | ".join(str(c) for c in r[:5]), "| met" if r[5] else "| NOT MET")
        return 0 if all(r[5] for r in _time_travel_rows(tt)) else 1
    reps, secs = (3, 2.0) if a.quick else (5, 4.0)
    # throughput: at least 20 alternating pairs (8 with --quick), more while a ratio is too noisy
    pairs, max_pairs, t_secs = (8, 8, 1.5) if a.quick else (20, 60, 2.0)
    res: dict = {
        "machine": {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()},
        "quick": a.quick,
    }
    rows: list[Row] = []
    if a.only in (None, "startup"):
        rows += _startup_rows(res, reps)
    if a.only in (None, "throughput"):
        rows += _throughput_rows(res, t_secs, pairs, max_pairs, a.presets)
        rows += _ceiling_rows(res, reps, t_secs)
    if a.only in (None, "dataview"):
        rows += _data_view_rows(res, secs)
    if a.only is None:
        for mode in BUDGETS:
            nr = stats.judge(node_refreshes(mode, secs, reps), 2, noise=None)
            res[f"node_refreshes_{mode}"] = nr.to_dict()
            rows.append(Row(f"node refreshes per second, flat out ({mode})", figure=nr))
        hs = history_scale(reps)
        rd = stats.judge(hs["redraw_ms"], 16, at_least=False, noise=None)
        res["history"] = {"mb": hs["mb"], "redraw_ms": rd.to_dict(), "append_s": hs["append_s"]}
        rows.append(
            Row("history of 1,000,000 steps (MB)", "", f"{hs['mb']:.0f}", stats.judge([hs["mb"]], 300, False, None))
        )
        rows.append(Row("full redraw of all plots, zoomed out (ms)", figure=rd))
        tt = time_travel_memory()
        res["time_travel"] = tt
        rows += [Row.of(r) for r in _time_travel_rows(tt)]
        import memory

        res["memory"] = memory.measure(a.memory_seconds / 2 if a.quick else a.memory_seconds)
        rows += [Row.of(r) for r in memory.rows(res["memory"])]
    _print(rows)
    print(
        f"\nratios: the median of alternating pairs ({pairs} to {max_pairs} pairs of {t_secs:g} s) with a bootstrap "
        f"95% interval; a ratio whose interval reaches more than {stats.NOISE} from its median is too noisy to judge. "
        f"Other figures: median of {reps} repetitions. {'QUICK: fewer pairs than a full run. ' if a.quick else ''}"
        f"{res['machine']['platform']}, {res['machine']['cpus']} CPUs"
    )
    res["rows"] = [r.to_dict() for r in rows]
    res["all_met"] = all(r.ok for r in rows)
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1, default=lambda o: o.to_dict()))
    return 0 if res["all_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
