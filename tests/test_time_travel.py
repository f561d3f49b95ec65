"""Time travel, the divergence coach and the script exports, driven in the real window as a
teacher would. Numbers are checked against float64 numpy (tests/reference.py)."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

from conftest import wait_state
from gradviz.model.divergence import (
    first_non_finite,
    first_ratio_above,
    last_finite_step,
    ratios,
    rescue,
    update_table,
)
from gradviz.model.scripts import script
from gradviz.model.formatting import fmt_number
from gradviz.model.history import History
from gradviz.model.layout import Layout
from gradviz.model.presets import load_preset
from reference import NumpyOptimizer, first_overflow, grads_for, replay

TRAINED = ("w", "b")


def train_to(qtbot, win, steps: int) -> None:
    """Train the loaded session for `steps` steps (max steps), until it has finished."""
    win.controls.maxStepsSpin.setValue(steps)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == steps, timeout=30_000)


def show(qtbot, win, step: int) -> None:
    """Drag the history slider to `step` and wait for the engine's node values at that step."""
    win.timeTravel.bar.slider.setValue(step)
    qtbot.waitUntil(lambda: win.timeTravel.past is not None and win.timeTravel.shown == step, timeout=10_000)


def continue_here(qtbot, win, until_steps: int) -> None:
    with qtbot.waitSignal(win.controller.rewound, timeout=10_000):
        qtbot.mouseClick(win.timeTravel.bar.continueButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: win.controller.state == "finished" and win.controller.step_count == until_steps, timeout=30_000
    )


def numpy_run(session, steps: int, lr_from: dict[int, float]):
    """(loss, parameters before the step) per step in float64, the learning rate changed to
    lr_from[k] from step k on (SGD)."""
    o = session.options
    trained = [n.name for n in session.graph.parameters()]
    params = {k: v for k, v in grads_for(session)[2].items() if k in trained}
    opt = NumpyOptimizer(o.optimizer, o.lr)
    out = []
    for k in range(1, steps + 1):
        opt.lr = lr_from.get(k, opt.lr)
        loss, g, _ = grads_for(session, params)
        out.append((loss, params))
        params = opt.update(params, {n: g[n] for n in trained})
    return out


@pytest.mark.real_engine
def test_the_slider_shows_past_steps_on_plots_nodes_and_inspector(qtbot, win):
    train_to(qtbot, win, 20)
    tt = win.timeTravel
    assert tt.bar.slider.isEnabled() and (tt.bar.slider.minimum(), tt.bar.slider.maximum()) == (1, 20)
    show(qtbot, win, 7)
    h = win.controller.history
    k, loss, g, params = list(replay(load_preset("tutorial"), 7))[-1]
    assert k == 7 and win.graphView.property("shownStep") == 6  # step 7: the parameters after 6 updates
    row = h.param_layout.unflatten(h.params[h.index(7)])
    for n in TRAINED:  # the nodes hold exactly the parameters the history recorded for step 7 ...
        np.testing.assert_array_equal(win.scene.items_by_name[n].value, row[n])
        np.testing.assert_allclose(
            win.scene.items_by_name[n].value, params[n], rtol=1e-5
        )  # ... which numpy agrees with
        np.testing.assert_allclose(win.scene.items_by_name[n].grad, g[n], rtol=1e-4, atol=1e-7)
    assert win.scene.items_by_name["loss"].value == pytest.approx(loss, rel=1e-5)
    assert "step 7 (parameters after 6 updates)" in win.graphView.caption
    # the plots: a cursor at step 7 on each, and the heat map of w at step 7
    assert [c.value() for c in win.plots.cursors] == [7, 7, 7, 7] and all(c.isVisible() for c in win.plots.cursors)
    assert win.plots.heat_step == 7
    img = win.plots.images[0][0].image
    np.testing.assert_array_equal(img, row["w"])
    # the inspector: b at step 7, and its update per step with the step shown first
    win.scene.items_by_name["b"].setSelected(True)
    view = tt.view
    assert "b at step 7" in view.title.text()
    view.element.setCurrentIndex(view.element.findData(0))  # b[0]
    lr = win.document.options.lr
    cells = [view.table.item(0, c) for c in range(5)]
    expected = [params["b"][0], g["b"][0], -lr * g["b"][0], abs(lr * g["b"][0] / params["b"][0])]
    assert cells[0].text() == "7"
    for item, want in zip(cells[1:], expected):
        assert float(item.toolTip()) == pytest.approx(want, rel=1e-5)
        assert float(item.text()) == pytest.approx(want, rel=5e-3)
    assert view.table.item(1, 0).text() == "6"
    # back to training: the slider follows the run again, and at its end the nodes show its last step
    win.controls.maxStepsSpin.setValue(25)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count == 25 and win.controller.state == "finished", timeout=30_000)
    assert tt.shown == 25 and tt.at_last and tt.bar.slider.value() == 25


