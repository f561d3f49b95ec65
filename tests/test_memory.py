"""Scale without running out of memory: large tensors recorded as summaries
and sampled elements, the history within its memory budget, the `big` preset (one 1000x1000
Parameter) in both modes, headless and in the app. Numbers are checked against float64 numpy."""

import io
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt

from gradviz.cli import main
from gradviz.engine.checkpoints import Checkpoints, TrainingState
from gradviz.formats.records import write_history
from gradviz.formats.run_reader import read_history
from gradviz.model.history import History
from gradviz.model.layout import Layout, row_slices
from gradviz.model.presets import load_preset, preset_names
from gradviz.model.recording import (
    PER_ELEMENT_LIMIT,
    QUANTILES,
    SAMPLES,
    STATS,
    RecordingPlan,
    quantile_indices,
    sample_indices,
)
from reference import replay

from conftest import wait_state

NONE = Layout([], [])


def _stats64(x: np.ndarray) -> np.ndarray:
    """norm, min, max, mean and the quantiles of one tensor, in float64, straight from numpy."""
    flat = np.asarray(x, np.float64).reshape(-1)
    q = np.quantile(flat[quantile_indices(flat.size)], QUANTILES)
    return np.array([np.sqrt(np.sum(flat**2)), flat.min(), flat.max(), flat.mean(), *q])


def _check_summary(cols: np.ndarray, x: np.ndarray, exact: bool = False) -> None:
    """A recorded summary against numpy's; the samples exactly where `x` is the very tensor
    summarised, else (MindSpore against a float64 replay) to float32 precision."""
    flat = np.asarray(x, np.float64).reshape(-1)
    want = _stats64(flat)
    scale = np.abs(flat).max()
    np.testing.assert_allclose(cols[: len(STATS)], want, rtol=1e-5, atol=1e-6 * scale)
    samples = flat[sample_indices(flat.size)]
    if exact:
        np.testing.assert_array_equal(cols[len(STATS) :], samples.astype(np.float32))
    else:
        np.testing.assert_allclose(cols[len(STATS) :], samples, rtol=1e-5, atol=1e-6 * scale)


def test_a_large_tensor_is_recorded_as_numpy_computes_its_summary_and_samples():
    rng = np.random.RandomState(5)
    w = (rng.randn(400, 250) * 3 + 1).astype(np.float32)  # 100,000 elements
    b = rng.randn(7).astype(np.float32)
    params = Layout(["w", "b"], [(400, 250), (7,)])
    plan = RecordingPlan(params, params, NONE)
    rp, rg, _ = plan.layouts
    assert rp.summaries == {"w": (400, 250)} and rp.shapes == [(len(STATS) + SAMPLES,), (7,)]
    rows = np.concatenate([[0.5, 0.01], w.ravel(), b, -2 * w.ravel(), -2 * b]).astype(np.float32)
    out = plan.reduce(np.stack([rows, rows * 0]))
    assert out.shape == (2, plan.width)
    pc, gc, _ = row_slices(rp, rg)
    p, g = rp.unflatten(out[0, pc]), rg.unflatten(out[0, gc])
    _check_summary(p["w"], w, exact=True)
    _check_summary(g["w"], -2 * w, exact=True)
    np.testing.assert_array_equal(p["b"], b)  # small tensors: every element, exactly
    assert out[0, 0] == np.float32(0.5) and out[0, 1] == np.float32(0.01)
    np.testing.assert_array_equal(out[1, pc][: len(STATS)], 0.0)
    # the samples: SAMPLES distinct elements, the same for every run of a tensor of that size
    idx = sample_indices(100_000)
    assert len(set(idx.tolist())) == SAMPLES and idx.min() >= 0 and idx.max() < 100_000
    labels = rp.labels()
    i, j = np.unravel_index(int(idx[0]), (400, 250))
    assert labels[: len(STATS)] == [f"w:{s}" for s in STATS] and labels[len(STATS)] == f"w[{i},{j}]"


