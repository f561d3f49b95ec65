"""One step named everywhere, while training too (issue 24, item 8): the caption over the graph,
the status bar, the heat maps' caption and the History label name the same step at every moment of
a run, in model.steps' words, and the nodes really show that step (its loss, float64 numpy's).

Live nodes arrive throttled, after some step's update; model.shown holds them until the history
has the step they are the state of, so nothing names an earlier step than another part."""

import re

import pytest

from conftest import wait_state
from gradviz.model.presets import load_preset
from reference import replay
from test_presentation import _settle, open_on  # noqa: F401 (a fixture)

STEPS = 400
SPEED = 300  # steps a second: faster than the engine sends nodes after every step (NODES_EVERY_STEP_SPEED)


def _texts(w) -> dict:
    return {
        "caption": w.graphView.caption.split("\n")[0],
        "status": w.stepLabel.text(),
        "loss": w.lossLabel.text(),
        "heat": w.plots.heat_caption.text,
        "history": w.timeTravel.bar.stepShown.text(),
    }


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
        t, n = _texts(w), c.step_count
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
