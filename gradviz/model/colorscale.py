"""The colour scale of the heat maps: symmetric around 0, steady, and written on a colour bar. Qt-free.

A heat map scaled to its own largest value every frame is always fully red or blue, whatever the
numbers: a gradient of 0.005 looked like one of 5. Here a tensor's colours run from -S (blue)
through 0 (white) to +S (red), with

    S = the largest |value| the tensor had in the steps shown so far, each discounted by half for
        every HALF_LIFE steps since, rounded up to 1, 2 or 5 x 10^k.

So the scale holds still between round numbers (the same colour is the same number from one step
to the next), a value of S/2 is half coloured, and when the gradients shrink as training goes on
the scale follows them down, by half every HALF_LIFE steps, rather than leaving the map white for
the rest of the run. Every heat map has a colour bar with -S, 0 and +S written on it.

Steps more than WINDOW steps back (discounted below 1/1000) are not looked at, so the scale at a
step depends only on the steps shortly before it: the history slider shows each step with the scale
it had while training. Non-finite values are left out (they are drawn black)."""

from __future__ import annotations

import math

import numpy as np

HALF_LIFE = 100  # steps
WINDOW = 10 * HALF_LIFE  # steps looked back at: 2**-10 < 1/1000


def nice_ceil(x: float) -> float:
    """The smallest 1, 2 or 5 x 10^k that is at least x; 1.0 when x is not a positive number."""
    if not (x > 0 and math.isfinite(x)):
        return 1.0
    e = math.floor(math.log10(x))
    for k in (e - 1, e, e + 1):  # log10 rounds: look a decade either side
        for m in (1.0, 2.0, 5.0):
            c = m * 10.0**k
            if c >= x * (1 - 1e-12):
                return float(f"{c:.1g}")
    return float(f"{10.0 ** (e + 1):.1g}")


def max_abs(a) -> float:
    """The largest finite |value| of an array (NaN when it has none)."""
    a = np.abs(np.asarray(a, np.float64))
    finite = a[np.isfinite(a)]
    return float(finite.max()) if finite.size else float("nan")


def decayed_max(steps, maxabs, at: int) -> float:
    """max over j with at - WINDOW < steps[j] <= at of maxabs[j] * 2**(-(at - steps[j]) / HALF_LIFE),
    NaN entries left out; NaN when nothing is left."""
    s = np.asarray(steps, np.float64)
    m = np.asarray(maxabs, np.float64)
    keep = (s <= at) & (s > at - WINDOW) & np.isfinite(m)
    if not keep.any():
        return float("nan")
    return float(np.max(m[keep] * np.exp2(-(at - s[keep]) / HALF_LIFE)))


def scale(steps, maxabs, at: int) -> float:
    """S at step `at` from each step's largest |value| (see the module's doc)."""
    return nice_ceil(decayed_max(steps, maxabs, at))


def row_scale(steps: np.ndarray, table: np.ndarray, i: int) -> float:
    """S at row i of a table with one row per step (a tensor's columns of the history)."""
    s = np.asarray(steps)
    i0 = int(np.searchsorted(s[: i + 1], s[i] - WINDOW, side="right"))
    a = np.abs(np.asarray(table[i0 : i + 1], np.float64))
    m = np.where(np.isfinite(a), a, -np.inf).max(axis=1, initial=-np.inf)
    return scale(s[i0 : i + 1], np.where(np.isfinite(m), m, np.nan), int(s[i]))


def bar_labels(s: float) -> tuple[str, str]:
    """The ends of a colour bar: ('−0.05', '+0.05')."""
    return f"−{s:g}", f"+{s:g}"


def bar_span(s: float) -> str:
    """A colour bar's two ends said once, for a bar too short to write both: '±0.05'."""
    return f"±{s:g}"


class RunningScale:
    """The same rule for a stream of frames, such as the values the nodes show a few times a
    second: S of a frame is from the frames shown at or before its step. A frame at a step before
    the last (the history slider, a rewind) forgets the frames after it."""

    def __init__(self):
        self._frames: dict = {}  # key -> ([steps], [max |value|])

    def reset(self) -> None:
        self._frames.clear()

    def update(self, key, step: int, array) -> float:
        steps, maxes = self._frames.setdefault(key, ([], []))
        while steps and steps[-1] >= step:  # a frame for this step again, or we went back
            steps.pop(), maxes.pop()
        while steps and steps[0] <= step - WINDOW:
            steps.pop(0), maxes.pop(0)
        steps.append(step)
        maxes.append(max_abs(array))
        return scale(steps, maxes, step)
