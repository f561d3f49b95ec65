"""Runs over a Dataset node: the node and its checks, mini-batches epoch by epoch, the evaluation
after each epoch, the presets' accuracy and the headless records, checked against float64 numpy
written here (scikit-learn's samples, the documented split and batch order, MindSpore's
initializers drawn from the session's seed)."""

import json
import math

import numpy as np
import pytest

from gradviz.cli import main
from gradviz.model.graph import Graph, Node
from gradviz.model.presets import load_preset
from gradviz.model.session import Options, Session
from gradviz.model.steps import epoch_and_batch, epoch_end


def _net(**data) -> Session:
    attrs = {"source": "moons", "size": 40, "noise": 0.1, "test_fraction": 0.25, "batch_size": 8, "seed": 1, **data}
    nodes = [
        Node("data", "Dataset", attrs=attrs),
        Node("x", "Input", shape=(8, 2), init="features"),
        Node("fc", "Dense", {"x": "x"}, attrs={"in_channels": 2, "out_channels": 2}),
        Node("y", "Input", shape=(8, 2), init="onehot"),
        Node("ce", "SoftmaxCrossEntropy", {"logits": "fc", "target": "y"}),
        Node("loss", "Output", {"x": "ce"}),
    ]
    return Session(Graph(nodes), Options(lr=0.1, steps=10, seed=2))


def test_a_step_is_a_batch_of_an_epoch():
    assert [epoch_and_batch(k, 3) for k in (1, 3, 4, 7)] == [(1, 1), (1, 3), (2, 1), (3, 1)]
    assert epoch_end(2, 3) == 6


def test_the_inputs_fed_by_a_dataset_take_a_full_batchs_shape():
    s = _net()
    shapes = s.graph.check()
    assert shapes["x"] == (8, 2) and shapes["y"] == (8, 2)
    s.graph["data"].attrs["batch_size"] = 5
    assert s.graph.check()["x"] == (5, 2)
    assert s.graph.to_dict()["nodes"][1]["shape"] == [5, 2]  # saved as the node's shape


@pytest.mark.parametrize(
    "attrs,message",
    [
        ({"batch_size": 0}, 'Dataset "data": batch_size must be a number from 1 to 100000, not 0'),
        (
            {"batch_size": 31},
            'Dataset "data": batch_size must be a whole number from 1 to the training set\'s 30 samples, not 31',
        ),
        (
            {"size": 10, "test_fraction": 0.01},
            'Dataset "data": test_fraction 0.01 of 10 samples leaves no test example',
        ),
    ],
)
def test_bad_data_settings_name_the_node_and_the_field(attrs, message):
    s = _net(**attrs)
    assert message in [p.message for p in s.graph.validate() if p.node == "data"]


def test_a_dataset_is_one_and_feeds_an_input():
    s = _net()
    s.graph.nodes.append(Node("more", "Dataset"))
    assert 'Dataset "more": a graph takes at most one Dataset node' in [p.message for p in s.graph.validate()]
    s = _net()
    s.graph.nodes = [n for n in s.graph.nodes if n.kind != "Dataset"]
    msgs = [p.message for p in s.graph.validate() if p.node == "x"]
    assert msgs == ['Input "x": init features takes its values from a Dataset node, and the graph has none']


def test_only_an_input_takes_a_data_sets_batches():
    s = _net()
    s.graph.nodes.append(Node("w", "Parameter", shape=(8, 2), init="features"))
    msgs = [p.message for p in s.graph.validate() if p.node == "w"]
    assert msgs == ['Parameter "w": init features is for an Input fed by a Dataset node']


def test_bad_batch_size_on_the_command_line_names_the_node_and_field(capsys):
    assert main(["run", "--preset", "moons", "--batch-size", "0"]) == 2
    err = capsys.readouterr().err
    assert 'Dataset "data": batch_size must be a number from 1 to 100000, not 0' in err
    assert main(["run", "--preset", "tutorial", "--epochs", "2"]) == 2
    assert "need a session with a Dataset node" in capsys.readouterr().err
    assert load_preset("moons").graph["data"].attrs["batch_size"] == 16  # the preset as it was


