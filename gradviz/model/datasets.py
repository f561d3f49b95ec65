"""Data sets a network learns from, defined so any framework can reproduce them: the sources
(scikit-learn's generators and bundled digits, XOR and spiral in numpy), the train/test split and
the order of the mini-batches in each epoch.

- Split: `numpy.random.RandomState(seed).permutation(n)`; the last `round(n * test_fraction)`
  indices are the test set, the others the training set, in that order.
- Epoch e (1-based) visits the training set in the order `RandomState(seed + e).permutation(n_train)`,
  in batches of `batch_size`; the last batch may be short.

Qt-free and MindSpore-free: the engine feeds these batches through mindspore.dataset.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..i18n import Msg

SOURCES = ("moons", "circles", "xor", "blobs", "spiral", "digits")
TWO_D = SOURCES[:5]  # the generated 2-D sets (size and noise apply); digits is a bundled set
MIN_SIZE, MAX_SIZE = 4, 100_000
MAX_NOISE = 10.0


@dataclass(frozen=True)
class DataSpec:
    """A Dataset node's attributes: where the data come from, and how they are split and batched."""

    source: str = "moons"
    size: int = 200  # samples drawn (2-D sets); the digits set has its own 1,797
    noise: float = 0.1  # the generator's noise (2-D sets)
    test_fraction: float = 0.2
    batch_size: int = 16
    seed: int = 0

    def problems(self) -> list[Msg]:
        """Why these data cannot be used, each naming its field; empty when they can."""
        out: list[Msg] = []
        if self.source not in SOURCES:
            return [
                Msg("Data", "source must be one of {sources}, not {value}").format(
                    sources=", ".join(SOURCES), value=repr(self.source)[:40]
                )
            ]
        if not isinstance(self.size, int) or not MIN_SIZE <= self.size <= MAX_SIZE:
            out.append(
                Msg("Data", "size must be a whole number from {low} to {high}").format(low=MIN_SIZE, high=MAX_SIZE)
            )
            return out
        if not 0 <= self.noise <= MAX_NOISE:
            out.append(Msg("Data", "noise must be a number from 0 to {high}").format(high=MAX_NOISE))
        if not 0 < self.test_fraction < 1:
            out.append(Msg("Data", "test_fraction must be above 0 and below 1"))
            return out
        n = self.samples()
        n_test = round(n * self.test_fraction)
        if n_test == 0:
            out.append(
                Msg("Data", "test_fraction {f:g} of {n} samples leaves no test example").format(
                    f=self.test_fraction, n=n
                )
            )
        elif n_test == n:
            out.append(
                Msg("Data", "test_fraction {f:g} of {n} samples leaves no training example").format(
                    f=self.test_fraction, n=n
                )
            )
        n_train = n - n_test
        if not isinstance(self.batch_size, int) or not 1 <= self.batch_size <= max(n_train, 1):
            out.append(
                Msg(
                    "Data", "batch_size must be a whole number from 1 to the training set's {n} samples, not {value}"
                ).format(n=n_train, value=repr(self.batch_size)[:20])
            )
        return out

    def samples(self) -> int:
        return DIGITS_SIZE if self.source == "digits" else self.size


DIGITS_SIZE = 1797  # scikit-learn's bundled 8x8 digits


def load(spec: DataSpec) -> tuple[np.ndarray, np.ndarray]:
    """(features float32 (n, d), labels int32 (n,)) of a valid spec, drawn from its seed."""
    n, noise, seed = spec.size, spec.noise, spec.seed
    if spec.source == "digits":
        from sklearn.datasets import load_digits

        d = load_digits()
        return (d.data / 16.0).astype(np.float32), d.target.astype(np.int32)
    if spec.source == "moons":
        from sklearn.datasets import make_moons

        x, y = make_moons(n_samples=n, noise=noise, random_state=seed)
    elif spec.source == "circles":
        from sklearn.datasets import make_circles

        x, y = make_circles(n_samples=n, noise=noise, factor=0.5, random_state=seed)
    elif spec.source == "blobs":
        from sklearn.datasets import make_blobs

        # two Gaussian blobs whose spread is the noise (at least a little, so they are blobs)
        x, y = make_blobs(n_samples=n, centers=2, cluster_std=max(noise, 0.05) * 10, random_state=seed)
    elif spec.source == "xor":
        rng = np.random.RandomState(seed)
        x = rng.uniform(-1, 1, (n, 2))
        y = (x[:, 0] * x[:, 1] > 0).astype(int)  # the quadrant's sign: 1 in the first and third
        x = x + rng.normal(0, noise, (n, 2))
    else:  # spiral: two arms, each turning once and a half around the origin
        rng = np.random.RandomState(seed)
        y = np.arange(n) % 2
        r = rng.uniform(0.05, 1.0, n)
        theta = 3 * np.pi * r + np.pi * y
        x = np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1) + rng.normal(0, noise, (n, 2))
    return np.asarray(x, np.float32), np.asarray(y, np.int32)


def split(n: int, test_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(training indices, test indices): RandomState(seed).permutation(n), the last
    round(n * test_fraction) of it the test set."""
    perm = np.random.RandomState(seed).permutation(n)
    n_test = round(n * test_fraction)
    return perm[: n - n_test], perm[n - n_test :]


def epoch_order(n_train: int, seed: int, epoch: int) -> np.ndarray:
    """The positions in the training set that epoch `epoch` (1-based) visits, in order."""
    return np.random.RandomState(seed + epoch).permutation(n_train)


def batches(n_train: int, batch_size: int, seed: int, epoch: int) -> list[np.ndarray]:
    """Epoch `epoch`'s mini-batches as positions in the training set; the last may be short."""
    order = epoch_order(n_train, seed, epoch)
    return [order[i : i + batch_size] for i in range(0, n_train, batch_size)]


def one_hot(labels: np.ndarray, classes: int) -> np.ndarray:
    """float32 (n, classes) targets for softmax cross-entropy from integer labels."""
    return np.eye(classes, dtype=np.float32)[np.asarray(labels)]
