"""Importing MindSpore code: the seeds as printed, the round trip through the exported script,
what is refused and where, and proof that nothing in the file runs."""

from __future__ import annotations

import itertools
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradviz.model.code_import import MAX_CODE_BYTES, MAX_LINE, CodeError, import_code, import_file
from gradviz.model.codegen import generate
from gradviz.model.scripts import mindspore_script
from gradviz.model.graph import Graph, Node, initial_values
from gradviz.model.ops import OPS
from gradviz.model.presets import load_preset, preset_names
from gradviz.model.session import Options, Session

from graphs import graphs, layered_sessions, options as option_sets

FIXTURES = Path(__file__).with_name("code_fixtures")


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.py.txt").read_text(encoding="utf-8")


def canon(session: Session) -> dict:
    """What the program says of a session: the graph (sources in order, computed nodes in
    topological order, the returned Outputs) without positions, float32 values, the options
    but the app's speed; Output nodes are numbered (the program names only their sources)."""
    g, o = session.graph, session.options
    aux_on = o.aux_output and len(g.outputs()) > 1
    outs = g.outputs() if aux_on else g.outputs()[:1]
    nodes = [n for n in g.nodes if n.is_source] + [n for n in g.topo_order() if not n.is_source and n.kind != "Output"]
    out = []
    fed = {n.name: n for n in g.sources()}  # an Input the Dataset feeds: a batch's shape
    for n in nodes:
        d = fed.get(n.name, n).to_dict()
        d.pop("pos")
        if "values" in d:
            d["values"] = np.asarray(d["values"], np.float32).tolist()
        out.append(d)
    out += [{"kind": "Output", "x": n.inputs["x"], "i": i} for i, n in enumerate(outs)]
    if g.dataset() is not None:  # outside the computation: the data set its settings make (a
        # source's own: a CSV file has no size or noise, the digits no noise)
        out.append({"kind": "Dataset", "data": g.data_spec().describe()})
    opts = dict(o.to_dict(), speed=0.0, aux_output=aux_on)
    if not aux_on:
        opts.update(stop_gradient=False, has_aux=False)
    return {"nodes": out, "options": opts}


def problems(text: str) -> list[str]:
    with pytest.raises(CodeError) as e:
        import_code(text, "prog.py")
    return e.value.lines()


# -- the seeds as printed ------------------------------------------------------------------------
TUTORIAL_VARIANTS = {
    "tutorial_function": dict(api="grad"),
    "tutorial_with_logits": dict(api="grad", aux_output=True),
    "tutorial_stop_gradient": dict(api="grad", aux_output=True, stop_gradient=True),
    "tutorial_has_aux": dict(api="grad", aux_output=True, has_aux=True),
    "tutorial_cell": dict(api="cell"),
    "tutorial_notebook": dict(api="cell"),
}


@pytest.mark.parametrize("name", TUTORIAL_VARIANTS)
def test_the_tutorials_cells_import_into_the_tutorial_graph(name):
    imported = import_code(fixture(name), f"{name}.py")
    preset = load_preset("tutorial")
    expected = Session(preset.graph, replace(preset.options, **TUTORIAL_VARIANTS[name]))
    assert canon(imported) == canon(expected)
    assert [n.name for n in imported.graph.nodes[:7]] == ["x", "y", "w", "b", "matmul", "z", "loss"]


def _tutorial_db(seed: int, z_too: bool) -> np.ndarray:
    """d loss/d b (+ d sum(z)/d b) for x = ones(5), y = zeros(3), w, b = randn(5, 3), randn(3)."""
    rng = np.random.RandomState(seed)
    w, b = rng.randn(5, 3).astype(np.float32).astype(np.float64), rng.randn(3).astype(np.float32).astype(np.float64)
    z = np.ones(5) @ w + b
    return (1 / (1 + np.exp(-z))) / 3 + (1.0 if z_too else 0.0)


@pytest.mark.parametrize(
    "name", ["tutorial_function", "tutorial_with_logits", "tutorial_stop_gradient", "tutorial_has_aux"]
)
def test_the_variants_gradients_are_the_tutorials(name):
    """The four variants' db, from the imported sessions' own numpy reference, against the
    tutorial's numbers derived here by hand."""
    from gradviz.model.numeric import evaluate

    s = import_code(fixture(name))
    _, _, grads = evaluate(s)
    z_too = name == "tutorial_with_logits"
    np.testing.assert_allclose(grads["b"], _tutorial_db(42, z_too), rtol=1e-6)
    np.testing.assert_allclose(_tutorial_db(42, False), [0.326, 0.016, 0.042], atol=5e-4)


def _train_linreg(session: Session) -> list[float]:
    """SGD on mean((weight * x + bias - target)^2), float64, as the seed's loop: stop before the
    update once the loss is below until_loss."""
    g, o = session.graph, session.options
    v = {k: np.asarray(a, np.float64) for k, a in initial_values(g, o.seed).items()}
    (weight,), (bias,) = (
        [n.name for n in g.parameters() if n.shape == (1,)],
        [n.name for n in g.parameters() if n.shape == (2,)],
    )
    x = v[next(n.name for n in g.inputs() if n.values == [1.0, 2.0])]
    t = v[next(n.name for n in g.inputs() if n.values == [101.0, 202.0])]
    w, b, losses = v[weight], v[bias], []
    for _ in range(o.steps):
        r = w * x + b - t
        losses.append(float(np.mean(r**2)))
        if o.until_loss is not None and losses[-1] < o.until_loss:
            break
        w, b = w - o.lr * np.array([np.sum(2 * r * x) / 2]), b - o.lr * 2 * r / 2
    return losses