def _one_step_everywhere(qtbot, win, n: int) -> None:
    """Paused or finished after step n with its update kept: the nodes, the caption, the status
    bar, the heat maps and the History label all show step n, at its parameters before its update."""
    h = win.controller.history
    tt = win.timeTravel
    qtbot.waitUntil(lambda: tt.shown == n and tt.past is not None, timeout=10_000)
    k, loss, g, params = list(replay(load_preset("tutorial"), n))[-1]
    assert k == n == int(h.steps[-1]) and win.controller.updates == n
    assert win.scene.items_by_name["loss"].value == pytest.approx(float(h.loss[-1]), rel=1e-6)
    assert float(h.loss[-1]) == pytest.approx(loss, rel=1e-5)  # numpy's loss at step n
    for name in TRAINED:
        np.testing.assert_allclose(win.scene.items_by_name[name].value, params[name], rtol=1e-5)
        np.testing.assert_allclose(win.scene.items_by_name[name].grad, g[name], rtol=1e-4, atol=1e-7)
    state = f"step {n:,} (parameters after {n - 1:,} updates)"
    assert win.graphView.caption.startswith(f"Nodes: {state}, the plots' last step\n")
    assert win.graphView.property("shownStep") == n - 1
    assert win.lossLabel.text() == f"loss at step {n:,}: {fmt_number(h.loss[-1])}"
    assert win.stepLabel.text() == state  # the status bar in the caption's words, one step
    assert win.stepLabel.toolTip() == f"{n:,} updates kept"
    assert win.plots.heat_caption.text == state.replace(" (", "<br>(", 1)
    assert tt.bar.stepShown.text() == f"step {n:,} of {n:,}"
    assert not any(c.isVisible() for c in win.plots.cursors)  # the last step: no cursor
    assert win.lesson.observed().values["loss"] == win.scene.items_by_name["loss"].value  # the lesson's numbers too


def test_paused_or_finished_every_label_shows_the_last_step(qtbot, win):
    train_to(qtbot, win, 20)  # ended by max steps: 20 updates kept
    _one_step_everywhere(qtbot, win, 20)
    win.controls.maxStepsSpin.setValue(30)
    qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)  # one step more, paused
    qtbot.waitUntil(lambda: win.controller.step_count == 21 and win.controller.state == "paused", timeout=30_000)
    _one_step_everywhere(qtbot, win, 21)
    # the slider still shows any other step, and back at the last one the default caption returns
    show(qtbot, win, 7)
    assert "step 7 (parameters after 6 updates), from the history slider" in win.graphView.caption
    # training: the live nodes again
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == 30, timeout=30_000)
    _one_step_everywhere(qtbot, win, 30)


@pytest.mark.real_engine
def test_continue_with_unchanged_options_reproduces_the_run_exactly(qtbot, win):
    train_to(qtbot, win, 30)
    h = win.controller.history
    original = (h.steps.copy(), h.loss.copy(), h.params.copy(), h.grads.copy())
    show(qtbot, win, 12)
    continue_here(qtbot, win, 30)
    for before, now in zip(original, (h.steps, h.loss, h.params, h.grads)):
        np.testing.assert_array_equal(now, before)
    # the abandoned future (identical here) is drawn faintly from the fork on
    (branch,) = win.plots.branch_curves
    x, y = branch.getData()
    np.testing.assert_array_equal(x, np.arange(11, 31))
    np.testing.assert_array_equal(y, original[1][10:])