@pytest.mark.parametrize("m", [1, 2, 3, 7, 64, 4096])
def test_summary_quantiles_are_numpys_linear_quantiles(m):
    from gradviz.model.recording import quantiles

    rng = np.random.RandomState(m)
    x = (rng.randn(5, m) * 4).astype(np.float32)
    x[1, 0] = np.inf
    x[2, -1] = -np.inf
    x[3, m // 2] = np.nan
    x[4] = 2.5  # all equal
    want = np.quantile(x.astype(np.float64), QUANTILES, axis=1).T
    got = quantiles(x)
    assert got.shape == (5, len(QUANTILES))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-12)
    assert np.isnan(got[3]).all()  # a NaN makes every quantile NaN, as numpy's
    # an infinite element: where numpy's lerp gives NaN (inf - inf, 0 * inf), the quantile is the
    # sorted element at a whole position, else that infinity
    for row, sign in ((1, 1), (2, -1)):
        v = np.sort(x[row].astype(np.float64))
        for j, q in enumerate(QUANTILES):
            if finite[row, j]:
                continue
            h = (m - 1) * q
            assert got[row, j] == (v[int(h)] if h == int(h) else sign * np.inf)


def test_small_graphs_record_every_element_with_no_work():
    pl = Layout(["w", "b"], [(5, 3), (PER_ELEMENT_LIMIT,)])
    plan = RecordingPlan(pl, pl, Layout(["z"], [(3,)]))
    rows = np.arange(2 + 2 * pl.total + 3, dtype=np.float32)[None]
    assert plan.identity and plan.reduce(rows) is rows
    assert plan.layouts[0].to_dict() == pl.to_dict()  # a small graph's run files are as before


def _fill(h: History, upto: int, batch: int = 97) -> None:
    for first in range(h.steps[-1] + 1 if h.n else 1, upto + 1, batch):
        s = np.arange(first, min(first + batch, upto + 1))
        k = len(s)
        h.append(s, s * 0.5, np.tile(s[:, None], (1, 16)), -s[:, None] * np.ones((k, 16)), np.zeros((k, 0)), np.ones(k))


def test_the_history_never_passes_its_budget_and_thins_old_steps():
    pl = Layout(["w"], [(16,)])
    budget = 256 << 10
    h = History(pl, pl, NONE, budget=budget)
    assert h.max_rows * History.row_bytes(2 + 32, 0) <= budget
    seen = set()
    for upto in range(500, 40_001, 500):
        _fill(h, upto)
        assert h.nbytes() <= budget, (upto, h.nbytes())
        assert h.steps[-1] == upto  # the latest step is always kept
        assert np.all(h.steps[:-1] % h.stride == 0) and np.all(np.diff(h.steps) > 0)
        seen.add(h.stride)
    assert h.stride >= 16 and {1, 2, 4, 8} <= seen
    # every kept row is that step's numbers, and the plots still draw the whole run
    np.testing.assert_array_equal(h.loss, h.steps * 0.5)
    np.testing.assert_array_equal(h.params[:, 3], h.steps)
    np.testing.assert_allclose(h.grad_norm, h.steps * 4.0, rtol=1e-6)  # sqrt(16 * s^2)
    x, y = h.view(max_points=200)
    assert x[0] >= 1 and x[-1] <= 40_000 and x[-1] > 39_000 and np.nanmax(y[:, 0]) == 20_000
    # a step thinned away: the labels name the last step held before it (index_at_or_before)
    odd = int(h.steps[-2]) + 1
    assert h.index(odd) is None and h.steps[h.index_at_or_before(odd)] == h.steps[-2]
    assert h.index_at_or_before(int(h.steps[-1])) == h.n - 1 and h.index_at_or_before(0) is None


def test_lowering_the_budget_thins_at_once_and_frees_the_buffers():
    pl = Layout(["w"], [(16,)])
    h = History(pl, pl, NONE, budget=4 << 20)
    _fill(h, 20_000)
    assert h.stride == 1 and h.n == 20_000
    h.set_budget(512 << 10)
    assert h.nbytes() <= 512 << 10 and h.stride > 1 and h.steps[-1] == 20_000
    np.testing.assert_array_equal(h.loss, h.steps * 0.5)


