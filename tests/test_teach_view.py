"""Teaching on screen: live nodes in both modes, the why drawn on the graph,
the MindSpore call always in view. Numbers are checked against independent float64 numpy
(tests/reference.py) and the texts against codegen, the generator of the program that runs."""

import numpy as np
import pytest

from reference import grads_for
from gradviz.model.codegen import grad_call, returned_structure
from gradviz.model.gradflow import fmt3, fmt_values
from gradviz.model.presets import load_preset

from conftest import wait_nodes_at, wait_state

VARIANTS = {  # name: (aux_output, stop_gradient, has_aux, the return line, the grad_fn call, the structure)
    "loss": (False, False, False, "return loss", "mindspore.grad(function, (2, 3), has_aux=False)", "(dw, db)"),
    "return_z": (True, False, False, "return loss, z", "mindspore.grad(function, (2, 3), has_aux=False)", "(dw, db)"),
    "stop_gradient": (
        True,
        True,
        False,
        "return loss, ops.stop_gradient(z)",
        "mindspore.grad(function, (2, 3), has_aux=False)",
        "(dw, db)",
    ),
    "has_aux": (
        True,
        False,
        True,
        "return loss, z",
        "mindspore.grad(function, (2, 3), has_aux=True)",
        "((dw, db), (z,))",
    ),
}


def _set(win, aux, sg, ha):
    c = win.controls
    if c.auxOutputCheck.isChecked() != aux:
        c.auxOutputCheck.click()
    if aux and c.stopGradientCheck.isChecked() != sg:
        c.stopGradientCheck.click()
    if aux and c.hasAuxCheck.isChecked() != ha:
        c.hasAuxCheck.click()


def test_numbers_are_written_with_three_decimals_and_short_vectors_in_full():
    assert [fmt3(v) for v in (0.32618925, 0.0158914, 1.0, -4.2999, 0.0)] == ["0.326", "0.016", "1.000", "-4.300", "0"]
    assert fmt3(1.234e-5) == "1.23e-05" and fmt3(12345.0) == "1.23e+04"
    assert fmt_values(np.array([1.3261893, 1.0158914, 1.0421646])) == "[1.326, 1.016, 1.042]"
    assert fmt_values(np.arange(4.0)) == "[0, 1.000, 2.000, 3.000]"
    assert fmt_values(np.ones(5)) == "[1.000, 1.000, …] (5)"


def test_shown_step_follows_the_nodes(qtbot, win):
    gv = win.graphView
    wait_nodes_at(qtbot, win, 0)
    assert gv.property("shownStep") == 0
    win.controller.step()
    # paused after step 1 with its update kept: the nodes show step 1 itself (before its update),
    # though the live ones are after 1 update
    qtbot.waitUntil(lambda: win.controller.nodes.updates == 1 and gv.property("shownStep") == 0, timeout=30_000)
    win.reset()
    qtbot.waitUntil(lambda: gv.property("shownStep") == 0, timeout=30_000)


@pytest.mark.real_engine
def test_graph_mode_flat_out_refreshes_the_nodes_twice_a_second(qtbot, win):
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    qtbot.waitUntil(lambda: win.controller.state == "ready" and win.controller._client.mode == "graph", timeout=60_000)
    win.controls.maxStepsSpin.setValue(100_000_000)
    wait_state(qtbot, win, "ready")
    win.controller.start()
    wait_state(qtbot, win, "training")  # compiled; from here on, at least two refreshes in ~1.5 s
    seen = []
    win.graphView.nodesShown.connect(seen.append)
    qtbot.waitUntil(lambda: len(seen) >= 3, timeout=1_500)  # the first may be one queued before
    assert seen == sorted(seen) and seen[-1] > seen[0]  # a new state of the parameters each time
    assert win.graphView.property("shownStep") == seen[-1]
    win.controller.pause()
    wait_state(qtbot, win, "paused")


@pytest.mark.real_engine
def test_at_speed_5_every_steps_nodes_arrive(qtbot, win, monkeypatch):
    """At a watchable speed the engine sends the nodes after every step (the window shows the
    latest of those a redraw finds: on a loaded machine two may come between redraws)."""
    win.controls.maxStepsSpin.setValue(6)
    win.controls.speedSpin.setValue(5.0)
    wait_state(qtbot, win, "ready")
    assert win.controller.session.options.speed == 5.0
    wait_nodes_at(qtbot, win, 0)
    client = win.controller._client
    arrived, shown = [], []
    drain = client.drain

    def watched():
        replies = drain()
        arrived.extend(m.updates for m in replies if type(m).__name__ == "Nodes")
        return replies

    monkeypatch.setattr(client, "drain", watched)
    win.graphView.nodesShown.connect(shown.append)
    win.controller.start()
    wait_state(qtbot, win, "finished", timeout=30_000)
    wait_nodes_at(qtbot, win, 6)
    assert set(range(1, 7)) <= set(arrived)
    # the window drew them as they came; finished, it shows the run's last step (6: the
    # parameters after 5 updates), as the plots do
    assert len(shown) >= 3
    qtbot.waitUntil(lambda: win.graphView.property("shownStep") == 5, timeout=5_000)