@pytest.mark.real_engine
def test_continue_with_another_learning_rate_follows_numpy_and_reset_clears_the_branch(qtbot, win):
    train_to(qtbot, win, 20)
    h = win.controller.history
    old_loss = h.loss.copy()
    show(qtbot, win, 6)
    win.controls.lrSpin.setValue(0.5)
    continue_here(qtbot, win, 20)
    ref = numpy_run(load_preset("tutorial"), 20, {6: 0.5})
    np.testing.assert_array_equal(h.loss[:5], old_loss[:5])
    np.testing.assert_allclose(h.loss, [r[0] for r in ref], rtol=1e-5)
    w = h.param_layout.unflatten(h.params[-1])["w"]
    np.testing.assert_allclose(w, ref[-1][1]["w"], rtol=1e-5)
    np.testing.assert_array_equal(h.lr, np.float32([0.01] * 5 + [0.5] * 15))
    assert len(win.plots.branch_curves) == 1
    _, y = win.plots.branch_curves[0].getData()
    np.testing.assert_array_equal(y, old_loss[4:])
    assert not np.allclose(h.loss[6:], old_loss[6:])  # the branches differ after the fork
    qtbot.mouseClick(win.controls.resetButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready")
    assert win.plots.branch_curves == [] and win.controller.abandoned == []


def _numpy_diagnosis(session, steps: int):
    """The first overflowing value and the first step of ratio > 1, from the float64 run."""
    big = float(np.finfo(np.float32).max)
    k, params = first_overflow(session, steps)
    _, g, v = grads_for(session, params)
    names = [n.name for n in session.graph.parameters()]
    bad = None
    for n in names:  # what a step computes first: its parameters, the loss, the gradients
        over = np.flatnonzero(np.abs(np.ravel(params[n])) > big)
        if len(over) and bad is None:
            bad = (n, int(over[0]))
    if bad is None and abs(v["loss"]) > big:
        bad = ("loss", 0)
    for n in names:
        over = np.flatnonzero(~(np.abs(np.ravel(g[n])) <= big))
        if len(over) and bad is None:
            bad = ("∂L/∂" + n, int(over[0]))
    lr = session.options.lr
    cross = None
    for step, _, g, p in replay(session, k):
        r = [np.linalg.norm(lr * g[n]) / np.linalg.norm(p[n]) for n in names]
        if max(r) > 1:
            cross = (step, names[int(np.argmax(np.array(r) > 1))])
            break
    return k, bad, cross


def _numpy_ratios(session, step: int) -> dict[str, float]:
    """‖lr·∂L/∂p‖ / ‖p‖ per parameter at `step` of the float64 run."""
    lr = session.options.lr
    for k, _, g, p in replay(session, step):
        if k == step:
            return {n: float(np.linalg.norm(lr * g[n]) / np.linalg.norm(p[n])) for n in p}


@pytest.mark.real_engine
def test_the_divergence_coach_explains_and_recovers_with_one_click(qtbot, win):
    win.files.load_preset("linreg_seed")
    wait_state(qtbot, win, "ready")
    win.controls.lrSpin.setValue(0.5)
    win.controls.maxStepsSpin.setValue(100)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "diverged")
    session = load_preset("linreg_seed")
    session.options.lr = 0.5
    k, (tensor, element), (cross_step, cross_tensor) = _numpy_diagnosis(session, 100)
    h = win.controller.history
    bad = first_non_finite(h)
    assert (bad.step, bad.tensor) == (k, tensor)
    labels = dict(parameter=h.param_layout, gradient=h.grad_layout)
    if bad.kind in labels:
        layout = labels[bad.kind]
        start = sum(layout.sizes[: layout.names.index(tensor.removeprefix("∂L/∂"))])
        assert bad.element.removeprefix("∂L/∂") == layout.labels()[start + element]
    coach = win.timeTravel.bar
    assert coach.coachBox.isVisible()
    text = coach.coachLabel.text()
    assert f"{bad.element}" in text and f"at step {k}" in text
    assert f"first passed 1 at step {cross_step} ({cross_tensor}" in text
    # every plot marks the step; the nodes keep the last finite step
    assert len(win.plots.bad_lines) == 3 and all(ln.value() == k for ln in win.plots.bad_lines)
    qtbot.waitUntil(lambda: win.timeTravel.past is not None, timeout=10_000)
    assert win.graphView.property("shownStep") == k - 2 and last_finite_step(h) == k - 1  # step k-1: k-2 updates
    row = h.param_layout.unflatten(h.params[h.index(k - 1)])
    np.testing.assert_array_equal(win.scene.items_by_name["weight"].value, row["weight"])
    assert np.isfinite(win.scene.items_by_name["loss"].value)
    # the default goes back to the step where the ratio first passed 1, with a factor that keeps
    # every ratio there at most 1/2: numpy's ratio at that step times the factor
    factor = coach.coachFactor.value()
    assert cross_step == 1 and max(_numpy_ratios(session, cross_step).values()) * factor <= 0.5
    assert factor >= 0.1 / max(_numpy_ratios(session, cross_step).values())  # and not needlessly small
    assert coach.coachButton.text() == f"Rewind {k - cross_step} steps and lower the learning rate ×{factor:g}"
    with qtbot.waitSignal(win.controller.rewound, timeout=10_000) as sig:
        qtbot.mouseClick(coach.coachButton, Qt.MouseButton.LeftButton)
    assert sig.args == [cross_step]
    lr = win.document.options.lr
    assert lr == pytest.approx(0.5 * factor)
    qtbot.waitUntil(lambda: win.controller.state == "finished", timeout=30_000)
    assert not coach.coachBox.isVisible()
    assert np.isfinite(h.loss).all() and np.isfinite(h.grads).all() and not h.bad_steps
    assert int(h.steps[-1]) == 100
    ref = numpy_run(load_preset("linreg_seed"), 100, {1: lr})
    np.testing.assert_allclose(h.loss, [r[0] for r in ref], rtol=1e-4)
    assert (np.diff([r[0] for r in ref]) < 0).all()  # one click: a finite, falling loss
    np.testing.assert_array_equal(h.lr, np.float32(lr))
    assert win.plots.bad_lines == [] and len(win.plots.branch_curves) == 1
    # the abandoned run's spike stays marked, but the loss plot's range is the run's, not the spike's
    (mark,) = win.plots.branch_marks
    assert mark.value() == k
    lo, hi = win.plots.lossPlot.getPlotItem().vb.viewRange()[1]
    assert lo <= float(h.loss.min()) and float(h.loss.max()) <= hi <= 3 * float(h.loss.max())