def test_the_gradient_norm_of_a_summarised_tensor_is_over_every_element():
    rng = np.random.RandomState(1)
    w, b = rng.randn(2000).astype(np.float32), rng.randn(3).astype(np.float32)
    pl = Layout(["w", "b"], [(2000,), (3,)])
    plan = RecordingPlan(pl, pl, NONE)
    row = plan.reduce(np.concatenate([[1.0, 0.1], w, b, w, b]).astype(np.float32)[None])
    rp, rg, ra = plan.layouts
    h = History(rp, rg, ra)
    pc, gc, ac = row_slices(rp, rg)
    h.append([1], row[:, 0], row[:, pc], row[:, gc], row[:, ac], [1.0])
    want = np.sqrt(np.sum(w.astype(np.float64) ** 2) + np.sum(b.astype(np.float64) ** 2))
    assert h.grad_norm[0] == pytest.approx(want, rel=1e-5)


def test_kept_training_states_of_a_million_element_parameter_stay_within_their_budget():
    budget = 64 << 20
    c = Checkpoints(128, budget)
    state = TrainingState(0, {"w": np.zeros(1_000_000, np.float32)}, {"m": np.zeros(1_000_000, np.float32)}, 0.1)
    for k in range(0, 128 * 200, 128):
        if c.due(k):
            c.keep(TrainingState(k, state.params, state.optimizer, 0.1))
        assert c.nbytes <= budget
    assert c.at_or_before(128 * 199).updates >= 128 * 199 - c.interval


