"""How bench.py judges a figure: the median of repeated measurements with a bootstrap 95% interval,
and a verdict against its budget that says "too noisy to judge" when the interval is too wide.

On a shared two-core machine the same loop in two identical processes scatters widely from one
short repetition to the next, so a single ratio proves nothing; the median of many alternating
pairs, with an interval, does, and a wide interval is reported as such instead of as a pass or a
failure."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

CONFIDENCE = 0.95
RESAMPLES = 10_000
NOISE = 0.10  # a ratio whose interval reaches further than this from its median is not judged

MET, NOT_MET, NOISY, REPORTED, MISSING = "met", "NOT MET", "too noisy to judge", "reported", "not measured"


def median_interval(values, confidence: float = CONFIDENCE, resamples: int = RESAMPLES, seed: int = 0):
    """(median, low, high): the sample median and its percentile-bootstrap interval."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        raise ValueError("no measurements")
    med = float(np.median(v))
    if v.size == 1:
        return med, med, med
    rng = np.random.default_rng(seed)
    meds = np.median(v[rng.integers(0, v.size, size=(resamples, v.size))], axis=1)
    tail = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(meds, [tail, 1.0 - tail])
    return med, float(lo), float(hi)


@dataclass
class Figure:
    """One judged figure: its median and interval, the budget and the verdict."""

    median: float
    low: float
    high: float
    n: int
    budget: float | None = None
    at_least: bool = True  # the budget is a floor (ratios, rates) or a ceiling (times, memory)
    noise: float | None = NOISE  # None: judged on the median alone (absolute times and sizes)
    verdict: str = REPORTED

    @property
    def judged(self) -> bool:
        return self.verdict in (MET, NOT_MET)

    def to_dict(self) -> dict:
        return asdict(self)


def judge(values, budget: float | None = None, at_least: bool = True, noise: float | None = NOISE) -> Figure:
    """The figure of `values` against `budget`: met when the median meets it, unless the interval
    is wider than `noise` on either side of the median (then too noisy to judge)."""
    med, lo, hi = median_interval(values)
    f = Figure(med, lo, hi, len(values), budget, at_least, noise)
    if budget is None:
        f.verdict = REPORTED
    elif noise is not None and max(med - lo, hi - med) > noise:
        f.verdict = NOISY
    else:
        f.verdict = MET if (med >= budget if at_least else med <= budget) else NOT_MET
    return f


def fmt(f: Figure, digits: int = 3) -> str:
    """'0.953 [0.921, 0.987] n=20'."""
    return f"{f.median:,.{digits}f} [{f.low:,.{digits}f}, {f.high:,.{digits}f}] n={f.n}"