def test_the_abandoned_branch_is_drawn_where_it_is_on_a_log_scale_with_labels_apart(qtbot, win):
    train_to(qtbot, win, 30)
    h = win.controller.history
    old_loss = h.loss.copy()
    show(qtbot, win, 10)
    win.controls.lrSpin.setValue(0.002)
    continue_here(qtbot, win, 30)
    plots = win.plots
    plots.logCheck.setChecked(True)
    plots.refresh(force=True)
    (branch,) = plots.branch_curves
    x, y = branch.getData()
    # on the log scale the branch is where its losses are: log10 of them, below the slower run
    np.testing.assert_array_equal(x, np.arange(9, 31))  # from the step it forks at
    np.testing.assert_allclose(y, np.log10(old_loss[8:].astype(np.float64)), rtol=1e-6)
    lx, ly = plots.loss_curve.getData()
    assert ly[-1] > y[-1]
    lo, hi = plots.lossPlot.getPlotItem().vb.viewRange()[1]
    assert lo <= min(y.min(), ly.min()) and max(y.max(), ly.max()) <= hi
    # the left axis labels the decades, and finer values only where the labels stay apart
    axis = plots.lossPlot.getAxis("left")
    height = QFontMetricsF(axis.style["tickFont"]).height()
    for size in (60, 160, 400):
        for lo, hi in ((-0.7, 0.3), (-3, 1), (3.9, 5.1), (-6, 30)):
            values = sorted(v for _, vs in axis.logTickValues(lo, hi, size, []) for v in vs)
            assert values, (lo, hi, size)
            gaps = np.diff(values) * size / (hi - lo)
            assert (gaps >= 1.5 * height).all(), (lo, hi, size, values)
    # a linear scale again: the branch is the losses themselves
    plots.logCheck.setChecked(False)
    _, y = branch.getData()
    np.testing.assert_array_equal(y, old_loss[8:])


