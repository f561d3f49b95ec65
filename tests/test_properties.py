"""Property tests: every graph the editor accepts trains, whatever its node names, to the numbers
of the float64 numpy reference, through all three APIs, in PyNative and in Graph mode."""

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from gradviz.engine.engine import Engine
from gradviz.model.graph import initial_values
from gradviz.model import numeric
from gradviz.model.codegen import generate
from gradviz.model.graph import RESERVED_NAMES, check_name
from graphs import RISKY, layered_sessions, named_graphs, options, session_of, valid_name

# derandomize: the same examples on every run, so that CI is deterministic
SETTINGS = dict(
    deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
# MindSpore's CPU Tanh is an approximation: within 1.0e-4 of float64 tanh (measured on 100,000
# normal samples; Sigmoid and Exp within a few 1e-6 relative); a reduction of n such elements
# (a Sum of tanh) may be off by n times that
TANH_ABS_ERROR = 1.1e-4


def two_steps(session):
    e = Engine(session)
    try:
        r1 = e.step()
        after = e.current_params()
        r2 = e.step()
        # each row holds the parameters before its update: the seed's values, then those after one
        init = initial_values(session.graph, session.options.seed)
        for row, want in ((r1, init), (r2, after)):
            got = e.param_layout.unflatten(row.params)
            for n in e.param_layout.names:
                np.testing.assert_array_equal(got[n].reshape(np.shape(want[n])), np.float32(want[n]), err_msg=n)
        return e, (r1.row.copy(), r2.row.copy())
    finally:
        e.close()


def check_against_numpy(e, session, row):
    loss, values, grads = numeric.evaluate(session)
    r_loss = float(row[0])
    tanh = any(n.kind == "Tanh" for n in session.graph.nodes)
    approx = TANH_ABS_ERROR * max(np.size(v) for v in values.values()) if tanh else 0.0
    np.testing.assert_allclose(r_loss, loss, rtol=2e-4, atol=1e-5 + approx)
    flat = e.block_results(1, row[None], 0.0)[0]
    got = e.grad_layout.unflatten(flat.grads)
    for name in e.grad_layout.names:
        np.testing.assert_allclose(got[name], grads[name], rtol=2e-3, atol=2e-4 + 2 * approx, err_msg=f"d/d{name}")
    aux = e.aux_layout.unflatten(flat.aux)
    for key, src in zip(e.program.aux_names, e.program.aux_sources):
        np.testing.assert_allclose(aux[key], values[src], rtol=2e-4, atol=1e-5 + approx, err_msg=f"aux {key}")


def run_property(pair, o, mode):
    plain, named = pair
    s_plain, s_named = session_of(plain, o, mode), session_of(named, o, mode)
    note(__import__("json").dumps(s_named.to_dict()))
    assert not s_named.problems(), s_named.problems()
    e_plain, rows_plain = two_steps(s_plain)
    e_named, rows_named = two_steps(s_named)
    for a, b in zip(rows_plain, rows_named):  # the same program with other names: the same numbers
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-7, equal_nan=True)
    check_against_numpy(e_plain, s_plain, rows_plain[0])


@settings(max_examples=30, **SETTINGS)
@given(named_graphs(), options)
def test_random_graphs_and_names_train_like_numpy_pynative(pair, o):
    run_property(pair, o, "pynative")


@settings(max_examples=12, **SETTINGS)
@given(named_graphs(), options)
def test_random_graphs_and_names_train_like_numpy_graph_mode(pair, o):
    run_property(pair, o, "graph")


def test_reserved_names_come_from_the_generator():
    """The reserved set is what the generated programs use, and only that: the tutorial's words
    are in it, names the generator does not use (before, r0, values, probe) are free."""
    r = RESERVED_NAMES
    assert {
        "function",
        "grad_fn",
        "grads",
        "optimizer",
        "train_step",
        "mindspore",
        "ops",
        "nn",
        "Network",
        "network",
        "forward_fn",
        "self",
        "super",
        "grad",
    } <= r
    for name in ("loss", "before", "r0", "values", "probe", "recorded_step", "parameters", "training", "z"):
        assert name not in r and check_name(name) is None
    assert check_name("gv_x") is not None and check_name("__name__") is not None
    assert check_name("grad_fn") == '"grad_fn" is a name the generated program uses itself; choose another name'
    assert check_name("Tensor") is not None  # mindspore.jit resolves it itself


