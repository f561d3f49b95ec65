"""How benchmarks/bench.py judges a figure: median, bootstrap interval, and the verdict."""

import importlib.util
import statistics
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("bench_stats", Path(__file__).parents[1] / "benchmarks" / "stats.py")
stats = importlib.util.module_from_spec(_spec)
sys.modules["bench_stats"] = stats  # its dataclass looks its module up
_spec.loader.exec_module(stats)


def test_the_interval_holds_the_median_and_is_the_bootstraps_percentiles():
    values = [0.91, 0.95, 0.97, 0.93, 1.02, 0.96, 0.94, 0.99, 0.92, 0.98, 0.95, 0.97]
    med, lo, hi = stats.median_interval(values, resamples=2000, seed=1)
    assert med == statistics.median(values)
    assert min(values) <= lo <= med <= hi <= max(values)
    # the same resampling written out independently gives the same interval
    import numpy as np

    rng = np.random.default_rng(1)
    idx = rng.integers(0, len(values), size=(2000, len(values)))
    meds = sorted(statistics.median([values[i] for i in row]) for row in idx)
    assert lo == pytest.approx(float(np.quantile(meds, 0.025)))
    assert hi == pytest.approx(float(np.quantile(meds, 0.975)))


def test_a_narrow_ratio_is_judged_on_its_median():
    steady = [0.96, 0.97, 0.95, 0.96, 0.98, 0.96, 0.97, 0.95, 0.96, 0.97] * 2
    assert stats.judge(steady, 0.95).verdict == stats.MET
    assert stats.judge(steady, 0.99).verdict == stats.NOT_MET
    assert stats.judge(steady, None).verdict == stats.REPORTED


def test_a_ratio_that_scatters_is_too_noisy_to_judge_rather_than_passed_or_failed():
    scattered = [
        0.53,
        1.68,
        0.7,
        1.4,
        0.6,
        1.2,
        0.9,
        1.5,
        0.55,
        1.1,
        0.8,
        1.6,
        0.65,
        1.3,
        0.75,
        1.45,
        0.6,
        1.25,
        0.7,
        1.35,
    ]
    f = stats.judge(scattered, 0.90)
    assert max(f.median - f.low, f.high - f.median) > stats.NOISE
    assert f.verdict == stats.NOISY and not f.judged


def test_times_and_sizes_are_ceilings_judged_without_the_noise_rule():
    f = stats.judge([18.0, 40.0, 20.0, 22.0, 19.0], 25, at_least=False, noise=None)
    assert f.median == 20.0 and f.verdict == stats.MET
    assert stats.judge([30.0, 31.0, 29.0], 25, at_least=False, noise=None).verdict == stats.NOT_MET


def test_no_measurements_is_an_error_and_one_is_its_own_interval():
    with pytest.raises(ValueError):
        stats.median_interval([])
    assert stats.median_interval([1.5]) == (1.5, 1.5, 1.5)