def test_the_seeds_mindspore_program_is_the_linreg_graph_and_trains_like_it():
    s = import_code(fixture("seed_mindspore"), "seed.py")
    o = s.options
    assert (o.optimizer, o.lr, o.steps, o.until_loss, o.api) == ("sgd", 0.01, 1000, 0.001, "cell")
    kinds = {n.kind: n for n in s.graph.nodes}
    assert kinds["Mul"].inputs == {"a": "weight", "b": "inputs"}
    assert kinds["MSE"].inputs == {"pred": "y", "target": "targets"}
    linreg = load_preset("linreg")
    ours, theirs = _train_linreg(s), _train_linreg(linreg)
    assert len(ours) == len(theirs) < 1000 and ours[-1] < 0.001 <= ours[-2]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    # the same graph but for the names: kinds, shapes, inits, values and wiring
    rename = {"inputs": "x", "targets": "target", "mul": "wx", "y": "pred"}
    renamed = [
        (
            rename.get(n.name, n.name),
            n.kind,
            n.shape,
            n.init,
            n.values,
            {p: rename.get(v, v) for p, v in n.inputs.items()},
        )
        for n in s.graph.nodes
    ]
    want = [(n.name, n.kind, n.shape, n.init, n.values, n.inputs) for n in linreg.graph.nodes]
    assert sorted(renamed, key=str) == sorted(want, key=str)


def test_the_seeds_pytorch_program_is_refused_as_pytorch():
    (line,) = problems(fixture("seed_pytorch"))
    assert line.startswith("prog.py:3:1: ") and "PyTorch" in line and "GradViz reads MindSpore" in line


ROOT = Path(__file__).resolve().parents[1]
SEEDS = next((p for p in (ROOT.parent / "shared" / "seeds", ROOT.parents[1] / "shared" / "seeds") if p.is_dir()), None)


@pytest.mark.skipif(SEEDS is None, reason="the seed documents are beside the checkout only, not in CI")
def test_the_fixtures_are_the_seeds_code_as_printed():
    seeds = "".join(p.read_text(encoding="utf-8") for p in SEEDS.glob("*.txt"))
    flat = " ".join(seeds.split())
    for name in ("seed_mindspore", "seed_pytorch", *TUTORIAL_VARIANTS):
        body = fixture(name).split('"""', 2)[2].replace("np.random.seed(42)\n", "")
        for block in body.split("\n\n"):
            assert " ".join(block.split()) in flat, (name, block)


# -- round trip ----------------------------------------------------------------------------------
def _option_sets(session: Session):
    aux = [False, True] if session.graph.aux_outputs() else [False]
    for api, a, sg, ha, opt, mode in itertools.product(
        ["grad", "value_and_grad", "cell"],
        aux,
        [False, True],
        [False, True],
        ["sgd", "momentum", "adam"],
        ["pynative", "graph"],
    ):
        if a or not (sg or ha):
            yield replace(
                session.options, api=api, aux_output=a, stop_gradient=sg, has_aux=ha, optimizer=opt, mode=mode
            )
    yield replace(session.options, until_loss=0.25, steps=77, seed=7, lr=0.125)


READ_BACK = preset_names()


def test_every_data_source_comes_back_from_its_exported_script(tmp_path):
    """The pipeline of an exported script over a Dataset node (the samples, the split, the
    batches, train_loop and test_loop) is read back as that node, for every source GradViz
    writes but MNIST's folder (tests/test_data_files.py makes one)."""
    table = tmp_path / "points.csv"
    rng = np.random.RandomState(0)
    table.write_text(
        "a,b,label\n" + "".join(f"{u:.3f},{v:.3f},{int(u * v > 0)}\n" for u, v in rng.uniform(-1, 1, (60, 2)))
    )
    mlp = load_preset("mlp")
    for attrs in (
        dict(source="moons", size=120, noise=0.25, test_fraction=0.25, batch_size=10, seed=4),
        dict(source="circles", size=90, noise=0.05, batch_size=9),
        dict(source="xor", size=64, noise=0.125, seed=9),
        dict(source="blobs", size=80, noise=0.5, batch_size=20),
        dict(source="spiral", size=100, noise=0.0, test_fraction=0.1),
        dict(source="csv", path=str(table), batch_size=12, seed=2),
    ):
        g = mlp.graph.copy()
        g.dataset().attrs.update(attrs)
        s = Session(g, mlp.options, "mlp")
        assert not s.problems(), attrs
        for o in (mlp.options, replace(mlp.options, api="cell", until_loss=0.125, steps=33)):
            s = Session(g, o, "mlp")
            assert canon(import_code(mindspore_script(s))) == canon(s), attrs


def test_an_edited_pipeline_is_told_at_the_line_that_differs():
    text = mindspore_script(load_preset("moons"))
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "step += 1" in line)
    (line,) = problems(text.replace("            step += 1\n", "            step += 2\n"))
    assert line.startswith(f"prog.py:{number}:13: this line of the data pipeline is not the one GradViz writes")
    assert line.endswith("here: step += 1")
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("test_x, test_y"))
    (line,) = problems(
        text.replace("test_x, test_y = sample_x[sample_order[-n_test:]]", "test_x, test_y = sample_x[:9]")
    )
    assert line.startswith(f"prog.py:{number}:1: this line of the data pipeline")
    # what the pipeline says is read: a batch size of one's own, with the epochs it makes
    (line,) = problems(text.replace(".batch(16)", ".batch(32)"))
    assert "here: for epoch in range(1, 40 + 1):" in line
    edited = text.replace(".batch(16)", ".batch(32)").replace("range(1, 20 + 1)", "range(1, 40 + 1)")
    s = import_code(edited.replace("step % 20 == 0", "step % 10 == 0"))
    assert s.graph.dataset().attrs["batch_size"] == 32 and s.graph["x"].shape == (32, 2)


