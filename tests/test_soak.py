"""Soak: 100,000 steps through the app's engine process and controller, headless.

Not in the default suite; run it with `.venv/bin/python -m pytest -m soak` (a few minutes)."""

import numpy as np
import pytest

from gradviz.model.presets import load_preset
from gradviz.ui.controller import TrainingController

STEPS = 100_000


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


@pytest.mark.soak
def test_100k_steps_bounded_memory_no_step_lost(qtbot):
    import os

    c = TrainingController()
    s = load_preset("tutorial")
    s.options.mode = "graph"
    s.options.aux_output = True
    s.options.steps = STEPS
    c.load(s)
    qtbot.waitUntil(lambda: c.state == "ready", timeout=60_000)
    engine_pid = c._client.process.pid
    gui0, eng0 = _rss_mb(os.getpid()), _rss_mb(engine_pid)
    samples = []
    c.start()
    while c.state not in ("finished", "diverged", "error", "engine_lost"):
        target = (len(samples) + 1) * 10_000
        qtbot.waitUntil(
            lambda target=target: c.state in ("finished", "diverged", "error", "engine_lost") or c.step_count >= target,
            timeout=300_000,
        )
        samples.append((_rss_mb(os.getpid()), _rss_mb(engine_pid)))
    assert c.state == "finished" and c.end_reason == "max_steps", c.last_error
    h = c.history
    assert h.n == STEPS and np.array_equal(h.steps, np.arange(1, STEPS + 1))  # no step lost
    assert np.all(np.isfinite(h.loss)) and h.loss[-1] < h.loss[0]
    gui1, eng1 = max(g for g, _ in samples), max(e for _, e in samples)
    assert gui1 - gui0 < 150, f"GUI process grew {gui1 - gui0:.0f} MB"
    assert eng1 - eng0 < 100, f"engine process grew {eng1 - eng0:.0f} MB"
    late = [e for _, e in samples[len(samples) // 2 :]]
    assert max(late) - min(late) < 30, f"engine memory still growing late in the run: {late}"
    c.shutdown()
