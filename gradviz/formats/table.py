"""The history as a CSV table for spreadsheets and slides: one row per step, one column per
number, so a vector or a matrix is spread over as many columns as it has elements.

Columns, named in the header: `step`, `loss`, `lr` (the learning rate in force at that step;
empty where it was not recorded), every parameter element (`w[0,0]`, `w[0,1]`, ..., `b[0]`;
before that step's update, as in the JSON Lines), every gradient element (`grad_w[0,0]`, ...),
every auxiliary output element (`z[0,0]`, ...) and `step_ms`. Names with a comma are quoted, as
CSV requires. Numbers are the float32 values of the history in their shortest exact form
(they read back to the same float32); a value that is not finite is `nan`, `inf` or `-inf`.

Formatting is done a block of rows at a time by numpy, so a million-step run is written in
seconds rather than minutes; progress and cancel as for the JSON Lines. Qt-free."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import IO

import numpy as np

from ..safe_io import Cancelled

GRAD_PREFIX = "grad_"
BLOCK_ROWS = 4096


def header(history) -> list[str]:
    """The name of every column, in order."""
    h = history
    return (
        ["step", "loss", "lr"]
        + h.param_layout.labels()
        + [GRAD_PREFIX + label for label in h.grad_layout.labels()]
        + h.aux_layout.labels()
        + ["step_ms"]
    )


def _text(a: np.ndarray) -> np.ndarray:
    """float32 values as their shortest exact decimal text ('0.1', '1e-08', 'nan', 'inf')."""
    return np.asarray(a, np.float32).astype(str)


def write_csv(
    fp: IO[str],
    history,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> int:
    """Write the history as CSV to a text stream; returns the number of rows (steps)."""
    h = history
    head = io.StringIO()
    csv.writer(head, lineterminator="\n").writerow(header(h))
    fp.write(head.getvalue())
    n = h.n
    for start in range(0, n, BLOCK_ROWS):
        if cancelled is not None and cancelled():
            raise Cancelled()
        s = slice(start, min(start + BLOCK_ROWS, n))
        lr = _text(h.lr[s])
        lr[~np.isfinite(h.lr[s])] = ""  # not recorded (a file written before the lr was)
        cols = np.column_stack(
            [
                h.steps[s].astype(str),
                _text(h.loss[s]),
                lr,
                _text(h.params[s]),
                _text(h.grads[s]),
                _text(h.aux[s]),
                _text(h.step_ms[s]),
            ]
        )
        fp.write("".join(",".join(row) + "\n" for row in cols.tolist()))
        if progress is not None:
            progress(s.stop / max(n, 1))
    return n
