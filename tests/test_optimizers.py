"""The optimizer table: a new optimizer is one entry, and everything that names optimizers (the
session's check, the command line, the Optimizer box, the engine, both exported scripts) takes it
from there."""

import numpy as np
import pytest

from gradviz.i18n import Msg
from gradviz.model import optimizers
from gradviz.model.optimizers import OPTIMIZERS, Optimizer
from gradviz.model.presets import load_preset

SLOW_MOMENTUM = Optimizer(
    "slow_momentum", Msg("Optimizers", "Momentum ({momentum})"), "Momentum", "SGD", (("momentum", 0.5),)
)


@pytest.fixture
def slow_momentum(monkeypatch):
    """A made-up optimizer, added to the table only: momentum 0.5."""
    monkeypatch.setitem(OPTIMIZERS, SLOW_MOMENTUM.name, SLOW_MOMENTUM)
    return SLOW_MOMENTUM


def test_the_settings_are_written_once_for_both_frameworks():
    m = OPTIMIZERS["momentum"]
    assert m.code("mindspore", "[w, b]", 0.01) == "nn.Momentum([w, b], learning_rate=0.01, momentum=0.9)"
    assert m.code("pytorch", "[w, b]", 0.01) == "torch.optim.SGD([w, b], lr=0.01, momentum=0.9)  # nn.Momentum's update"
    assert m.text == "Momentum (0.9)" and OPTIMIZERS["sgd"].code("pytorch", "p", 0.5) == "torch.optim.SGD(p, lr=0.5)"


def test_a_new_optimizer_needs_only_its_table_entry(slow_momentum, qtbot):
    from gradviz.cli import _build_parser
    from gradviz.model.scripts import script
    from gradviz.ui.controls import ControlPanel
    from gradviz.ui.document import SessionDocument

    s = load_preset("tutorial")
    s.options.optimizer = "slow_momentum"
    assert s.problems() == []
    assert "nn.Momentum([w, b], learning_rate=0.01, momentum=0.5)" in script(s, "mindspore")
    assert "torch.optim.SGD([w, b], lr=0.01, momentum=0.5)" in script(s, "pytorch")
    a = _build_parser().parse_args(["run", "--optimizer", "SLOW_MOMENTUM"])
    assert a.optimizer == "slow_momentum"
    panel = ControlPanel(SessionDocument(s))
    qtbot.addWidget(panel)
    c = panel.optimizerCombo
    i = c.findData("slow_momentum")
    assert i >= 0 and c.itemText(i) == "Momentum (0.5)"


def test_the_engine_trains_a_new_optimizer_as_numpy_does(slow_momentum):
    """Momentum 0.5 as mindspore.nn.Momentum defines it (v = 0.5 v + g; p -= lr v), in float64."""
    from gradviz.engine.engine import Engine
    from gradviz.model.graph import Graph, Node
    from gradviz.model.session import Options, Session

    nodes = [
        Node("w", "Parameter", shape=(2,), init="values", values=[1.0, -2.0]),
        Node("sq", "Square", {"x": "w"}),
        Node("loss", "Sum", {"x": "sq"}),
        Node("L", "Output", {"x": "loss"}),
    ]
    e = Engine(Session(Graph(nodes), Options(optimizer="slow_momentum", lr=0.1, steps=5)))
    w, v = np.array([1.0, -2.0]), np.zeros(2)
    for _ in range(4):
        r = e.step()
        np.testing.assert_allclose(r.params, w, rtol=1e-6)
        v = 0.5 * v + 2 * w  # d sum(w^2) / dw = 2 w
        w = w - 0.1 * v
    e.close()


def test_every_table_entry_is_whole():
    for o in optimizers.TABLE:
        assert OPTIMIZERS[o.name] is o and o.mindspore and o.pytorch and o.text