def _layered(softmax_first: bool = False) -> Session:
    """x (6, 4) -> Flatten -> Dense(4, 5) -> Tanh -> Dense(5, 3) -> cross-entropy, and a Softmax
    of the logits as an auxiliary output: layers of every initializer but the default. With the
    Softmax before the loss, the Cell API writes a Network of layers that returns both."""
    rng = np.random.RandomState(5)
    nodes = [
        Node("x", "Input", shape=(6, 4), init="values", values=rng.randn(6, 4).tolist()),
        Node("t", "Input", shape=(6, 3), init="values", values=np.eye(3)[[0, 2, 1, 2, 0, 1]].tolist()),
        Node("flat", "Flatten", {"x": "x"}),
        Node("fc1", "Dense", {"x": "flat"}, attrs={"in_channels": 4, "out_channels": 5, "bias_init": "uniform"}),
        Node("h", "Tanh", {"x": "fc1"}),
        Node(
            "fc2",
            "Dense",
            {"x": "h"},
            attrs={"in_channels": 5, "out_channels": 3, "weight_init": "xavier_uniform", "bias_init": "normal"},
        ),
        Node("ce", "SoftmaxCrossEntropy", {"logits": "fc2", "target": "t"}),
        Node("p", "Softmax", {"x": "fc2"}),
        Node("loss", "Output", {"x": "ce"}),
        Node("probs", "Output", {"x": "p"}),
    ]
    if softmax_first:
        nodes[6], nodes[7] = nodes[7], nodes[6]
    return Session(Graph(nodes), Options(lr=0.1, steps=3, seed=3), "layered")


@pytest.mark.parametrize("softmax_first", [False, True])
def test_a_layered_graph_comes_back_from_its_exported_script_and_program(softmax_first):
    """ops.dense(x, weight, bias) is read as a Dense node holding both, and the Cell API's Network
    of nn layers as those nodes, in every API and option set."""
    layered = _layered(softmax_first)
    for o in _option_sets(layered):
        s = Session(layered.graph, o, "layered")
        assert canon(import_code(mindspore_script(s))) == canon(s), o
        s.graph.check()
        assert canon(import_code(generate(s.graph, o).source, base=s)) == canon(s), o


@pytest.mark.parametrize("name", READ_BACK)
def test_every_preset_and_option_set_comes_back_from_its_exported_script(name):
    preset = load_preset(name)
    for o in _option_sets(preset):
        s = Session(preset.graph, o, name)
        assert canon(import_code(mindspore_script(s))) == canon(s), o


@pytest.mark.parametrize("name", READ_BACK)
def test_the_program_tabs_code_comes_back_on_its_session(name):
    """The generated program (codegen.generate) leaves the tensors and the optimizer to GradViz
    (gv_parameters, gv_make_optimizer, train_step's Inputs): read on its session, it is that session."""
    preset = load_preset(name)
    for o in _option_sets(preset):
        s = Session(preset.graph, o, name)
        s.graph.check()
        back = import_code(generate(s.graph, o).source, base=s)
        assert canon(back) == canon(s), o
        kept = [n for n in back.graph.nodes if n.kind != "Output"]
        assert [n.pos for n in kept] == [s.graph[n.name].pos for n in kept]


def test_an_edited_program_tab_changes_the_graph():
    s = load_preset("tutorial")
    src = generate(s.graph, s.options).source
    edited = src.replace("    z = matmul + b\n", "    z = matmul - b\n", 1).replace(
        "return loss\n", "return loss, z\n", 1
    )
    back = import_code(edited, base=s)
    assert back.graph["z"].kind == "Sub" and back.options.aux_output
    assert (back.options.lr, back.options.seed, back.options.steps) == (s.options.lr, s.options.seed, s.options.steps)
    lines = problems_on(src.replace("w = gv_parameters['w']", "v = gv_parameters['v']"), s)
    assert lines[0].startswith("program:8:5: v is not one of the session's Parameters")


def problems_on(text: str, base: Session) -> list[str]:
    with pytest.raises(CodeError) as e:
        import_code(text, "program", base=base)
    return e.value.lines()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), option_sets, st.sampled_from(["pynative", "graph"]))
def test_random_graphs_come_back_from_their_exported_script_and_program(graph, o, mode):
    aux = o.aux_output and len(graph.outputs()) > 1
    o = replace(o, mode=mode, aux_output=aux, stop_gradient=o.stop_gradient and aux, has_aux=o.has_aux and aux)
    s = Session(graph, o)
    assert not s.problems()
    assert canon(import_code(mindspore_script(s))) == canon(s)
    graph.check()
    assert canon(import_code(generate(graph, o).source, base=s)) == canon(s)