@pytest.mark.parametrize("value", ["0", "15", "abc", "1.5", "", "99999999999"])
def test_history_budget_must_be_whole_megabytes_in_range(tmp_path, capsys, value):
    code = main(["run", "--history-budget", value, "--steps", "1", "--out", str(tmp_path / "o.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--history-budget" in err and "16 to 1,048,576" in err, err
    assert not (tmp_path / "o.jsonl").exists()


def test_big_is_a_preset_with_one_million_element_parameter():
    s = load_preset("big")
    assert "big" in preset_names()
    big = [n for n in s.graph.parameters() if int(np.prod(n.shape)) > PER_ELEMENT_LIMIT]
    assert [tuple(n.shape) for n in big][:1] == [(1000, 1000)]


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_big_trains_headless_and_writes_summaries_numpy_agrees_with(tmp_path, mode):
    out = tmp_path / "big.jsonl"
    code = main(["run", "--preset", "big", "--steps", "3", "--mode", mode, "--history-budget", "64", "--out", str(out)])
    assert code == 0
    lines = out.read_text().splitlines()
    head, steps = json.loads(lines[0]), [json.loads(x) for x in lines[1:-1]]
    assert head["layout"]["params"]["summaries"]["w"]["shape"] == [1000, 1000]
    assert head["layout"]["params"]["summaries"]["w"]["stats"] == list(STATS)
    assert max(len(x) for x in lines) < 20_000  # not the 10+ MB of a million numbers a step
    for rec, (k, loss, g, params) in zip(steps, replay(load_preset("big"), 3)):
        assert rec["step"] == k and rec["loss"] == pytest.approx(loss, rel=1e-5)
        _check_summary(np.array(rec["params"]["w"], np.float32), params["w"])
        _check_summary(np.array(rec["grads"]["w"], np.float32), g["w"])


def test_an_opened_big_run_round_trips(tmp_path):
    out = tmp_path / "big.jsonl"
    assert main(["run", "--preset", "big", "--steps", "4", "--out", str(out)]) == 0
    session, layouts, arrays, reason, _ = read_history(out)
    assert reason == "max_steps" and layouts[0].summaries == {"w": (1000, 1000), "b": (1000,)}
    h = History(*layouts)
    h.append(*arrays)
    buf = io.StringIO()
    write_history(
        buf,
        h,
        json.loads(out.read_text().splitlines()[0])["config"],
        {"x": np.ones(1000), "y": np.zeros(1000)},
        reason,
        session=session.to_dict(),
    )
    again = tmp_path / "again.jsonl"
    again.write_text(buf.getvalue())
    _, layouts2, arrays2, _, _ = read_history(again)
    assert [x.to_dict() for x in layouts2] == [x.to_dict() for x in layouts]
    for a, b in zip(arrays, arrays2):
        np.testing.assert_array_equal(a, b)


@pytest.mark.real_engine
def test_big_trains_in_the_app_and_the_plots_say_what_they_show(qtbot, win):
    combo = win.controls.presetCombo
    combo.setCurrentText("big")
    combo.activated.emit(combo.currentIndex())
    qtbot.waitUntil(
        lambda: win.controller.history is not None and bool(win.controller.history.param_layout.summaries),
        timeout=60_000,
    )
    wait_state(qtbot, win, "ready")
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.step_count >= 5, timeout=60_000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "paused")
    h = win.controller.history
    assert h.n == win.controller.step_count and list(h.steps) == list(range(1, h.n + 1))
    ref = list(replay(load_preset("big"), h.n))
    np.testing.assert_allclose(h.loss, [r[1] for r in ref], rtol=1e-5)
    _check_summary(h.param_layout.unflatten(h.params[-1])["w"], ref[-1][3]["w"])
    win.plots.refresh(force=True)
    full = win.paramPlot.toolTip().splitlines()  # the key names the tensors; the tooltip says what their lines are
    assert "w (summary: min, max, mean, quantiles; 64 of 1,000,000 elements)" in full, full
    assert "large tensors: summaries and sampled elements" in win.paramPlot.plotItem.titleLabel.text.replace(
        "&nbsp;", " "
    )
    assert win.plots.images == []  # no heat map of a summary
    # a smaller budget applies at once, to the history and the engine's kept states
    win.controls.budgetSpin.setValue(16)
    assert h.budget == 16 << 20 and win.controller.history_budget == 16 << 20


def test_the_update_to_value_ratio_of_a_summarised_tensor_is_of_its_whole_norms():
    from gradviz.model.divergence import ratios

    rng = np.random.RandomState(2)
    w, g = rng.randn(5000).astype(np.float32), rng.randn(5000).astype(np.float32) * 30
    pl = Layout(["w"], [(5000,)])
    plan = RecordingPlan(pl, pl, NONE)
    row = plan.reduce(np.concatenate([[1.0, 0.01], w, g]).astype(np.float32)[None])
    rp, rg, ra = plan.layouts
    h = History(rp, rg, ra)
    pc, gc, ac = row_slices(rp, rg)
    h.append([1], row[:, 0], row[:, pc], row[:, gc], row[:, ac], [1.0], row[:, 1])
    names, r = ratios(h)
    want = 0.01 * np.linalg.norm(g.astype(np.float64)) / np.linalg.norm(w.astype(np.float64))
    assert names == ["w"] and r[0, 0] == pytest.approx(want, rel=1e-5)


def test_a_thinned_history_saves_and_opens_with_the_steps_it_kept(tmp_path):
    src = tmp_path / "big.jsonl"
    assert main(["run", "--preset", "big", "--steps", "40", "--out", str(src)]) == 0
    session, layouts, arrays, reason, _ = read_history(src)
    h = History(*layouts)
    h.max_rows = 24  # below what any budget gives (MIN_ROWS), so that 40 steps thin once
    h.append(*arrays)
    assert h.stride == 2 and h.steps[-1] == 40 and h.n == 20
    config = json.loads(src.read_text().splitlines()[0])["config"]
    buf = io.StringIO()
    write_history(buf, h, config, {"x": np.ones(1000), "y": np.zeros(1000)}, reason, session=session.to_dict())
    out = tmp_path / "thinned.jsonl"
    out.write_text(buf.getvalue())
    _, _, arrays2, _, _ = read_history(out)
    np.testing.assert_array_equal(arrays2[0], h.steps)
    np.testing.assert_array_equal(arrays2[1], h.loss)
    # and a thinned file whose steps are not what it says is refused, naming the line
    lines = out.read_text().splitlines()
    lines[3] = lines[3].replace('"step": 6,', '"step": 7,')
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(Exception, match=r'line 4: "step" is 7: with "kept_every" 2'):
        read_history(out)