def _probe_graphs() -> list:
    """Graphs that make the generators emit every identifier they have: every op kind, one and
    two trainable Parameters, auxiliary outputs from computed and from source nodes."""
    from gradviz.model.graph import Graph, Node
    from gradviz.model.ops import OPS

    graphs = []
    kinds = [k for k in OPS.values() if k.computes]
    for n_trainable in (1, 2):
        nodes = [Node("u_in", "Input", shape=(2,)), Node("u_p0", "Parameter", shape=(2,))]
        if n_trainable == 2:
            nodes.append(Node("u_p1", "Parameter", shape=(2,)))
        prev = "u_in"
        # a kind's own Parameters (Dense) are trainable too: only the two-Parameter graph has them
        for i, k in enumerate(k for k in kinds if n_trainable == 2 or not k.params):
            name = f"u_n{i}"
            nodes.append(Node(name, k.name, inputs={p: (prev if j == 0 else "u_p0") for j, p in enumerate(k.ports)}))
            prev = name
        nodes += [
            Node("u_loss", "Output", inputs={"x": prev}),
            Node("u_aux", "Output", inputs={"x": "u_n0"}),
            Node("u_aux_src", "Output", inputs={"x": "u_p0"}),
        ]
        graphs.append(Graph(nodes))
    # the Cell API's Network of layers (codegen.layer_cell): an nn.SequentialCell of named layers
    graphs.append(
        Graph(
            [
                Node("u_in", "Input", shape=(3, 2)),
                Node("u_t", "Input", shape=(3, 2)),
                Node("u_d0", "Dense", {"x": "u_in"}),
                Node("u_a", "ReLU", {"x": "u_d0"}),
                Node("u_d1", "Dense", {"x": "u_a"}),
                Node("u_ce", "SoftmaxCrossEntropy", {"logits": "u_d1", "target": "u_t"}),
                Node("u_loss", "Output", {"x": "u_ce"}),
                Node("u_aux", "Output", {"x": "u_d1"}),
            ]
        )
    )
    return graphs


def _identifiers(source: str) -> set:
    """Every name a program binds or reads (not attribute names: `ops.matmul`, `self.w`)."""
    import ast

    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def test_reserved_names_are_every_name_the_generators_use():
    """graph.RESERVED_NAMES is what the generated programs (the training program, its batch
    module, both exported scripts) use besides node names and gv_ names, through every API and
    every return path (z not returned, returned, through stop_gradient, with has_aux), plus
    "Tensor", which MindSpore's compiler keeps."""
    import itertools

    from gradviz.model import scripts as export
    from gradviz.model.codegen import batch_source
    from gradviz.model.session import APIS, Options, Session

    graphs, found = _probe_graphs(), set()
    paths = ((False, False, False), (True, False, False), (True, True, False), (True, False, True))
    for g in graphs:
        for api, (aux, has_aux, stop) in itertools.product(APIS, paths):
            o = Options(api=api, aux_output=aux, has_aux=has_aux, stop_gradient=stop, mode="graph", until_loss=0.5)
            prog, s = generate(g, o), Session(g, o)
            for text in (prog.source, batch_source(prog, 2), export.mindspore_script(s), export.pytorch_script(s)):
                found |= _identifiers(text)
    user = {n for g in graphs for n in g.names()} | {p.name for g in graphs for p in g.parameters()}
    assert {n for n in found - user if not n.startswith("gv_")} | {"Tensor"} == RESERVED_NAMES


@pytest.mark.parametrize("name", ["loss", "before", "r0", "recorded_step", "training", "learning_rate", "moments"])
def test_risky_names_leave_the_program_unchanged_but_for_the_names(name):
    """Renaming the tutorial's z to a risky name changes only that identifier in the program."""
    from gradviz.model.presets import load_preset
    from graphs import renamed

    assert name in RISKY
    s = load_preset("tutorial")
    s.options.aux_output = True
    g = s.graph
    if name == "loss":  # the real loss node renamed, and z called loss: the case that went wrong
        g = renamed(g, {**{n: n for n in g.names()}, "loss": "L", "z": "loss"})
    else:
        g = renamed(g, {**{n: n for n in g.names()}, "z": name})
    src = generate(g, s.options).source
    assert "def function(x, y, w, b):" in src
    assert ("return L, loss" if name == "loss" else f"return loss, {name}") in src


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(RISKY), min_size=1, max_size=3, unique=True))
def test_every_risky_name_is_valid_or_refused_with_a_reason(names):
    for n in names:
        msg = check_name(n)
        assert msg is None or f'"{n}"' in msg