# -- nothing runs --------------------------------------------------------------------------------
def test_planted_payloads_never_run(tmp_path):
    marks = [tmp_path / f"ran{i}" for i in range(6)]
    text = f"""
import os
import mindspore
from mindspore import nn, ops, Tensor, Parameter
os.system("touch {marks[0]}")
__import__("os").system("touch {marks[1]}")
open("{marks[2]}", "w").write("x")
eval("open('{marks[3]}', 'w')")

def touch(f):
    open("{marks[4]}", "w")
    return f

@touch
def function(x, w):
    return ops.sum(ops.matmul(x, w))

class Boom(nn.Cell):
    def __del__(self):
        open("{marks[5]}", "w")

    def construct(self, x):
        return x

boom = Boom()
x = ops.ones(3, mindspore.float32)
w = Parameter(Tensor([[1.0], [2.0], [3.0]], mindspore.float32), name="w")
grads = mindspore.grad(function, 1)(x, w)
"""
    lines = problems(text)
    text_lines = text.splitlines()
    for needle in ("import os", "__import__", "open(", "eval(", "@touch", "def __del__"):
        number = next(i for i, line in enumerate(text_lines, 1) if needle in line)
        assert any(p.startswith(f"prog.py:{number}:") for p in lines), (needle, lines)
    assert not any(m.exists() for m in marks)


# -- what is refused, where ----------------------------------------------------------------------
HEAD = "import numpy as np\nimport mindspore\nfrom mindspore import nn, ops, Tensor, Parameter\n"
TAIL = "grads = mindspore.grad(function, 1)(x, w)\n"
XW = "x = ops.ones(3, mindspore.float32)\nw = Parameter(Tensor(np.random.randn(3), mindspore.float32), name='w')\n"


def test_an_unknown_op_is_named_with_what_is_known():
    (line,) = problems(HEAD + XW + "def function(x, w):\n    return ops.sum(ops.conv2d(x, w))\n" + TAIL)
    assert line.startswith("prog.py:7:20: ops.conv2d is not an op GradViz knows; it knows: ops.matmul, +, -, *")
    assert "ops.binary_cross_entropy_with_logits" in line


def test_shapes_that_do_not_match_are_told_at_their_line():
    (line,) = problems(
        HEAD
        + XW
        + "v = Tensor([1.0, 2.0], mindspore.float32)\ndef function(x, w):\n    z = x * w\n    return ops.sum(z * v)\n"
        + TAIL
    )
    assert line.startswith("prog.py:9:") and "(3,)" in line and "(2,)" in line


def test_a_syntax_error_is_one_line_at_its_place():
    assert problems("def f(:\n") == ["prog.py:1:7: syntax error: invalid syntax"]


def test_an_unknown_layer_and_a_dtype_are_named():
    lines = problems(HEAD + "d = nn.Conv2d(3, 2, 3)\nx = ops.ones(3, mindspore.float16)\n")
    assert lines[0].startswith(
        "prog.py:4:5: nn.Conv2d is not a cell GradViz knows; it knows: nn.Cell, nn.ReLU, nn.LeakyReLU, nn.Sigmoid, "
        "nn.Tanh, nn.Dense, nn.Flatten, nn.Softmax, nn.SequentialCell, nn.BCEWithLogitsLoss"
    )
    assert lines[1].startswith("prog.py:5:17: the dtype mindspore.float16")
    (line,) = problems(HEAD + "d = nn.Dense(3, 2)\n")
    assert line.startswith(
        "prog.py:4:5: nn.Dense needs weight_init: MindSpore's default initializer is not one GradViz draws; "
        "name one of: he_uniform, xavier_uniform, normal, uniform, zeros, ones"
    )


def test_a_program_without_a_differentiation_is_refused():
    (line,) = problems(HEAD + XW)
    assert "no differentiation" in line


def test_long_lines_deep_nesting_and_huge_programs_are_refused():
    (line,) = problems("x = 1  # " + "a" * MAX_LINE + "\n")
    assert line.startswith("prog.py:1:1: the line has")
    (line,) = problems(HEAD + "x = " + "[" * 150 + "1" + "]" * 150 + "\n")
    assert line.startswith("prog.py:4:") and "nests too deeply" in line
    (line,) = problems(HEAD + "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n")
    assert line.startswith("prog.py:4:") and "syntax error: too many nested parentheses" in line
    (line,) = problems(HEAD + XW + "def function(x, w):\n    return ops.sum(" + "x + " * 300 + "w)\n" + TAIL)
    assert "nests too deeply" in line
    (line,) = problems("#" * 100 + "\n" * MAX_CODE_BYTES)
    assert "MB" in line


def test_files_that_are_not_programs(tmp_path):
    bad = tmp_path / "latin1.py"
    bad.write_bytes(b"x = '\xe9'\n")
    with pytest.raises(CodeError, match="not UTF-8"):
        import_file(bad)
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    with pytest.raises(CodeError, match="named pipe"):
        import_file(fifo)
    with pytest.raises(CodeError, match="device"):
        import_file("/dev/zero")
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (MAX_CODE_BYTES + 1))
    with pytest.raises(CodeError):
        import_file(big)


def test_an_imported_file_is_named_after_it(tmp_path):
    f = tmp_path / "my_lesson.py"
    f.write_text(fixture("tutorial_function"), encoding="utf-8")
    assert import_file(f).name == "my_lesson"


