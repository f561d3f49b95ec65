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

import functools
from dataclasses import dataclass

import numpy as np

from ..i18n import Msg
from .ops import DATA_SOURCES

SOURCES = DATA_SOURCES  # the op table's Dataset node names them
TWO_D = SOURCES[:5]  # the generated 2-D sets (size and noise apply); digits is a bundled set
MIN_SIZE, MAX_SIZE = 4, 100_000
MAX_NOISE = 10.0
IMAGE_SHAPES = {"digits": (8, 8)}  # the sources whose samples are images: (rows, columns) of pixels


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

    def features(self) -> int:
        """Numbers per sample: 64 pixels for the digits, two coordinates for the 2-D sets."""
        return 64 if self.source == "digits" else 2

    def image_shape(self) -> tuple[int, int] | None:
        """(rows, columns) of pixels where each sample is an image; None for points."""
        return IMAGE_SHAPES.get(self.source)

    def classes(self) -> int:
        return 10 if self.source == "digits" else 2

    def split_sizes(self) -> tuple[int, int]:
        """(training samples, test samples)."""
        n = self.samples()
        n_test = round(n * self.test_fraction)
        return n - n_test, n_test

    def steps_per_epoch(self) -> int:
        """Mini-batches (steps) in one epoch: the last may be short."""
        return -(-self.split_sizes()[0] // self.batch_size)

    def describe(self) -> dict:
        """The data set as a run record describes it (its contents are not copied: they are
        regenerated from these)."""
        n_train, n_test = self.split_sizes()
        d = {"source": self.source}
        if self.source in TWO_D:
            d.update(size=self.size, noise=self.noise)
        d.update(
            test_fraction=self.test_fraction,
            batch_size=self.batch_size,
            seed=self.seed,
            train_samples=n_train,
            test_samples=n_test,
            steps_per_epoch=self.steps_per_epoch(),
        )
        return d

    @classmethod
    def from_attrs(cls, attrs: dict) -> DataSpec:
        """The spec of a Dataset node's attribute values (the op table's Attr values)."""
        a = dict(attrs)
        for k in ("size", "batch_size", "seed"):
            if isinstance(a.get(k), float) and a[k].is_integer():
                a[k] = int(a[k])
        return cls(**{k: a[k] for k in ("source", "size", "noise", "test_fraction", "batch_size", "seed") if k in a})


DIGITS_SIZE = 1797  # scikit-learn's bundled 8x8 digits


def load(spec: DataSpec) -> tuple[np.ndarray, np.ndarray]:
    """(features float32 (n, d), labels int32 (n,)) of a valid spec, drawn from its seed."""
    x, y = _load(
        spec.source,
        spec.size if spec.source in TWO_D else 0,
        spec.noise if spec.source in TWO_D else 0,
        spec.seed if spec.source in TWO_D else 0,
    )
    return x.copy(), y.copy()


@functools.lru_cache(maxsize=4)
def _load(source: str, n: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The samples of a source (cached: the graph's checks, the engine and the exports ask often)."""
    spec = DataSpec(source=source, size=n, noise=noise, seed=seed)
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


# An Input node's init that takes its values from the Dataset node: what each batch holds there
DATA_INITS = ("features", "onehot", "labels")


def data_shape(spec: DataSpec, init: str, rows: int) -> tuple[int, ...]:
    """The shape of a `rows`-sample batch of an Input with this init: the features (rows, d),
    the one-hot targets (rows, classes), or the labels as one float column (rows, 1)."""
    if init == "features":
        return (rows, spec.features())
    if init == "onehot":
        return (rows, spec.classes())
    return (rows, 1)


def as_input(init: str, features: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """float32 values of an Input with this init for these samples."""
    if init == "features":
        return np.ascontiguousarray(features, np.float32)
    if init == "onehot":
        return one_hot(labels, classes)
    return np.asarray(labels, np.float32).reshape(-1, 1)


@dataclass(frozen=True)
class Prepared:
    """A data set split: the training and the test samples, in the documented order."""

    spec: DataSpec
    train_x: np.ndarray
    train_y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray

    def inputs(self, init: str, part: str = "train", positions: np.ndarray | None = None) -> np.ndarray:
        """An Input's values for the training set (at these positions of it) or the test set."""
        x, y = (self.train_x, self.train_y) if part == "train" else (self.test_x, self.test_y)
        if positions is not None:
            x, y = x[positions], y[positions]
        return as_input(init, x, y, self.spec.classes())

    def batch_positions(self, step: int) -> np.ndarray:
        """The training-set positions step `step` (1-based, counting across epochs) trains on."""
        spe = self.spec.steps_per_epoch()
        epoch, batch = (step - 1) // spe + 1, (step - 1) % spe
        order = epoch_order(len(self.train_x), self.spec.seed, epoch)
        bs = self.spec.batch_size
        return order[batch * bs : (batch + 1) * bs]


def test_images(data: Prepared | None) -> dict | None:
    """The test set of an image source as the window draws it: "images" uint8 (n, rows, columns),
    each pixel's value in [0, 1] as 0..255, and "labels" int16 (n,); None for other data."""
    shape = data.spec.image_shape() if data is not None else None
    if shape is None:
        return None
    pixels = np.rint(np.clip(data.test_x, 0, 1) * 255).astype(np.uint8).reshape(-1, *shape)
    return {"images": pixels, "labels": data.test_y.astype(np.int16)}


def prepare(spec: DataSpec) -> Prepared:
    """A valid spec's samples, split (split())."""
    x, y = load(spec)
    train, test = split(len(x), spec.test_fraction, spec.seed)
    return Prepared(spec, x[train], y[train], x[test], y[test])
