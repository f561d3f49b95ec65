"""The engine stand-in (tests/standin.py) answers as the engine does: the same rows, node values,
gradients and shares, step for step, so that window tests against it test the window."""

import numpy as np
import pytest
import standin
from standin import NumpyEngine

from gradviz.engine.engine import Engine
from gradviz.model.presets import load_preset


@pytest.mark.parametrize(
    ("preset", "options"),
    [("tutorial", {}), ("tutorial", {"aux_output": True}), ("tutorial", {"optimizer": "adam"}), ("mlp", {})],
)
def test_the_stand_in_trains_as_the_engine(preset, options):
    s = load_preset(preset)
    for k, v in options.items():
        setattr(s.options, k, v)
    real, stand = Engine(s), NumpyEngine(s)
    try:
        assert [lay.to_dict() for lay in stand.plan.layouts] == [lay.to_dict() for lay in real.plan.layouts]
        for _ in range(4):
            a, b = real.step(), stand.step()
            assert a.step == b.step
            np.testing.assert_allclose(b.row, a.row, rtol=1e-4, atol=1e-6)
        first, rows, _ = real.steps_block(limit=1)
        first_b, rows_b, _ = stand.steps_block(limit=1)
        assert first == first_b
        np.testing.assert_allclose(rows_b, rows, rtol=1e-4, atol=1e-6)
        x, y = real.node_snapshot(), stand.node_snapshot()
        assert x.step == y.step and x.values.keys() == y.values.keys() and x.parts.keys() == y.parts.keys()
        for n in x.values:
            np.testing.assert_allclose(y.values[n], x.values[n], rtol=1e-4, atol=1e-6)
            np.testing.assert_allclose(y.grads[n], x.grads[n], rtol=1e-4, atol=1e-6)
            for o in x.parts:
                np.testing.assert_allclose(y.parts[o][n], x.parts[o][n], rtol=1e-4, atol=1e-6)
        real.rewind(2)
        stand.rewind(2)
        np.testing.assert_allclose(stand.step().row, real.step().row, rtol=1e-4, atol=1e-6)
    finally:
        real.close()


def test_the_stand_in_runs_no_lesson_task():
    """Lesson tasks run MindSpore: the stand-in (a thread of the test process) refuses every one,
    so MindSpore never runs on a second thread beside an in-process command-line run."""
    from gradviz.engine import protocol as msg

    for task in msg.TASKS:
        assert standin._StandInServer.HANDLERS[task.command] is standin._StandInServer.on_lesson, task.command