# -- the command line ------------------------------------------------------------------------------
def test_gradviz_import_writes_the_session_or_each_problem(tmp_path, capsys):
    import json

    from gradviz.cli import main

    prog = tmp_path / "seed.py"
    prog.write_text(fixture("seed_mindspore"), encoding="utf-8")
    out = tmp_path / "seed.json"
    assert main(["import", str(prog), "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["options"]["until_loss"] == 0.001 and data["name"] == "seed"
    assert main(["import", str(prog)]) == 0
    assert json.loads(capsys.readouterr().out) == data
    bad = tmp_path / "bad.py"
    bad.write_text(HEAD + "d = nn.Dense(3, 2)\nx = ops.ones(3, mindspore.float16)\n", encoding="utf-8")
    assert main(["import", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert [e.split(": ")[0] for e in err] == [f"{bad}:4:5", f"{bad}:5:17"]
    assert json.loads(out.read_text()) == data  # left as it was
    assert main(["import", str(prog), "--out", str(prog)]) == 2  # never over the program it reads
    assert prog.read_text(encoding="utf-8") == fixture("seed_mindspore")


def test_commands_take_code_where_they_take_a_session(tmp_path, capsys):
    from gradviz.cli import main

    prog = tmp_path / "tutorial.py"
    prog.write_text(fixture("tutorial_with_logits"), encoding="utf-8")
    script = tmp_path / "out.py"
    assert main(["export", "--framework", "mindspore", "--code", str(prog), "--out", str(script)]) == 0
    assert canon(import_code(script.read_text())) == canon(import_code(fixture("tutorial_with_logits")))
    bad = tmp_path / "torch.py"
    bad.write_text(fixture("seed_pytorch"), encoding="utf-8")
    assert main(["export", "--framework", "mindspore", "--code", str(bad), "--out", str(script)]) == 2
    assert "GradViz reads MindSpore" in capsys.readouterr().err


def test_gradviz_run_trains_the_seeds_mindspore_program(tmp_path):
    """MindSpore trains the imported seed as the float64 loop of this file does."""
    import json

    from gradviz.cli import main

    prog = tmp_path / "seed.py"
    prog.write_text(fixture("seed_mindspore"), encoding="utf-8")
    out = tmp_path / "run.jsonl"
    assert main(["run", "--code", str(prog), "--out", str(out)]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    want = _train_linreg(import_code(fixture("seed_mindspore")))
    assert recs[-1]["reason"] == "until_loss" and abs(recs[-1]["steps"] - len(want)) <= 2
    np.testing.assert_allclose([r["loss"] for r in recs[1:11]], want[:10], rtol=1e-4)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["seed_mindspore", "tutorial_notebook", "tutorial_has_aux", "course_digits"]),
    st.integers(0, 10_000),
    st.sampled_from(["", "(", ")", ",", "x", "0", " ", "ops.", "self.", "[", "None", "-", "\n", ":"]),
    st.booleans(),
)
def test_mangled_programs_import_or_are_refused_at_a_line(name, where, piece, drop_line):
    """Any edit of a program (a line dropped, a character replaced) imports or is refused with
    problems the reader foresaw: never an exception of its own."""
    text = fixture(name)
    lines = text.splitlines()
    if drop_line:
        del lines[where % len(lines)]
        text = "\n".join(lines)
    else:
        k = where % len(text)
        text = text[:k] + piece + text[k + 1 :]
    try:
        import_code(text)
    except CodeError as e:
        assert e.problems and not any("could not read this program" in p.message for p in e.problems)


def test_the_forms_a_teacher_writes():
    """Operators for ops, weights left out, attributes, the context, the optimizers, frozen Parameters."""
    s = import_code(
        HEAD
        + "mindspore.set_context(mode=mindspore.GRAPH_MODE)\n"
        + "np.random.seed(3)\n"
        + "x = Tensor([[1.0, 2.0], [3.0, 4.0]], mindspore.float32)\n"
        + "y = ops.zeros((2, 3), mindspore.float32)\n"
        + "w = Parameter(Tensor(np.random.randn(2, 3), mindspore.float32), name='w')\n"
        + "v = Parameter(Tensor(np.zeros((3,)), mindspore.float32), name='v', requires_grad=False)\n"
        + "def function(x, y, w, v):\n"
        + "    h = ops.leaky_relu(-(x @ w), alpha=0.1) + v\n"
        + "    return ops.binary_cross_entropy_with_logits(h, y), ops.stop_gradient(h)\n"
        + "optimizer = nn.Momentum([w], learning_rate=0.5, momentum=0.9)\n"
        + "grad_fn = mindspore.value_and_grad(function, 2, has_aux=True)\n"
        + "for step in range(1, 51):\n"
        + "    (loss, h), grads = grad_fn(x, y, w, v)\n"
        + "    if loss < 0.01:\n"
        + "        break\n"
        + "    optimizer(grads)\n"
    )
    g, o = s.graph, s.options
    assert [(n.name, n.kind) for n in g.nodes if not n.is_source] == [
        ("matmul", "MatMul"),
        ("neg", "Neg"),
        ("leakyrelu", "LeakyReLU"),
        ("h", "Add"),
        ("bcewithlogits", "BCEWithLogits"),
        ("out_bcewithlogits", "Output"),
        ("out_h", "Output"),
    ]
    assert g["leakyrelu"].attrs == {"alpha": 0.1} and g["x"].values == [[1.0, 2.0], [3.0, 4.0]]
    assert g["v"].requires_grad is False and g["w"].requires_grad and g["v"].init == "zeros"
    assert (o.api, o.aux_output, o.stop_gradient, o.has_aux) == ("value_and_grad", True, True, True)
    assert (o.mode, o.seed, o.optimizer, o.lr, o.steps, o.until_loss) == ("graph", 3, "momentum", 0.5, 50, 0.01)


def test_what_the_differentiation_asks_for_must_be_parameters():
    (line,) = problems(HEAD + XW + "def function(x, w):\n    return ops.sum(x * w)\n" + TAIL.replace("1)", "0)"))
    assert line.startswith(
        "prog.py:8:9: grad_position 0 is x, a Tensor: GradViz differentiates with respect to Parameters"
    )
    (line,) = problems(HEAD + XW + "optimizer = nn.Momentum([w], learning_rate=0.1, momentum=0.5)\n")
    assert line.startswith("prog.py:6:13: GradViz's nn.Momentum has momentum=0.9")


def test_a_function_of_more_nodes_than_a_graph_holds_is_refused_at_the_first_too_many():
    body = "    x = ops.exp(x)\n" * 5000
    (line,) = problems(HEAD + XW + "def function(x, w):\n" + body + "    return ops.sum(x * w)\n" + TAIL)
    assert line.startswith("prog.py:205:9: the graph has 201 nodes; at most 200 are supported")


DENSE = HEAD + (
    "np.random.seed(11)\n"
    "x = Tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], mindspore.float32)\n"
    "t = Tensor([[1.0, 0.0], [0.0, 1.0]], mindspore.float32)\n"
    "w = Parameter(Tensor(np.random.uniform(-0.07, 0.07, (2, 3)), mindspore.float32), name='w')\n"
    "b = Parameter(Tensor(np.random.normal(0.0, 0.01, (2,)), mindspore.float32), name='b')\n"
    "def function(x, t, w, b):\n"
    "    logits = ops.dense(x, w, b)\n"
    "    return ops.cross_entropy(logits, t)\n"
    "grad_fn = mindspore.value_and_grad(function, (2, 3))\n"
    "loss, grads = grad_fn(x, t, w, b)\n"
)


def test_ops_dense_is_a_dense_node_with_its_weight_and_bias_and_their_draws():
    s = import_code(DENSE)
    dense = s.graph["logits"]
    assert dense.kind == "Dense" and dense.inputs == {"x": "x"}
    assert dense.attrs == {"in_channels": 3, "out_channels": 2, "weight_init": "uniform", "bias_init": "normal"}
    assert [n.name for n in s.graph.parameters()] == ["logits_weight", "logits_bias"]
    assert not any(n.kind == "Parameter" for n in s.graph.nodes)  # held by the layer, not nodes
    # drawn as the program draws them: numpy's global RandomState after np.random.seed(11)
    rng = np.random.RandomState(11)
    want_w, want_b = rng.uniform(-0.07, 0.07, (2, 3)), rng.normal(0.0, 0.01, (2,))
    init = initial_values(s.graph, s.options.seed)
    np.testing.assert_array_equal(init["logits_weight"], np.float32(want_w))
    np.testing.assert_array_equal(init["logits_bias"], np.float32(want_b))


def test_a_dense_that_cannot_be_a_layer_is_told_at_its_line():
    (line,) = problems(DENSE.replace("np.random.uniform(-0.07, 0.07, (2, 3))", "np.random.randn(2, 3)"))
    assert line.startswith("prog.py:10:27: w is drawn as randn; a Dense layer's weight_init is one of: he_uniform")
    (line,) = problems(DENSE.replace("uniform(-0.07, 0.07,", "uniform(-0.5, 0.5,"))
    assert line.startswith("prog.py:7:22: np.random.uniform(-0.5, 0.5, (2, 3)) is not an initializer GradViz draws")
    assert "he_uniform = np.random.uniform(-1.41421, 1.41421, ...)" in line
    (line,) = problems(DENSE.replace("(2, 3)), mindspore", "(2, 4)), mindspore"))
    assert line.startswith('prog.py:10:14: Dense "logits": x has shape (2, 3); Dense needs (samples, in_channels)')
    assert "in_channels 4" in line
    lines = problems(DENSE.replace("ops.cross_entropy(logits, t)", "ops.cross_entropy(logits, t + b)"))
    assert lines[0].startswith("prog.py:8:15: b is logits's own bias; GradViz's layers hold theirs alone")
    (line,) = problems(DENSE.replace("(function, (2, 3))", "(function, 2)"))
    assert line.startswith("prog.py:13:15: b is logits's own bias, which GradViz trains")


def test_a_payload_planted_in_an_exported_pipeline_never_runs(tmp_path):
    mark = tmp_path / "ran"
    text = mindspore_script(load_preset("moons")).replace(
        "    step = 0\n", f"    step = 0\n    __import__('os').system('touch {mark}')\n", 1
    )
    number = next(i for i, line in enumerate(text.splitlines(), 1) if "__import__" in line)
    (line,) = problems(text)
    assert line.startswith(f"prog.py:{number}:5: this line of the data pipeline is not the one GradViz writes")
    assert not mark.exists()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["", "(", ")", ",", "x", "0", " ", "[", "None", "-", "\n", ":"]))
def test_mangled_pipelines_import_or_are_refused_at_a_line(where, piece):
    text = mindspore_script(load_preset("moons"))
    k = where % len(text)
    try:
        import_code(text[:k] + piece + text[k + 1 :])
    except CodeError as e:
        assert e.problems and not any("could not read this program" in p.message for p in e.problems)


# -- the course's layers ---------------------------------------------------------------------------
def test_the_courses_network_is_the_digits_presets_graph():
    """The beginner course's Network (nn.Flatten, an nn.SequentialCell of nn.Dense and nn.ReLU)
    with its forward_fn, grad_fn over optimizer.parameters and train_step: the digits preset's
    layers, sizes and initializers, its loss and optimizer (the names are the course's)."""
    s = import_code(fixture("course_digits"), "course.py")
    digits = load_preset("digits")
    rename = {"x": "flat", "dense": "fc1", "relu": "relu1", "dense1": "fc2", "relu1": "relu2", "label": "y"}
    rename["data"] = "x"

    def computation(g, names=None):
        names = names or {}
        return [
            (
                names.get(n.name, n.name),
                n.kind,
                OPS[n.kind].attr_values(n.attrs),
                {p: names.get(v, v) for p, v in n.inputs.items()},
            )
            for n in g.topo_order()
            if not n.is_source and n.kind != "Output"
        ]

    assert computation(s.graph, rename) == computation(digits.graph)
    assert [p.name for p in s.graph.parameters()] == [
        f"{n}_{w}" for n in ("dense", "dense1", "logits") for w in ("weight", "bias")
    ]
    o = s.options
    assert (o.api, o.optimizer, o.lr, o.steps, o.aux_output, o.has_aux) == ("cell", "sgd", 0.1, 345, True, True)
    assert [s.graph[n.inputs["x"]].name for n in s.graph.outputs()] == ["loss", "logits"]


def test_the_courses_network_trains_its_first_step_as_numpy():
    """Its initial values are GradViz's draws of he_uniform (numpy, the session's seed), and
    the loss of the first step is float64 numpy's on them."""
    from gradviz.model.numeric import evaluate

    s = import_code(fixture("course_digits"))
    init = initial_values(s.graph, s.options.seed)
    rng = np.random.RandomState(s.options.seed)
    w = [
        rng.uniform(-np.sqrt(6 / n_in), np.sqrt(6 / n_in), (n_out, n_in))
        for n_out, n_in in ((64, 64), (64, 64), (10, 64))
    ]
    for name, want in zip(("dense_weight", "dense1_weight", "logits_weight"), w):
        np.testing.assert_array_equal(init[name], np.float32(want))
    h = np.float64(init["data"])
    for k, name in enumerate(("dense", "dense1", "logits")):
        h = h @ np.float64(init[f"{name}_weight"]).T
        h = np.maximum(h, 0) if k < 2 else h
    p = np.exp(h - h.max(1, keepdims=True))
    want = -np.sum(np.float64(init["label"]) * np.log(p / p.sum(1, keepdims=True))) / 64
    assert evaluate(s)[0] == pytest.approx(want, rel=1e-9)


COURSE = fixture("course_digits")


def test_the_layers_a_teacher_writes():
    """Positional and list SequentialCells, LeakyReLU's alpha, Sigmoid, Softmax, Tanh."""
    text = COURSE.replace(
        'nn.ReLU(),\n            nn.Dense(64, 64, weight_init="he_uniform", bias_init="zeros"),\n            nn.ReLU(),',
        'nn.LeakyReLU(0.1),\n            nn.Dense(64, 64, weight_init="xavier_uniform", bias_init="normal"),\n'
        "            nn.Tanh(),",
    )
    s = import_code(text)
    kinds = [(n.kind, n.attrs) for n in s.graph.topo_order() if n.kind in ("LeakyReLU", "Tanh", "Dense")]
    assert kinds[1] == ("LeakyReLU", {"alpha": 0.1}) and kinds[3][0] == "Tanh"
    assert kinds[2][1]["weight_init"] == "xavier_uniform" and kinds[2][1]["bias_init"] == "normal"
    listed = COURSE.replace("nn.SequentialCell(\n", "nn.SequentialCell([\n").replace(
        '"zeros")\n        )', '"zeros")]\n        )'
    )
    assert canon(import_code(listed)) == canon(import_code(COURSE))
    tail = COURSE.replace("        return logits\n", "        return self.softmax(self.sigmoid(logits))\n")
    tail = tail.replace(
        "        self.flatten = nn.Flatten()\n",
        "        self.flatten = nn.Flatten()\n        self.sigmoid = nn.Sigmoid()\n        self.softmax = nn.Softmax()\n",
    )
    assert [n.kind for n in import_code(tail).graph.topo_order()][-5:-2] == [
        "Sigmoid",
        "Softmax",
        "SoftmaxCrossEntropy",
    ]


def test_a_layer_gradviz_cannot_hold_is_told_at_its_line():
    dense = next(i for i, line in enumerate(COURSE.splitlines(), 1) if "nn.Dense(64, 64" in line)
    lines = problems(COURSE.replace("nn.Dense(64, 64,", "nn.Dense(32, 64,"))
    assert lines[0].startswith(f'prog.py:{dense}:13: Dense "dense1": relu has shape (64, 64); Dense needs')
    assert "in_channels 32" in lines[0]
    (line,) = problems(
        COURSE.replace('nn.Dense(64, 10, weight_init="he_uniform"', 'nn.Dense(64, 10, weight_init="lecun"')
    )
    assert "weight_init must be one of he_uniform, xavier_uniform, normal, uniform, zeros, ones, not 'lecun'" in line
    (line,) = problems(COURSE.replace('bias_init="zeros")\n        )', 'bias_init="zeros", has_bias=False)\n        )'))
    assert "nn.Dense: GradViz's layer has has_bias=True" in line
    (line,) = problems(COURSE.replace("nn.ReLU(),\n", "nn.GELU(),\n", 1))
    assert "nn.GELU is not a cell GradViz knows; it knows: nn.Cell, nn.ReLU" in line
    (line,) = problems(
        COURSE.replace(
            "logits = self.dense_relu_sequential(x)",
            "logits = self.dense_relu_sequential(self.dense_relu_sequential(x))",
        )
    )
    assert "a layer called a second time" in line


def test_gradviz_import_reads_the_courses_network(tmp_path, capsys):
    import json

    from gradviz.cli import main

    prog = tmp_path / "course.py"
    prog.write_text(COURSE, encoding="utf-8")
    assert main(["import", str(prog)]) == 0
    nodes = json.loads(capsys.readouterr().out)["graph"]["nodes"]
    assert [n["kind"] for n in nodes if n["kind"] == "Dense"] == ["Dense"] * 3
    script = tmp_path / "digits.py"
    assert (
        main(["export", "--framework", "mindspore", "--preset", "digits", "--api", "cell", "--out", str(script)]) == 0
    )
    assert "nn.SequentialCell(" in script.read_text()
    assert main(["import", str(script)]) == 0
    back = json.loads(capsys.readouterr().out)
    assert back["options"]["api"] == "cell" and any(n["kind"] == "Dataset" for n in back["graph"]["nodes"])


def test_an_edited_cell_program_over_layers_changes_the_layers():
    """The program tab's Network of layers, edited (an activation, an initializer, a size), is
    read on its session: the graph follows, the rest stays the session's."""
    s = load_preset("digits")
    s.options.api = "cell"
    s.graph.check()
    src = generate(s.graph, s.options).source
    edited = (
        src.replace('("relu1", nn.ReLU()),', '("relu1", nn.Tanh()),')
        .replace("nn.Dense(64, 10, weight_init='he_uniform'", "nn.Dense(64, 10, weight_init='normal'")
        .replace('("fc2", nn.Dense(64, 64,', '("fc2", nn.Dense(64, 32,')
        .replace("nn.Dense(64, 10,", "nn.Dense(32, 10,")
    )
    back = import_code(edited, base=s)
    g = back.graph
    assert g["relu1"].kind == "Tanh" and g["logits"].attrs["weight_init"] == "normal"
    assert (g["fc2"].attrs["out_channels"], g["logits"].attrs["in_channels"]) == (32, 32)
    assert [n.name for n in g.sources()] == [n.name for n in s.graph.sources()]  # drawn in the same order
    assert g.check()["fc2_weight"] == (32, 64) and back.graph.dataset().attrs == s.graph.dataset().attrs


def test_the_courses_own_train_loop_is_refused_naming_what_is_read():
    course_loop = (
        "\n\ndef train_loop(model, dataset):\n"
        "    size = dataset.get_dataset_size()\n"
        "    model.set_train()\n"
        "    for batch, (data, label) in enumerate(dataset.create_tuple_iterator()):\n"
        "        loss = train_step(data, label)\n"
    )
    text = COURSE + course_loop
    number = len(COURSE.splitlines()) + 3
    (line,) = problems(text)
    assert line.startswith(f"prog.py:{number}:1: train_loop over a data set GradViz does not know")
    assert "moons, circles, xor, blobs, spiral, digits, csv, mnist" in line


def test_an_mnist_folder_comes_back_from_its_exported_script(tmp_path):
    from test_data_files import mnist_folder

    folder, _, _ = mnist_folder(tmp_path, n_train=16, n_test=4)
    s = load_preset("digits")
    s.graph.dataset().attrs.update(source="mnist", path=str(folder), size=18, batch_size=4, test_fraction=0.25)
    s.graph["fc1"].attrs["in_channels"] = 784
    assert not s.problems()
    for o in (s.options, replace(s.options, api="cell")):
        s = Session(s.graph, o, "mnist")
        back = import_code(mindspore_script(s))
        assert canon(back) == canon(s) and back.graph.dataset().attrs["path"] == str(folder)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layered_sessions())
