"""The one table of training options: each one's type, range, whether it changes mid-run, its
command-line flag and what a bad value is told.

The session's check (Options.problems), the command line (`gradviz run` and the commands that
train what it would), the window's ranges and the list of live options (protocol.SetOption) are
made from this table. Qt-free."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..i18n import Msg
from . import optimizers

APIS = ("grad", "value_and_grad", "cell")
MODES = ("pynative", "graph")
DEVICES = ("CPU", "GPU", "Ascend")


@dataclass(frozen=True)
class Option:
    name: str  # the Options field, the session file's key
    type: type  # bool, int, float or str
    label: str  # what the messages call it
    flag: str | None = None  # the command line's flag (None: not on the command line)
    help: str = ""  # the flag's help
    live: bool = False  # changes mid-run (protocol.SetOption); otherwise it needs a new run
    low: float | None = None  # the range of a number, both ends included
    high: float | None = None
    choices: Any = None  # a str option's values: a tuple, or a callable giving one (the optimizer table's names)
    off: bool = False  # None is allowed ("off")
    zero: bool = False  # 0 is allowed below the range (speed: as fast as possible)
    bad: Msg | None = None  # a number's message for a bad value: formatted with min, max, value

    def allowed(self) -> tuple:
        return tuple(self.choices() if callable(self.choices) else self.choices)

    def problem(self, value: Any) -> Msg | None:
        """Why `value` cannot be this option, or None."""
        if self.off and value is None:
            return None
        if self.type is bool:
            ok = isinstance(value, bool)
            return None if ok else Msg("Session", "{option} must be true or false").format(option=self.name)
        if self.type is str:
            known = self.allowed()
            if value in known:
                return None
            return Msg("Session", 'unknown {option} "{value}"; use one of {known}').format(
                option=self.label, value=value, known=", ".join(known)
            )
        number = _int(value) if self.type is int else _finite(value)
        ok = number and (self.zero and value == 0 or self.low <= value <= self.high)
        return None if ok else self.bad.format(min=self.low, max=self.high, value=_short_repr(value))


def _finite(v: Any) -> bool:
    try:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    except OverflowError:  # an integer too large for a float
        return False


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _short_repr(v: Any) -> str:
    from .formatting import shorten

    return shorten(repr(v), 40)


# in the order a session's problems are told
TABLE: tuple[Option, ...] = (
    Option(
        "api",
        str,
        "API",
        "--api",
        "grad, value_and_grad or cell",
        choices=APIS,
    ),
    Option(
        "optimizer",
        str,
        "optimizer",
        "--optimizer",
        "one of the optimizer table's names",
        choices=lambda: tuple(optimizers.OPTIMIZERS),
    ),
    Option(
        "mode",
        str,
        "mode",
        "--mode",
        "pynative or graph",
        choices=MODES,
    ),
    Option(
        "device",
        str,
        "device",
        "--device",
        "CPU, GPU or Ascend",
        choices=DEVICES,
    ),
    Option(
        "lr",
        float,
        "learning rate",
        "--lr",
        "learning rate",
        live=True,
        low=1e-6,
        high=1e3,
        bad=Msg("Session", "learning rate must be a number from {min:g} to 1000, not {value}"),
    ),
    Option(
        "seed",
        int,
        "seed",
        "--seed",
        "seed of the initial values",
        low=0,
        high=2**31 - 1,
        bad=Msg("Session", "seed must be a whole number from 0 to {max}, not {value}"),
    ),
    Option(
        "steps",
        int,
        "max steps",
        "--steps",
        "maximum number of steps",
        live=True,
        low=1,
        high=100_000_000,
        bad=Msg("Session", "steps must be a whole number from 1 to {max}, not {value}"),
    ),
    Option(
        "until_loss",
        float,
        "stop at loss",
        "--until-loss",
        "stop once the loss is below this",
        live=True,
        low=1e-8,
        high=1e6,
        off=True,
        bad=Msg("Session", "stop-at-loss must be a number from {min:g} to 1000000, not {value}"),
    ),
    Option(
        "speed",
        float,
        "speed",
        live=True,
        low=0.1,
        high=10_000.0,
        zero=True,
        bad=Msg("Session", "speed must be 0 (as fast as possible) or {min:g} to {max:g} steps per second, not {value}"),
    ),
    Option(
        "aux_output",
        bool,
        "Return z too",
        "--aux-output",
        "return the auxiliary outputs (z) too",
    ),
    Option(
        "stop_gradient",
        bool,
        "ops.stop_gradient(z)",
        "--stop-gradient",
        "wrap auxiliary outputs in ops.stop_gradient",
    ),
    Option(
        "has_aux",
        bool,
        "has_aux=True",
        "--has-aux",
        "differentiate with has_aux=True",
    ),
)
OPTIONS: dict[str, Option] = {o.name: o for o in TABLE}
LIVE = tuple(o.name for o in TABLE if o.live)  # the options SetOption changes mid-run


def problems(values: dict, table=TABLE) -> list[Msg]:
    """Every invalid option of these values (name: value), in table order."""
    return [m for o in table if (m := o.problem(values.get(o.name))) is not None]


def add_flags(parser, ci, table=TABLE) -> None:
    """The command line's flags of the options that have one; `ci` makes a case-insensitive
    choice type."""
    for o in table:
        if o.flag is None:
            continue
        if o.type is bool:
            parser.add_argument(o.flag, dest=o.name, action="store_true", help=o.help)
        elif o.type is str:
            parser.add_argument(o.flag, dest=o.name, type=ci(o.allowed()), help=o.help)
        else:
            parser.add_argument(o.flag, dest=o.name, type=o.type, help=o.help)