@st.composite
def mutated_sessions(draw):
    """A preset's session file with a few random edits: other kinds, shapes, wiring, names and
    options, as a user or a hand-edited file might make them."""
    from gradviz.model.ops import OPS
    from gradviz.model.presets import load_preset

    d = load_preset(draw(st.sampled_from(["tutorial", "linreg", "mlp"]))).to_dict()
    nodes = d["graph"]["nodes"]
    names = [n["name"] for n in nodes]
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.sampled_from(nodes))
        what = draw(st.sampled_from(["kind", "shape", "wire", "rename", "frozen", "output"]))
        if what == "kind" and "inputs" in n and n["kind"] != "Output" and OPS[n["kind"]].ports:
            ports = len(OPS[n["kind"]].ports)
            kind = draw(st.sampled_from([k.name for k in OPS.values() if k.computes and len(k.ports) == ports]))
            n["inputs"] = dict(zip(OPS[kind].ports, n["inputs"].values()))
            n["kind"] = kind
        elif what == "shape" and "shape" in n:
            n["shape"] = draw(st.lists(st.integers(1, 4), max_size=2))
            n["init"] = "randn" if n["kind"] == "Parameter" else "ones"
            n.pop("values", None)
        elif what == "wire" and n.get("inputs"):
            port = draw(st.sampled_from(sorted(n["inputs"])))
            n["inputs"][port] = draw(st.sampled_from(names))
        elif what == "rename":
            new = draw(valid_name)
            if new not in names:
                old = n["name"]
                n["name"] = new
                for m in nodes:
                    m["inputs"] = (
                        {p: (new if s == old else s) for p, s in m.get("inputs", {}).items()}
                        if "inputs" in m
                        else m.get("inputs")
                    )
                    if m.get("inputs") is None:
                        m.pop("inputs", None)
                names = [m["name"] for m in nodes]
        elif what == "frozen" and n["kind"] == "Parameter":
            n["requires_grad"] = not n.get("requires_grad", True)
        elif what == "output":
            taken = set(names)
            nodes.append(
                {
                    "name": draw(valid_name.filter(lambda v, taken=taken: v not in taken)),
                    "kind": "Output",
                    "inputs": {"x": draw(st.sampled_from(names))},
                    "pos": [0, 0],
                }
            )
            names = [m["name"] for m in nodes]
    o = d["options"]
    o["aux_output"], o["stop_gradient"], o["has_aux"] = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    o["api"] = draw(st.sampled_from(["grad", "value_and_grad", "cell"]))
    return d


@settings(max_examples=40, **SETTINGS)
@given(mutated_sessions())
def test_any_session_the_loader_accepts_trains_like_numpy_or_is_refused(d):
    from gradviz.model.session import Session, SessionError

    note(__import__("json").dumps(d))
    try:
        s = Session.from_dict(d, "edited.json")
    except SessionError as e:
        assert str(e).startswith("edited.json: ") and "\n" not in str(e)
        event("refused")
        return
    event("accepted")
    e = Engine(s)
    try:
        r = e.step()
        with np.errstate(all="ignore"):
            loss, values, grads = numeric.evaluate(s)
        np.testing.assert_allclose(r.loss, loss, rtol=2e-4, atol=1e-5, equal_nan=True)
        got = e.grad_layout.unflatten(r.grads)
        for name in e.grad_layout.names:
            np.testing.assert_allclose(got[name], grads[name], rtol=2e-3, atol=2e-4, equal_nan=True, err_msg=name)
    finally:
        e.close()


@pytest.mark.parametrize("name", ["len", "sum", "max", "min", "abs", "type", "id", "input", "list", "tensor"])
def test_builtin_names_train_in_graph_mode(name):
    """Python's builtins are valid node names: the generated program never calls one it could hide."""
    from gradviz.model.presets import load_preset
    from graphs import renamed

    s = load_preset("tutorial")
    s.options.mode, s.options.aux_output = "graph", True
    plain = two_steps(s)[1]
    s.graph = renamed(s.graph, {**{n: n for n in s.graph.names()}, "z": name})
    np.testing.assert_array_equal(two_steps(s)[1], plain)


@settings(max_examples=12, **SETTINGS)
@given(st.data())
def test_random_layered_graphs_train_like_numpy_through_the_cell_apis_network(data):
    """The Cell API's Network of layers (codegen.layer_cell) where it is written, else the
    tutorial's form: each step's loss, gradients and auxiliary outputs are float64 numpy's."""
    from dataclasses import replace

    s = data.draw(layered_sessions())
    s.options = replace(s.options, api="cell")
    note(__import__("json").dumps(s.to_dict()))
    assert not s.problems(), s.problems()
    e, rows = two_steps(s)
    check_against_numpy(e, s, rows[0])