def test_random_layered_graphs_come_back_from_their_exported_script_and_program(s):
    assert not s.problems(), s.problems()
    assert canon(import_code(mindspore_script(s))) == canon(s)
    s.graph.check()
    assert canon(import_code(generate(s.graph, s.options).source, base=s)) == canon(s)


def test_mindspores_initializer_classes_are_the_dense_initializers_of_their_names():
    text = COURSE.replace(
        "from mindspore import nn, ops, Tensor\n",
        "from mindspore import nn, ops, Tensor\nfrom mindspore.common.initializer import HeUniform, Normal, Zero\n",
    )
    text = text.replace(
        'nn.Dense(8*8, 64, weight_init="he_uniform", bias_init="zeros")',
        "nn.Dense(8*8, 64, weight_init=Normal(0.01), bias_init=Zero())",
    )
    text = text.replace('nn.Dense(64, 64, weight_init="he_uniform"', "nn.Dense(64, 64, weight_init=HeUniform()")
    g = import_code(text).graph
    assert [(n.attrs["weight_init"], n.attrs["bias_init"]) for n in g.nodes if n.kind == "Dense"] == [
        ("normal", "zeros"),
        ("he_uniform", "zeros"),
        ("he_uniform", "zeros"),
    ]
    (line,) = problems(text.replace("Normal(0.01)", "Normal(0.02)"))
    assert "GradViz draws Normal with sigma=0.01, mean=0.0 (weight_init='normal')" in line
