"""Backprop stages (model/backprop.py): forward then backward, the chain rule in numbers per
element, checked against float64 numpy computed here and in tests/reference.py."""

import dataclasses
import json

import numpy as np
import pytest

from gradviz.model.backprop import BackpropError, stages
from gradviz.model.presets import load_preset
from reference import grads_for


def _session(preset="tutorial", **options):
    s = load_preset(preset)
    s.options = dataclasses.replace(s.options, **options)
    return s


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _check_all(session, element=0):
    """Every stage's numbers against the float64 reference: the snapshot stands in for the engine's."""
    _, g, v = grads_for(session)
    for n in session.graph.nodes:  # the reference leaves out a softmax cross-entropy's target
        if n.kind == "SoftmaxCrossEntropy":
            z = v[n.inputs["logits"]]
            log_p = z - z.max(axis=-1, keepdims=True)
            log_p = log_p - np.log(np.exp(log_p).sum(axis=-1, keepdims=True))
            g[n.inputs["target"]] = g[n.inputs["target"]] - log_p / z.shape[0]
    found = stages(session.graph, session.options, v, g, element)
    order = [n.name for n in session.graph.topo_order() if n.kind != "Output"]
    assert [st.key for st in found] == [f"forward:{n}" for n in order] + [f"backward:{n}" for n in reversed(order)]
    for st in found:
        want = v[st.node] if st.phase == "forward" else g[st.node]
        assert st.result == pytest.approx(float(want[st.element]), rel=1e-12, abs=1e-12), st.key
        for t in st.terms:
            if t.local is not None and not t.cut:
                assert t.upstream_at * t.local == pytest.approx(t.share, rel=1e-12, abs=1e-12)
    return found, v, g


@pytest.mark.parametrize("element", [0, 1, 2])
def test_the_tutorial_without_z_each_element(element):
    found, v, g = _check_all(_session(), element)
    by = {st.key: st for st in found}
    z, y = v["z"], v["y"]
    dz = (_sigmoid(z) - y) / z.size  # ∂BCE/∂z, derived by hand
    (t,) = by["backward:z"].terms
    assert (t.via, t.port, t.upstream_at) == ("loss", "logits", 1.0)
    assert t.local == pytest.approx(dz[element], rel=1e-12)
    (t,) = by["backward:b"].terms
    assert t.upstream_at == pytest.approx(dz[element]) and t.local == 1.0
    assert f"∂L/∂b[{element}] = ∂L/∂z[{element}] · ∂z[{element}]/∂b[{element}]" in by["backward:b"].formula
    w = by["backward:w"]
    assert w.result == pytest.approx(np.outer(v["x"], dz)[w.element], rel=1e-12)
    assert str(by["backward:z"].terms[0].formula) == "∂BCE/∂z = (σ(z) − y)/n"


def test_the_tutorial_with_z_returned_sums_over_both_consumers():
    found, v, g = _check_all(_session(aux_output=True), 1)
    z = {st.key: st for st in found}["backward:z"]
    dz = (_sigmoid(v["z"]) - v["y"]) / 3
    shares = {t.via: t.share for t in z.terms}
    assert shares["loss"] == pytest.approx(dz[1], rel=1e-12) and shares["out_z"] == 1.0
    assert z.result == pytest.approx(dz[1] + 1, rel=1e-12)
    assert "∂sum(z)/∂z[1]" in z.formula and " + " in z.formula


@pytest.mark.parametrize("option", ["stop_gradient", "has_aux"])
def test_stop_gradient_and_has_aux_mark_z_left_out_of_L(option):
    found, v, g = _check_all(_session(aux_output=True, **{option: True}))
    z = {st.key: st for st in found}["backward:z"]
    (cut,) = [t for t in z.terms if t.cut]
    assert cut.via == "out_z" and cut.share == 0.0
    assert ("stop_gradient" if option == "stop_gradient" else "has_aux") in cut.note
    assert z.result == pytest.approx((_sigmoid(v["z"][0]) - v["y"][0]) / 3, rel=1e-12)


def test_a_stop_gradient_node_cuts_the_graph():
    s = _session()
    g = s.graph
    from gradviz.model.graph import Node

    g.nodes.append(Node("sg", "StopGradient", {"x": "matmul"}))
    g["z"].inputs["a"] = "sg"
    found, v, grads = _check_all(s, 0)
    m = {st.key: st for st in found}["backward:matmul"]
    (t,) = m.terms
    assert t.cut and t.via == "sg" and m.result == 0.0 and "stop_gradient" in t.note
    assert m.formula.endswith("= 0")


def test_the_mlp_preset_every_stage():
    found, v, g = _check_all(_session("mlp"), {"x": 5, "y": 5, "w1": 3, "b1": 7, "h": 100, "logits": 9})
    h = {st.key: st for st in found}["backward:z1"]
    (t,) = h.terms
    assert t.local == pytest.approx(1 - np.tanh(v["z1"][h.element]) ** 2, rel=1e-12)


def test_an_element_outside_a_shape_is_a_clear_message():
    s = _session()
    _, g, v = grads_for(s)
    with pytest.raises(BackpropError, match=r"element 3 is outside b's shape \(3,\) \(3 elements: 0 to 2\)"):
        stages(s.graph, s.options, v, g, {"b": 3})
    with pytest.raises(BackpropError, match="element -1 is outside"):
        stages(s.graph, s.options, v, g, -1)


def test_the_backprop_command_on_mindspores_numbers(capsys):
    from gradviz.cli import main

    assert main(["backprop", "--preset", "tutorial", "--aux-output", "--element", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["stages"]
    _, g, v = grads_for(_session(aux_output=True))
    assert [(st["phase"], st["node"]) for st in found][:2] == [("forward", "x"), ("forward", "y")]
    for st in found:
        want = (v if st["phase"] == "forward" else g)[st["node"]][tuple(st["element"])]
        assert st["engine"] == pytest.approx(want, rel=1e-5, abs=1e-6), st["node"]
        assert st["result"] == pytest.approx(want, rel=1e-5, abs=1e-6), st["node"]
    z = next(st for st in found if st["phase"] == "backward" and st["node"] == "z")
    assert {t["via"]: t["share"] for t in z["upstream"]}["out_z"] == 1.0
    assert main(["backprop", "--preset", "tutorial"]) == 0
    text = capsys.readouterr().out
    assert "backward b (Parameter): ∂L/∂b[0] = ∂L/∂z[0] · ∂z[0]/∂b[0]" in text


def test_the_backprop_command_refuses_an_element_outside_a_shape(capsys):
    from gradviz.cli import main

    assert main(["backprop", "--preset", "tutorial", "--element", "b=3"]) == 2
    err = capsys.readouterr().err
    assert "gradviz backprop: error: element 3 is outside b's shape (3,)" in err
    assert main(["backprop", "--preset", "tutorial", "--element", "q=1"]) == 2
    assert "there is no node 'q'" in capsys.readouterr().err


def test_a_graph_with_layers_is_refused_with_a_message_naming_the_layer():
    from gradviz.model.backprop import BackpropError

    s = load_preset("moons")
    with pytest.raises(BackpropError, match="fc1"):
        stages(s.graph, s.options, {}, {}, 0)