def test_the_diagnosis_agrees_with_numpy():
    """model.divergence on a recorded linreg run (float32, as the engine records it)."""
    s = load_preset("linreg")
    s.options.lr = 0.5
    k, (tensor, element), (cross_step, cross_tensor) = _numpy_diagnosis(s, 100)
    pl = Layout(["weight", "bias"], [(1,), (2,)])
    h = History(pl, pl, Layout([], []))
    with np.errstate(over="ignore", invalid="ignore"):
        for step, loss, g, p in replay(s, k):
            h.append([step], [loss], [pl.flatten(p)], [pl.flatten(g)], np.zeros((1, 0)), [1.0], [0.5])
    bad = first_non_finite(h)
    assert (bad.step, bad.tensor) == (k, tensor)
    cross = first_ratio_above(h)
    assert (cross.step, cross.tensor) == (cross_step, cross_tensor)
    assert last_finite_step(h) == k - 1
    names, r = ratios(h)
    P, G = h.params.astype(np.float64), h.grads.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        np.testing.assert_allclose(
            r[:5, 1], 0.5 * np.linalg.norm(G[:5, 1:], axis=1) / np.linalg.norm(P[:5, 1:], axis=1)
        )
    t = update_table(h, "bias", 1, slice(0, 3))
    np.testing.assert_allclose(t["update"], -0.5 * G[:3, 2])
    np.testing.assert_allclose(t["ratio"], np.abs(0.5 * G[:3, 2] / P[:3, 2]))


@pytest.mark.parametrize("preset, lr", [("linreg_seed", 0.5), ("linreg", 1.0)])
def test_the_coach_default_rewinds_before_the_ratio_passed_1_and_the_run_then_falls(preset, lr):
    """model.divergence.rescue on a recorded diverging run: numpy's first step of ratio > 1, a
    factor that keeps numpy's ratios there at most 1/2, and from there the float64 run falls."""
    s = load_preset(preset)
    s.options.lr = lr
    k, _, (cross_step, _) = _numpy_diagnosis(s, 200)
    names = [n.name for n in s.graph.parameters()]
    first = grads_for(s)[2]
    pl = Layout(names, [np.shape(first[n]) for n in names])
    h = History(pl, pl, Layout([], []))
    with np.errstate(over="ignore", invalid="ignore"):
        for step, loss, g, p in replay(s, k):
            h.append([step], [loss], [pl.flatten(p)], [pl.flatten(g)], np.zeros((1, 0)), [1.0], [lr])
    r = rescue(h, lr)
    assert r.step == cross_step < k
    worst = max(_numpy_ratios(s, cross_step).values())
    assert worst * r.factor <= 0.5 < worst * r.factor * 5  # the largest 1/(1, 2, 5 x 10^k) that does
    losses = [loss for loss, _ in numpy_run(s, cross_step + 300, {cross_step: lr * r.factor})[cross_step - 1 :]]
    assert np.isfinite(losses).all() and (np.diff(losses) < 0).all()
    assert rescue(h.__class__(pl, pl, Layout([], [])), lr) is None  # nothing to rescue in an empty run


def test_the_lesson_names_a_preset_and_rate_that_diverge():
    """The tutorial's loss does not overflow even at learning rate 100; the lesson sends the class
    to linreg_seed at 0.5, which does."""
    from gradviz.model import lesson_plan as plan

    s = load_preset("tutorial")
    s.options.lr = 100.0
    with pytest.raises(AssertionError, match="stays in float32's range"):
        first_overflow(s, 1000)
    text = " ".join(p.text for step in plan.PLAN for p in step.paras)
    assert "linreg_seed preset) and set the learning rate to 0.5" in text
    s = load_preset("linreg_seed")
    s.options.lr = 0.5
    assert first_overflow(s, 60)[0] <= 60


def test_a_ratio_that_crosses_later_is_found_where_numpy_finds_it():
    rng = np.random.default_rng(3)
    pl = Layout(["a", "m"], [(), (2, 2)])
    h = History(pl, pl, Layout([], []))
    P = rng.uniform(1, 2, (40, 5)).astype(np.float32)
    G = rng.uniform(-1, 1, (40, 5)).astype(np.float32)
    lr = np.full(40, 0.1, np.float32)
    G[23, 1:] = 40  # ‖0.1·g‖ = 8 against ‖m‖ <= 4 at step 24
    lr[30] = 100
    h.append(np.arange(1, 41), np.ones(40), P, G, np.zeros((40, 0)), np.ones(40), lr)
    want = (
        np.abs(lr[:, None].astype(np.float64))
        * np.stack([np.abs(G[:, 0]), np.linalg.norm(G[:, 1:].astype(np.float64), axis=1)], 1)
        / np.stack([np.abs(P[:, 0]), np.linalg.norm(P[:, 1:].astype(np.float64), axis=1)], 1)
    )
    first = int(np.flatnonzero((want > 1).any(axis=1))[0])
    cross = first_ratio_above(h)
    assert (cross.step, cross.tensor) == (first + 1, "am"[int(np.argmax(want[first] > 1))]) == (24, "m")
    assert first_non_finite(h) is None and last_finite_step(h) == 40
    h.truncate(24)
    assert h.n == 23 and first_ratio_above(h) is None