@pytest.mark.real_engine
def test_the_why_is_drawn_for_each_variant(qtbot, win):
    """b's gradient as the sum of its parts with z returned, the Outputs' flows, the cut, the
    grey not-requested x and y, and the call lines, for the four variants."""
    for name, (aux, sg, ha, ret, call, structure) in VARIANTS.items():
        _set(win, aux, sg, ha)
        o = win.document.options
        assert (o.aux_output, o.stop_gradient, o.has_aux) == (aux, sg, ha), name
        wait_state(qtbot, win, "ready")
        wait_nodes_at(qtbot, win, 0)
        s = win.document.session
        assert grad_call(s.graph, o) == call and returned_structure(s.graph, o) == structure
        lines = win.callView.lines
        assert lines[0] == f"def function(...): return {ret[len('return ') :]}"
        assert lines[1] == f"grad_fn = {call}" and lines[2] == f"grad_fn(...) returns {structure}"
        loss, g, v = grads_for(s)
        items = win.scene.items_by_name
        b = items["b"]
        np.testing.assert_allclose(b.grad, g["b"], rtol=1e-5, atol=1e-6)
        for x in ("x", "y"):
            assert items[x].unrequested == "not requested by grad_position=(2, 3)", name
        assert items["b"].unrequested == "" and items["w"].unrequested == ""
        out_z = items["out_z"]
        if name == "return_z":
            # the +1: b's gradient is the loss's part plus the ones that flow back from out_z
            loss_only = grads_for(load_preset("tutorial"))[1]["b"]
            assert list(b.parts) == ["out_loss", "out_z"]
            np.testing.assert_allclose(b.parts["out_loss"], loss_only, rtol=1e-5, atol=1e-6)
            np.testing.assert_array_equal(b.parts["out_z"], np.ones(3))
            assert b.share_lines() == [f"from out_loss  {fmt_values(loss_only)}", "+ from out_z  [1.000, 1.000, 1.000]"]
            np.testing.assert_array_equal(out_z.flow.seed, np.ones(3))
            z_edge = next(e for e in win.scene.edges if e.src.name == "z" and e.dst.name == "loss")
            np.testing.assert_allclose(z_edge.grad, loss_only, rtol=1e-5, atol=1e-6)  # dloss/dz = dloss/db here
        else:
            assert b.parts == {} and b.shares == []
        if name == "stop_gradient":
            assert out_z.flow.seed is None and out_z.flow.cut
            assert any(e.cut for e in win.scene.edges if e.dst.name == "out_z")
        if name == "has_aux":
            assert out_z.flow.seed is None and out_z.flow.label.startswith("returned, not differentiated")
        assert items["out_loss"].flow.seed == pytest.approx(1.0)
        assert fmt_values(b.grad) == "[" + ", ".join(fmt3(x) for x in g["b"]) + "]"


@pytest.mark.real_engine
def test_the_call_highlights_what_the_last_toggle_changed(qtbot, win):
    wait_nodes_at(qtbot, win, 0)
    win.controls.auxOutputCheck.click()
    assert win.callView.changed == [0]  # only the return line
    win.controls.hasAuxCheck.click()
    assert win.callView.changed == [1, 2]  # has_aux=True and the structure
    assert "mindspore.grad(function, (2, 3), has_aux=True)" in win.callView.text()
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    assert win.callView.changed == [3] and win.callView.lines[3].startswith("@mindspore.jit")


def test_shortened_numbers_keep_a_significant_digit():
    # a compact node's shorter forms: fewer decimals, never a non-zero gradient written as 0.0
    from gradviz.model.gradflow import short_forms

    forms = short_forms(np.array([0.326, 0.016, 0.042]))
    assert forms[0] == "[0.326, 0.016, 0.042]"
    assert "[0.3, 0.02, 0.04]" in forms and "[0.3, 0.0, 0.0]" not in forms
    assert "[1.3, 1.0, 1.0]" in short_forms(np.array([1.326, 1.016, 1.042]))
    # the first element alone keeps its three decimals before it loses them (presentation mode)
    assert short_forms(np.array([0.633, 0.1, 0.2]))[-3:] == ["0.633…", "0.63…", "0.6…"]
    # e-notation keeps its whole exponent, shortened (presentation mode wrote the loss as "9.93e…")
    assert short_forms(9.934e-4) == ["9.93e-04", "9.93e-4", "9.9e-4", "1e-3"]
    assert short_forms(np.array([2.53e4]))[1:] == ["2.53e4", "2.5e4", "3e4"]
    # whole numbers, shortened, are written whole (x = [1, 2] in the linreg seed)
    assert "[1, 2]" in short_forms(np.array([1.0, 2.0])) and "[1.0, 2.0]" not in short_forms(np.array([1.0, 2.0]))
