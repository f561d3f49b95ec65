"""Shape inference and validation messages of the graph model."""

import numpy as np
import pytest

from gradviz.model.graph import Graph, GraphError, Node, initial_values
from gradviz.model.presets import load_preset, preset_names


def tutorial_graph() -> Graph:
    return load_preset("tutorial").graph


def messages(g: Graph) -> list[str]:
    return [p.message for p in g.validate()]


def test_presets_are_valid_and_shaped_like_the_seeds():
    assert preset_names()[:1] == ["tutorial"] and {"linreg", "linreg_seed"} <= set(preset_names())
    shapes = tutorial_graph().check()
    assert shapes["x"] == (5,) and shapes["w"] == (5, 3) and shapes["z"] == (3,) and shapes["loss"] == ()
    lin = load_preset("linreg")
    assert lin.graph.check()["pred"] == (2,)
    assert lin.options.lr == 0.01 and lin.options.until_loss == 0.001


def test_matmul_mismatch_names_node_and_rule():
    g = tutorial_graph()
    g["w"].shape = (4, 3)
    g["matmul"].name = "z0"
    g["z"].inputs["a"] = "z0"
    msgs = messages(g)
    assert any(m.startswith('MatMul "z0": x has shape (5,) but w has shape (4, 3)') for m in msgs), msgs


def test_broadcast_error_cycle_dangling_missing_loss_nonscalar():
    g = tutorial_graph()
    g["b"].shape = (4,)
    assert any(
        'Add "z": matmul has shape (3,) but b has shape (4,); these shapes do not broadcast' in m for m in messages(g)
    )

    g = tutorial_graph()
    g["matmul"].inputs["a"] = "z"
    assert any("cycle" in m and "z" in m for m in messages(g))

    g = tutorial_graph()
    del g["z"].inputs["b"]
    assert any("Add \"z\": input port 'b' is not connected" in m for m in messages(g))

    g = tutorial_graph()
    g.nodes = [n for n in g.nodes if n.kind != "Output"]
    assert any("no Output node" in m for m in messages(g))

    g = tutorial_graph()
    g.nodes = [n for n in g.nodes if n.name != "out_loss"]  # first output is now z: not scalar
    assert any('loss (first output) must be a scalar, but "z" has shape (3,)' in m for m in messages(g))


def test_names_shapes_and_values_are_checked():
    g = tutorial_graph()
    g["w"].name = "ops"
    assert 'Parameter "ops": "ops" is a name the generated program uses itself; choose another name' in messages(g)
    g = tutorial_graph()
    g["x"].shape = (0,)
    assert any('Input "x": shape (0,) has a size 0' in m for m in messages(g))
    g = tutorial_graph()
    g["x"].shape = (2000, 2000)
    assert any("at most 1,000,000" in m for m in messages(g))
    g = tutorial_graph()
    g["x"].init, g["x"].values = "values", [1, 2, float("nan"), 4, 5]
    assert any("finite" in m for m in messages(g))
    g = tutorial_graph()
    g.nodes.append(Node("x", "Input", shape=(1,)))
    assert any("used twice" in m for m in messages(g))


def test_no_trainable_parameter_is_an_error():
    g = tutorial_graph()
    for p in g.parameters():
        p.requires_grad = False
    assert any("nothing to train" in m for m in messages(g))
    with pytest.raises(GraphError):
        g.check()


def test_initial_values_follow_numpy_seed_like_the_tutorial():
    g = tutorial_graph()
    v = initial_values(g, 42)
    np.random.seed(42)
    np.testing.assert_array_equal(v["w"], np.random.randn(5, 3).astype(np.float32))
    np.testing.assert_array_equal(v["b"], np.random.randn(3).astype(np.float32))
    np.testing.assert_array_equal(v["x"], np.ones(5, np.float32))
    assert v["y"].dtype == np.float32 and not v["y"].any()


def test_broadcasting_and_matmul_shapes():
    g = Graph(
        [
            Node("a", "Input", shape=(4, 5), init="ones"),
            Node("w", "Parameter", shape=(5, 2), init="randn"),
            Node("s", "Parameter", shape=(1,), init="ones"),
            Node("m", "MatMul", inputs={"a": "a", "b": "w"}),
            Node("p", "Mul", inputs={"a": "m", "b": "s"}),
            Node("t", "Input", shape=(4, 2), init="zeros"),
            Node("loss", "MSE", inputs={"pred": "p", "target": "t"}),
            Node("o", "Output", inputs={"x": "loss"}),
        ]
    )
    assert g.check()["p"] == (4, 2)


def test_the_caption_says_l_as_mindspore_differentiates_it_with_two_auxiliary_outputs():
    """L is one definition (codegen.objective): with two auxiliary outputs returned and
    differentiated, MindSpore's L is loss + sum(z) + sum(z2), and the caption says so."""
    from dataclasses import replace

    from gradviz.model import numeric
    from gradviz.model.codegen import objective, objective_caption
    from gradviz.model.graph import Node
    from gradviz.model.presets import load_preset

    s = load_preset("tutorial")
    s.graph.nodes += [Node("z2", "Square", {"x": "z"}), Node("out_z2", "Output", {"x": "z2"})]
    o = replace(s.options, aux_output=True, stop_gradient=False, has_aux=False)
    assert objective(s.graph, o) == "loss + sum(z) + sum(z2)"
    assert numeric.seeds(replace(s, options=o)) == ["loss", "z", "z2"]  # what the reference differentiates
    assert objective_caption(s.graph, o) == "L = loss + sum(z) + sum(z2): z, z2 are returned and differentiated too"
    assert (
        objective_caption(s.graph, replace(o, has_aux=True))
        == "L = loss: z, z2 are returned as auxiliary data (has_aux=True)"
    )
    assert objective_caption(s.graph, replace(o, aux_output=False)) == "L = loss"
