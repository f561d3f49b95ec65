"""One step named everywhere, while training too: the caption over the graph,
the status bar, the heat maps' caption and the History label name the same step at every moment of
a run, in model.steps' words, and the nodes really show that step (its loss, float64 numpy's).

Live nodes arrive throttled, after some step's update; model.shown holds them until the history
has the step they are the state of, so nothing names an earlier step than another part."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import wait_state
from gradviz.model import datasets
from gradviz.model.presets import load_preset
from screenshot_texts import texts
from reference import replay
from test_presentation import _settle, open_on  # noqa: F401 (a fixture)

HERE = Path(__file__).parent
STEPS = 400
SPEED = 200  # steps a second: faster than the engine sends nodes after every step (NODES_EVERY_STEP_SPEED)


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def _named(t: dict) -> dict:
    """Every step number the texts name, by what they say it is."""
    cap = re.fullmatch(r"Nodes: step ([\d,]+) \(parameters after ([\d,]+) updates?\), live", t["caption"])
    status = re.fullmatch(r"step ([\d,]+) \(parameters after ([\d,]+) updates?\)", t["status"])
    heat = re.fullmatch(r"step ([\d,]+)<br>\(parameters after ([\d,]+) updates?\)", t["heat"])
    loss = re.fullmatch(r"loss at step ([\d,]+): (\S+)", t["loss"])
    history = re.fullmatch(r"step ([\d,]+) of ([\d,]+)", t["history"])
    assert cap and status and heat and loss and history, t
    return {
        "caption": [_num(g) for g in cap.groups()],
        "status": [_num(g) for g in status.groups()],
        "heat": [_num(g) for g in heat.groups()],
        "loss": _num(loss.group(1)),
        "history": _num(history.group(1)),
        "of": _num(history.group(2)),  # the History label's "of N": the history's last step
    }


def test_every_part_names_the_step_the_nodes_show_while_training(qtbot, open_on):  # noqa: F811
    s = load_preset("tutorial")
    w = open_on("1280x720", s, ready=True)
    w.controls.maxStepsSpin.setValue(STEPS)
    w.controls.speedSpin.setValue(SPEED)
    w.plots.raise_()
    ref = list(replay(s, STEPS))  # (step, loss, gradients, parameters before its update), float64
    c = w.controller
    w.controls.startButton.click()
    samples = []
    for target in range(40, STEPS - 40, 45):
        qtbot.waitUntil(lambda t=target: c.step_count >= t, timeout=30_000)
        if c.state != "training":
            break
        t, n = texts(w), c.step_count
        named = _named(t)
        k = named["caption"][0]
        # one step everywhere: the state the nodes show, said in the same words
        assert named["caption"] == named["status"] == named["heat"] == [k, k - 1], t
        assert named["loss"] == named["history"] == k, t
        assert named["of"] == n and 1 <= k <= n, (t, n)  # "of N" says what it is: the plots' last step
        # ... and the nodes show that step: its loss, as float64 numpy computes it at step k
        assert w.scene.items_by_name["loss"].value == pytest.approx(ref[k - 1][1], rel=1e-5)
        assert w.graphView.property("shownStep") == k - 1
        h = c.history
        assert float(t["loss"].rsplit(" ", 1)[1]) == pytest.approx(float(h.loss[h.index(k)]), rel=1e-3)
        samples.append((k, n))
    assert len(samples) >= 5, samples
    assert any(k < n for k, n in samples)  # the nodes were throttled: the plots ran ahead of them
    wait_state(qtbot, w, "finished")
    qtbot.waitUntil(lambda: w.timeTravel.past is not None, timeout=10_000)
    _settle(qtbot, w)
    # finished: the plots' last step, in the same words everywhere
    assert w.graphView.caption.startswith(
        f"Nodes: step {STEPS} (parameters after {STEPS - 1} updates), the plots' last step"
    )
    assert w.stepLabel.text() == f"step {STEPS} (parameters after {STEPS - 1} updates)"
    assert w.plots.heat_caption.text == f"step {STEPS}<br>(parameters after {STEPS - 1} updates)"
    assert w.timeTravel.bar.stepShown.text() == f"step {STEPS} of {STEPS}"


ENDED = {  # preset: (learning rate, the state it ends in, the caption over the graph then)
    # 60 steps: the plots' last step, its numbers asked for (time travel)
    "tutorial": (None, "finished", "Nodes: step 60 (parameters after 59 updates), the plots' last step"),
    # the history holds a large tensor's summary only: the live nodes say what they are
    "digits": (None, "finished", "Nodes: live, after step 60's update (the plots' last step)"),
    # diverged at step n, with a summary only of w: no past step's numbers to ask for, the live
    # nodes are step n's (its update was not kept), and the picture waits for no past step's numbers
    "big": (50.0, "stopped: not finite", "Nodes: step {n} (parameters after {u} updates), the plots' last step"),
}


@pytest.mark.parametrize("preset", sorted(ENDED))
def test_a_screenshot_shows_the_state_the_window_reaches_when_the_run_ends(qtbot, open_on, tmp_path, preset):  # noqa: F811
    """`gradviz screenshot --steps 60` waits for what the window shows once the run ended (not
    the live nodes of the moment it ended), and says it in the window's words."""
    lr, state, caption = ENDED[preset]
    s = load_preset(preset)
    s.options.steps, s.options.until_loss = 60, None  # as the command sets them for --steps 60
    if lr is not None:
        s.options.lr = lr
    path = tmp_path / "session.json"
    path.write_text(s.to_json())
    out = tmp_path / "shot.png"
    r = subprocess.run(
        [sys.executable, str(HERE / "screenshot_texts.py"), str(path), "60", str(out)],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(HERE.parent), "QT_QPA_PLATFORM": "offscreen"},
    )
    shot = json.loads(r.stdout.strip().splitlines()[-1]) if r.stdout.strip() else None
    assert r.returncode == 0 and out.stat().st_size > 0, (shot, r.stderr[-2000:])
    n = _num(re.match(r"step ([\d,]+)", shot["status"]).group(1))  # the last step computed
    assert (n == 60) == (lr is None) and shot["state"] == state, shot
    assert shot["caption"] == caption.format(n=n, u=n - 1), shot
    assert shot["status"] == f"step {n} (parameters after {n - 1} updates)" and shot["loss"].startswith(
        f"loss at step {n}: "
    )
    assert shot["heat"] == f"step {n}<br>(parameters after {n - 1} updates)" and shot["history"] == f"step {n} of {n}"
    # the real window, trained the same, comes to the same state and says the same; its data
    # set read here first (scikit-learn's first import on the stand-in's thread, while the GUI
    # thread runs Qt's event loop, could hang that import)
    spec = s.graph.data_spec()
    if spec is not None:
        datasets.prepare(spec)
    w = open_on("1280x720", s.copy(), ready=True)
    w.controls.startButton.click()
    wait_state(qtbot, w, "finished", "diverged")
    c, tt = w.controller, w.timeTravel
    u = 60 if lr is None else n - 1  # the updates the run kept
    qtbot.waitUntil(lambda: c.nodes is not None and c.nodes.updates == u)
    qtbot.waitUntil(lambda: tt.shown is None or tt.past is not None)
    w.plots.refresh(force=True)
    assert texts(w) == shot


def test_the_heat_maps_follow_the_named_step_between_history_changes(qtbot):
    """Live nodes of a step the history already has arrive between two of its changes: the heat
    maps move to that step on the next tick (they stayed at the step named when the history last
    changed, a block of steps behind the caption), and show that step's row."""
    import numpy as np

    from gradviz.model.history import History
    from gradviz.model.layout import Layout
    from gradviz.ui.plots import PlotPanel

    pl = Layout(["w"], [(2, 3)])
    h = History(pl, pl, Layout([], []))
    rng = np.random.default_rng(0)
    params, grads = rng.standard_normal((10, 6)), rng.standard_normal((10, 6))
    h.append(np.arange(1, 11), rng.random(10), params, grads, np.zeros((10, 0)), np.ones(10))
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 300)
    panel.set_history(h)
    named = {"step": 4}
    panel.named_step = lambda: named["step"]
    panel.refresh()
    assert panel.heat_step == 4
    named["step"] = 9  # the nodes of step 9 came; the history is as it was
    version = h.version
    panel.refresh()
    assert h.version == version and panel.heat_step == 9
    img = panel.images[0][0]
    assert np.allclose(img.image, params[8].reshape(2, 3))  # step 9's row: the values before its update