# -- the float64 reference ----------------------------------------------------------------------------
def _reference_data(source, size, noise, test_fraction, seed):
    if source == "digits":
        from sklearn.datasets import load_digits

        d = load_digits()
        x, y = d.data / 16.0, d.target
    else:
        from sklearn.datasets import make_moons

        x, y = make_moons(n_samples=size, noise=noise, random_state=seed)
    x = x.astype(np.float32).astype(np.float64)
    perm = np.random.RandomState(seed).permutation(len(x))
    n_test = round(len(x) * test_fraction)
    train, test = perm[: len(x) - n_test], perm[len(x) - n_test :]
    return x[train], y[train], x[test], y[test]


def _reference_first_epoch(session, act, optimizer):
    """The first epoch's losses of Dense layers (he_uniform weights, zero biases, drawn in graph
    order from the seed) with `act` between them, trained by SGD or Adam in float64."""
    g = session.graph
    a = g["data"].attrs
    x, y, _, _ = _reference_data(a["source"], a["size"], a["noise"], a["test_fraction"], a["seed"])
    classes = 10 if a["source"] == "digits" else 2
    rng = np.random.RandomState(session.options.seed)
    layers = []
    for n in g.nodes:
        if n.kind == "Dense":
            i, o = n.attrs["in_channels"], n.attrs["out_channels"]
            bound = math.sqrt(6 / i)
            layers += [rng.uniform(-bound, bound, (o, i)).astype(np.float32).astype(np.float64), np.zeros(o)]
    lr, bs = session.options.lr, a["batch_size"]
    order = np.random.RandomState(a["seed"] + 1).permutation(len(x))
    m = [np.zeros_like(p) for p in layers]
    v = [np.zeros_like(p) for p in layers]
    losses = []
    for t, start in enumerate(range(0, len(x), bs), 1):
        pos = order[start : start + bs]
        xb, target = x[pos], np.eye(classes)[y[pos]]
        hs = [xb]
        for k in range(0, len(layers), 2):
            z = hs[-1] @ layers[k].T + layers[k + 1]
            hs.append(act(z) if k < len(layers) - 2 else z)
        z = hs[-1] - hs[-1].max(1, keepdims=True)
        p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
        losses.append(-np.mean(np.log(p[np.arange(len(pos)), y[pos]])))
        g_out = (p - target) / len(pos)
        grads = [None] * len(layers)
        for k in range(len(layers) - 2, -1, -2):
            grads[k], grads[k + 1] = g_out.T @ hs[k // 2], g_out.sum(0)
            if k:
                h = hs[k // 2]
                g_out = (g_out @ layers[k]) * ((1 - h * h) if act is np.tanh else (h > 0))
        for i, gr in enumerate(grads):
            if optimizer == "sgd":
                layers[i] = layers[i] - lr * gr
            else:  # Adam, MindSpore's defaults
                m[i] = 0.9 * m[i] + 0.1 * gr
                v[i] = 0.999 * v[i] + 0.001 * gr * gr
                step = lr * math.sqrt(1 - 0.999**t) / (1 - 0.9**t)
                layers[i] = layers[i] - step * m[i] / (np.sqrt(v[i]) + 1e-8)
    return losses


RELU = lambda z: np.maximum(z, 0)  # noqa: E731


@pytest.mark.real_engine
@pytest.mark.parametrize(
    "preset,mode,act,optimizer,path",
    [
        ("moons", "pynative", np.tanh, "adam", "step"),
        ("moons", "graph", np.tanh, "adam", "step"),
        ("digits", "pynative", RELU, "sgd", "step"),
        # the window's path: blocks recorded straight into summarised rows (digits' tensors are summarised)
        ("digits", "pynative", RELU, "sgd", "recorded"),
        ("digits", "graph", RELU, "sgd", "recorded"),
    ],
)
def test_the_first_epochs_losses_are_numpys(preset, mode, act, optimizer, path):
    from gradviz.engine.engine import Engine

    s = load_preset(preset)
    s.options.mode = mode
    ref = _reference_first_epoch(s, act, optimizer)
    e = Engine(s)
    try:
        assert e.steps_per_epoch == len(ref)
        if path == "step":
            got = [e.step().loss for _ in ref]
        else:
            assert e.plan.layouts[0].summaries  # the recorded rows summarise
            got = []
            while e.updates < len(ref):
                got += list(e.recorded_block(limit=len(ref) - e.updates)[1][:, 0])
        assert [(v.epoch, v.step) for v in e.evals] == [(1, len(ref))]  # evaluated once the epoch ended
    finally:
        e.close()
    np.testing.assert_allclose(got, ref, rtol=2e-5)


@pytest.mark.real_engine
@pytest.mark.parametrize("preset,field,least", [("moons", "train_accuracy", 0.97), ("digits", "accuracy", 0.93)])
def test_the_presets_defaults_reach_their_accuracy(preset, field, least):
    from gradviz.engine.engine import Engine

    s = load_preset(preset)
    s.options.mode = "graph"
    e = Engine(s)
    try:
        while e.updates < s.options.steps:
            e.steps_block(limit=s.options.steps - e.updates)
        spe = e.steps_per_epoch
        assert [(v.epoch, v.step) for v in e.evals] == [(k, k * spe) for k in range(1, s.options.steps // spe + 1)]
        assert getattr(e.evals[-1], field) >= least
        # the test set's accuracy, counted here from the network's scores on it
        last = e.evals[-1]
        _, _, tx, ty = _reference_data(
            **{k: s.graph["data"].attrs[k] for k in ("source", "size", "noise", "seed")},
            test_fraction=s.graph["data"].attrs["test_fraction"],
        )
        p = e.current_params()
        h = tx
        names = [n.name for n in s.graph.nodes if n.kind == "Dense"]
        for i, n in enumerate(names):
            h = h @ p[f"{n}_weight"].T.astype(np.float64) + p[f"{n}_bias"]
            if i < len(names) - 1:
                h = np.tanh(h) if preset == "moons" else np.maximum(h, 0)
        assert last.accuracy == pytest.approx(np.mean(h.argmax(1) == ty), abs=1e-9)
    finally:
        e.close()


@pytest.mark.real_engine
def test_a_rewind_drops_the_later_evaluations_and_training_on_repeats_them():
    from gradviz.engine.engine import Engine

    s = _net()
    e = Engine(s)
    try:
        losses = [e.step().loss for _ in range(9)]  # 4 steps an epoch
        first = list(e.evals)
        assert [v.step for v in first] == [4, 8]
        e.rewind(5)
        assert [v.step for v in e.evals] == [4]
        again = [e.step().loss for _ in range(4)]
        assert again == losses[5:9] and e.evals == first
    finally:
        e.close()


@pytest.mark.real_engine
def test_the_engine_process_sends_each_evaluation_once_and_the_window_keeps_the_run(qapp):
    # the window's evaluations (the first `kept` it has, then the message's) are the engine's
    # after each message, across a rewind; each evaluation crosses once
    from gradviz.engine import protocol as msg
    from gradviz.engine.process import Server
    from gradviz.ui.controller import TrainingController
    from standin import RecordingPipe

    s = _net()
    s.options.steps, s.options.api = 24, "value_and_grad"  # 4 steps an epoch: 6 epochs
    srv, ctl = Server(RecordingPipe()), TrainingController()
    try:
        srv.build(1, s.to_dict())
        for step in (None, 10, None):
            if step is not None:
                srv.on_continue(msg.ContinueFrom(step, s.options.lr, False))  # keeps epochs 1 and 2
            srv.start()
            while srv.running:
                srv.train_slice()
                srv.flush()
            srv.send_evals()
        evals = [m for m in srv.conn.sent if isinstance(m, msg.Evals)]
        assert len(evals) > 3
        for m in evals:
            ctl._on_evals(m)
        assert ctl.evals == tuple(v.to_dict() for v in srv.engine.evals)
        assert [v["epoch"] for v in ctl.evals] == [1, 2, 3, 4, 5, 6]
        assert len(ctl.predictions) == 6 and [p["step"] for p in ctl.predictions] == [4, 8, 12, 16, 20, 24]
        # after the rewind (a message may first only say what is kept: the later ones are dropped)
        assert any(m.kept == 2 and m.evals and m.evals[0]["epoch"] == 3 for m in evals)
        # each epoch's evaluation sent once, and once more for each repeated after the rewind
        assert sum(len(m.evals) for m in evals) == 6 + 4
    finally:
        srv.engine.close()
        ctl.deleteLater()


@pytest.mark.real_engine
def test_gradviz_run_over_digits_writes_epochs_batches_and_evaluations(tmp_path):
    from gradviz.formats.run_reader import read_history

    out = tmp_path / "run.jsonl"
    assert main(["run", "--preset", "digits", "--epochs", "2", "--batch-size", "64", "--out", str(out)]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    head, steps = recs[0], [r for r in recs if r["type"] == "step"]
    evals = [r for r in recs if r["type"] == "eval"]
    assert head["inputs"] == {}  # the data set is described, not copied
    assert head["dataset"] == {
        "source": "digits",
        "test_fraction": 0.2,
        "batch_size": 64,
        "seed": 0,
        "train_samples": 1438,
        "test_samples": 359,
        "steps_per_epoch": 23,
    }
    assert len(steps) == 46 and (steps[0]["epoch"], steps[0]["batch"]) == (1, 1)
    assert (steps[23]["epoch"], steps[23]["batch"]) == (2, 1) and recs[-1]["steps"] == 46
    assert [(r["epoch"], r["step"]) for r in evals] == [(1, 23), (2, 46)]
    assert recs.index(evals[0]) == recs.index(steps[22]) + 1  # after the epoch's last step
    assert 0 < evals[1]["accuracy"] <= 1 and evals[1]["test_loss"] < evals[0]["test_loss"]
    _, _, arrays, reason, _ = read_history(out)
    assert reason == "max_steps" and list(arrays[0]) == list(range(1, 47))
    np.testing.assert_allclose(arrays[1], [r["loss"] for r in steps])


# -- the exported scripts ---------------------------------------------------------------------------
def _run_records(tmp_path, *args):
    out = tmp_path / "run.jsonl"
    assert main(["run", *args, "--out", str(out)]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    return [r["loss"] for r in recs if r["type"] == "step"], [r for r in recs if r["type"] == "eval"]


def _printed(text: str):
    """(losses of the `step k loss v` lines, (accuracy %, avg loss) of the test_loop lines)."""
    import re

    steps = [float(m.group(1)) for m in re.finditer(r"^step \d+ loss (\S+)$", text, re.M)]
    tests = [(float(a), float(b)) for a, b in re.findall(r"^ Accuracy: (\S+)%, Avg loss: (\S+) $", text, re.M)]
    return steps, tests


@pytest.mark.real_engine
def test_the_exported_mindspore_script_reproduces_moons_in_its_own_process(tmp_path):
    import subprocess
    import sys

    losses, evals = _run_records(tmp_path, "--preset", "moons", "--steps", "25")
    path = tmp_path / "moons.py"
    assert main(["export", "--framework", "mindspore", "--preset", "moons", "--steps", "25", "--out", str(path)]) == 0
    text = path.read_text()
    assert "ds.NumpySlicesDataset((train_x, train_y)" in text and "ds.SubsetSampler(epoch_order(epoch)" in text
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    got, tests = _printed(done.stdout)
    np.testing.assert_allclose(got, losses, rtol=1e-5, atol=1e-5)
    assert "Epoch 1\n-------------------------------" in done.stdout
    assert tests == [(round(100 * evals[0]["accuracy"], 1), round(evals[0]["test_loss"], 6))]


@pytest.mark.real_engine
def test_the_exported_mindspore_script_reproduces_digits(tmp_path):
    import contextlib
    import io
    import runpy

    import mindspore

    losses, evals = _run_records(tmp_path, "--preset", "digits", "--steps", "30", "--mode", "graph")
    path = tmp_path / "digits.py"
    args = ["--preset", "digits", "--steps", "30", "--mode", "graph", "--out", str(path)]
    assert main(["export", "--framework", "mindspore", *args]) == 0
    out, real = io.StringIO(), mindspore.set_device
    mindspore.set_device = lambda *a, **k: None  # the device is set once per process
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(str(path), run_name="__main__")
    finally:
        mindspore.set_device = real
    got, tests = _printed(out.getvalue())
    np.testing.assert_allclose(got, losses, rtol=1e-5, atol=1e-5)
    assert tests == [(round(100 * evals[0]["accuracy"], 1), pytest.approx(evals[0]["test_loss"], abs=2e-6))]


@pytest.mark.parametrize("preset", ["moons", "digits"])
def test_the_exported_pytorch_script_reproduces_the_run(tmp_path, preset):
    pytest.importorskip("torch", reason="PyTorch is an optional extra: pip install -e '.[torch]'")
    import contextlib
    import io

    from gradviz.model import scripts

    losses, _ = _run_records(tmp_path, "--preset", preset, "--steps", "25")
    s = load_preset(preset)
    s.options.steps = 25
    text = scripts.script(s, "pytorch")
    assert "torch.utils.data.DataLoader(" in text and "sampler=epoch_order(epoch).tolist()" in text
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, "exported.py", "exec"), {"__name__": "__main__"})
    np.testing.assert_allclose(_printed(out.getvalue())[0], losses, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "edit,message",
    [
        (
            lambda d: d["attrs"].update(batch_size=0),
            'node 1 "data": batch_size must be a number from 1 to 100000, not 0',
        ),
        (
            lambda d: d["attrs"].update(size=10, test_fraction=0.01),
            'Dataset "data": test_fraction 0.01 of 10 samples leaves no test example',
        ),
    ],
)
def test_a_session_file_with_bad_data_settings_is_refused_naming_file_node_and_field(tmp_path, capsys, edit, message):
    from gradviz.model.session import save_session

    path = tmp_path / "edited.json"
    save_session(load_preset("moons"), path)
    d = json.loads(path.read_text())
    edit(next(n for n in d["graph"]["nodes"] if n["kind"] == "Dataset"))
    path.write_text(json.dumps(d))
    assert main(["run", "--session", str(path)]) == 2
    err = capsys.readouterr().err
    assert "edited.json" in err and message in err


def test_a_dense_layer_whose_in_size_does_not_match_the_data_is_named(tmp_path, capsys):
    s = load_preset("digits")
    s.graph["fc1"].attrs["in_channels"] = 32
    problems = [p.message for p in s.graph.validate() if p.node == "fc1"]
    assert problems == [
        'Dense "fc1": flat has shape (64, 64); Dense needs (samples, in_channels) or (in_channels,) with in_channels 32'
    ]


@pytest.mark.parametrize("preset,act,optimizer", [("moons", np.tanh, "adam"), ("digits", RELU, "sgd")])
def test_the_benchmarks_pytorch_peer_trains_the_presets_network_on_its_batches(preset, act, optimizer):
    # bench.py's PyTorch eager loop: the preset's exported PyTorch network, its first epoch's
    # mini-batches, the float64 numpy losses
    pytest.importorskip("torch")
    import importlib.util
    import sys
    from pathlib import Path

    here = Path(__file__).parents[1] / "benchmarks"
    spec = importlib.util.spec_from_file_location("gradviz_bench", here / "bench.py")
    bench = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(here))  # bench.py imports its stats.py
    try:
        spec.loader.exec_module(bench)
        function, opt, feed = bench._exported_torch(preset)
    finally:
        sys.path.remove(str(here))
    s = load_preset(preset)
    want = _reference_first_epoch(s, act, optimizer)
    got = []
    for _ in want:
        loss = function(*next(feed))
        got.append(loss.item())
        loss.backward()
        opt.step()
        opt.zero_grad()
    np.testing.assert_allclose(got, want, rtol=2e-5)
