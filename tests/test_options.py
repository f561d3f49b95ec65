"""The option table: the session's check, the command line, the live-option list and the
window's ranges are made from it, so a new option is one entry."""

import argparse
from dataclasses import fields

import pytest

from gradviz.i18n import Msg
from gradviz.model import options
from gradviz.model.options import OPTIONS, TABLE, Option
from gradviz.model.session import Options

WARMUP = Option(
    "warmup",
    int,
    "warmup",
    "--warmup",
    "steps of learning-rate warm-up",
    live=True,
    low=1,
    high=1000,
    bad=Msg("Session", "steps must be a whole number from 1 to {max}, not {value}"),
)


def test_every_option_of_a_session_is_in_the_table_and_the_live_ones_are_the_protocols():
    from gradviz.engine import protocol

    assert set(OPTIONS) == {f.name for f in fields(Options)}
    assert protocol.LIVE_OPTIONS == tuple(o.name for o in TABLE if o.live) == ("lr", "steps", "until_loss", "speed")


def test_a_new_option_needs_only_its_table_entry():
    """Its check and its flag come from the entry."""
    table = (*TABLE, WARMUP)
    values = {**Options().to_dict(), "warmup": 5}
    assert options.problems(values, table) == []
    assert options.problems({**values, "warmup": 5000}, table) == [
        "steps must be a whole number from 1 to 1000, not 5000"
    ]
    p = argparse.ArgumentParser()
    options.add_flags(p, lambda c: str, table)
    assert p.parse_args(["--warmup", "7", "--has-aux"]).warmup == 7


@pytest.mark.parametrize(
    "name,value,said",
    [
        ("lr", 0.0, "learning rate must be a number from 1e-06 to 1000, not 0.0"),
        ("speed", 0.05, "speed must be 0 (as fast as possible) or 0.1 to 10000 steps per second, not 0.05"),
        ("until_loss", float("nan"), "stop-at-loss must be a number from 1e-08 to 1000000, not nan"),
        ("api", "jit", 'unknown API "jit"; use one of grad, value_and_grad, cell'),
        ("has_aux", 1, "has_aux must be true or false"),
        ("seed", True, "seed must be a whole number from 0 to 2147483647, not True"),
    ],
)
def test_bad_values_are_told_by_the_table(name, value, said):
    assert Options(**{name: value}).problems() == [said]
    assert Options(speed=0.0, until_loss=None).problems() == []


def test_the_window_takes_its_ranges_from_the_table(qtbot):
    from gradviz.model.presets import load_preset
    from gradviz.ui.controls import ControlPanel
    from gradviz.ui.document import SessionDocument

    panel = ControlPanel(SessionDocument(load_preset("tutorial")))
    qtbot.addWidget(panel)
    assert (panel.lrSpin.minimum(), panel.lrSpin.maximum()) == (OPTIONS["lr"].low, OPTIONS["lr"].high)
    assert (panel.maxStepsSpin.minimum(), panel.maxStepsSpin.maximum()) == (1, OPTIONS["steps"].high)
    assert panel.untilLossSpin.maximum() == OPTIONS["until_loss"].high