@pytest.mark.real_engine
def test_exports_write_what_model_export_gives(qtbot, win, tmp_path, monkeypatch):
    for fw in ("mindspore", "pytorch"):
        out = tmp_path / f"{fw}.py"
        assert win.files.export_script(str(out), fw)
        assert out.read_text() == script(win.document.session, fw)
        assert str(out.name) in win.statusBar().currentMessage()
    # the nn.Cell path: the attribute names come from the engine's Built reply
    from gradviz.engine.engine import cell_attributes

    win.controls.apiCombo.setCurrentIndex(win.controls.apiCombo.findData("cell"))
    wait_state(qtbot, win, "ready")
    qtbot.waitUntil(lambda: win.controller.session.options.api == "cell" and win.controller.info is not None)
    out = tmp_path / "cell.py"
    assert win.files.export_script(str(out), "mindspore")
    s = win.document.session
    assert out.read_text() == script(s, "mindspore", cell_attributes([p.name for p in s.graph.parameters()]))
    # without torch the script is still written, and the message says how to run it
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a))
    out = tmp_path / "torch.py"
    assert win.files.export_script(str(out), "pytorch")
    assert out.read_text() == script(s, "pytorch")
    assert "pip install -e '.[torch]'" in win.statusBar().currentMessage()


def test_snapshot_at_past_parameters_leaves_the_training_state_as_it_was():
    from gradviz.engine.engine import Engine

    s = load_preset("tutorial")
    e, fresh = Engine(s), Engine(s)
    rows = [e.step().row.copy() for _ in range(5)]
    past = e.param_layout.unflatten(rows[1][2 : 2 + e.param_layout.total])  # before step 2's update
    snap = e.snapshot_at(past)
    loss, g, v = grads_for(s, {n: past[n].astype(np.float64) for n in TRAINED})
    np.testing.assert_allclose(snap.grads["w"], g["w"], rtol=1e-5, atol=1e-7)
    assert float(snap.values["loss"]) == pytest.approx(loss, rel=1e-6)
    again = [fresh.step().row.copy() for _ in range(8)]
    np.testing.assert_array_equal(np.array(rows + [e.step().row.copy() for _ in range(3)]), np.array(again))
    e.close()
    fresh.close()


def test_a_truncated_history_draws_as_one_that_never_had_those_steps():
    pl = Layout(["p"], [(2,)])
    rng = np.random.default_rng(1)
    P, G, L = rng.standard_normal((5000, 2)), rng.standard_normal((5000, 2)), rng.random(5000)

    def hist(parts):
        h = History(pl, pl, Layout([], []))
        for a, b in parts:
            h.append(np.arange(a + 1, b + 1), L[a:b], P[a:b], G[a:b], np.zeros((b - a, 0)), np.ones(b - a), None)
        return h

    h = hist([(0, 5000)])
    h.truncate(3001)  # keeps steps 1..3000
    assert h.n == 3000 and h.index(3000) == 2999 and h.index(3001) is None
    h.append(np.arange(3001, 4001), L[:1000] + 5, P[:1000], G[:1000], np.zeros((1000, 0)), np.ones(1000), None)
    ref = hist([(0, 3000)])
    ref.append(np.arange(3001, 4001), L[:1000] + 5, P[:1000], G[:1000], np.zeros((1000, 0)), np.ones(1000), None)
    for x0, x1 in ((None, None), (100, 3500), (2990, 3010)):
        for a, b in zip(h.view(x0, x1, 300), ref.view(x0, x1, 300)):
            np.testing.assert_array_equal(a, b)
