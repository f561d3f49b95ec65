"""Data sets a network learns from, defined so any framework can reproduce them: the sources
(scikit-learn's generators and bundled digits, XOR and spiral in numpy, the user's CSV file or
folder of MNIST IDX files), the train/test split and the order of the mini-batches in each epoch.

- CSV (source csv, `path` the file): UTF-8 text, comma-separated; line 1 is a header naming the
  columns; the label is the column named `label`, else the last one; every other column is a
  numeric feature. Labels are whole numbers from 0 (the classes are 0 to the largest label), and
  at least two different ones. At most MAX_SIZE rows of data and CSV_MAX_BYTES bytes.
- MNIST (source mnist, `path` the folder): the unpacked IDX files train-images-idx3-ubyte and
  train-labels-idx1-ubyte, and optionally t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte;
  the samples are the first `size` images, the training files' then the t10k files', each 28x28
  pixels scaled to [0, 1] as 784 features. The window only reads the files' headers and labels
  (to check them and know the shapes); the engine reads the images with
  mindspore.dataset.MnistDataset (use_reader).

- Split: `numpy.random.RandomState(seed).permutation(n)`; the last `round(n * test_fraction)`
  indices are the test set, the others the training set, in that order.
- Epoch e (1-based) visits the training set in the order `RandomState(seed + e).permutation(n_train)`,
  in batches of `batch_size`; the last batch may be short.

Qt-free and MindSpore-free: the engine feeds these batches through mindspore.dataset.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..i18n import Msg
from .ops import DATA_SOURCES

SOURCES = DATA_SOURCES  # the op table's Dataset node names them
TWO_D = SOURCES[:5]  # the generated 2-D sets (size and noise apply); digits is a bundled set
FILES = ("csv", "mnist")  # the sources read from the user's `path`
MIN_SIZE, MAX_SIZE = 4, 100_000
MAX_NOISE = 10.0
CSV_MAX_BYTES = 64 << 20  # a CSV file's size limit (its rows are limited to MAX_SIZE too)
CSV_MAX_COLUMNS = 10_000
MAX_CLASSES = 1000  # a CSV label's limit: the one-hot targets have this many columns at most
# the MNIST folder's (images, labels) file pairs: the training pair is needed, the t10k one optional
MNIST_FILES = (
    ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
)
MNIST_SIDE = 28


class DataError(ValueError):
    """A data set that cannot be read; `msg` (an i18n.Msg) names the file, line or field."""

    def __init__(self, msg: Msg):
        super().__init__(str(msg))
        self.msg = msg


IMAGE_SHAPES = {
    "digits": (8, 8),
    "mnist": (MNIST_SIDE, MNIST_SIDE),
}  # the sources whose samples are images: (rows, columns)


@dataclass(frozen=True)
class DataSpec:
    """A Dataset node's attributes: where the data come from, and how they are split and batched."""

    source: str = "moons"
    path: str = ""  # the CSV file or the MNIST folder (sources csv and mnist)
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
        if self.source in FILES:
            info = self._file()
            if info.problem is not None:
                return [info.problem]
        if self.source != "csv" and (not isinstance(self.size, int) or not MIN_SIZE <= self.size <= MAX_SIZE):
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

    def _file(self) -> _FileInfo:
        """What the CSV file or MNIST folder holds, or why it cannot be used (read once per
        version of the files)."""
        return file_info(self.source, self.path)

    def samples(self) -> int:
        if self.source == "digits":
            return DIGITS_SIZE
        if self.source == "csv":
            return self._file().samples
        if self.source == "mnist":
            return min(self.size, self._file().samples)
        return self.size

    def features(self) -> int:
        """Numbers per sample: 64 pixels for the digits, 784 for MNIST, the CSV's feature
        columns, two coordinates for the 2-D sets."""
        if self.source in FILES:
            return self._file().features
        return 64 if self.source == "digits" else 2

    def image_shape(self) -> tuple[int, int] | None:
        """(rows, columns) of pixels where each sample is an image; None for points."""
        return IMAGE_SHAPES.get(self.source)

    def classes(self) -> int:
        if self.source in FILES:
            return self._file().classes
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
        elif self.source == "csv":
            info = self._file()
            d.update(path=self.path, sha256=info.sha256, features=info.features, classes=info.classes)
        elif self.source == "mnist":
            d.update(path=self.path, size=self.samples())
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
        names = ("source", "path", "size", "noise", "test_fraction", "batch_size", "seed")
        return cls(**{k: a[k] for k in names if k in a})


DIGITS_SIZE = 1797  # scikit-learn's bundled 8x8 digits


# -- the user's files ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _FileInfo:
    """A CSV file's or MNIST folder's samples, features and classes, or the first problem found."""

    problem: Msg | None = None
    samples: int = 0
    features: int = 0
    classes: int = 0
    sha256: str = ""  # a CSV file's digest, which a run record names it by
    table: tuple | None = None  # a CSV file's (features, labels)


def _stamp(path: str) -> tuple:
    """What changes when a file or a folder's files change: sizes and modification times."""
    paths = [path] + ([os.path.join(path, f) for pair in MNIST_FILES for f in pair] if os.path.isdir(path) else [])
    out = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append((p, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((p, None, None))
    return tuple(out)


def file_info(source: str, path: str) -> _FileInfo:
    """The CSV file's or MNIST folder's contents as the checks need them (cached per version)."""
    if not isinstance(path, str) or not path.strip():
        if source == "csv":
            return _FileInfo(Msg("Data", "path is empty: choose the CSV file"))
        return _FileInfo(Msg("Data", "path is empty: choose the folder of MNIST files"))
    full = os.path.abspath(os.path.expanduser(path))
    return _file_info(source, full, _stamp(full))


@functools.lru_cache(maxsize=8)
def _file_info(source: str, path: str, stamp: tuple) -> _FileInfo:
    try:
        return _read_csv(path) if source == "csv" else _check_mnist(path)
    except DataError as e:
        return _FileInfo(e.msg)


def _read_csv(path: str) -> _FileInfo:
    """Parse a CSV file (the format in the module docstring); DataError naming the file and line."""
    name = os.path.basename(path)
    if os.path.isdir(path) or not os.path.exists(path):
        raise DataError(Msg("Data", "path {path}: no such file").format(path=path))
    size = os.path.getsize(path)
    if size > CSV_MAX_BYTES:
        raise DataError(
            Msg("Data", "{file} is {mb:.1f} MB; a CSV file may have at most {limit} MB").format(
                file=name, mb=size / 2**20, limit=CSV_MAX_BYTES >> 20
            )
        )
    try:
        with open(path, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8-sig")
    except OSError as e:
        raise DataError(Msg("Data", "{file} cannot be read: {error}").format(file=name, error=e.strerror)) from None
    except UnicodeDecodeError:
        raise DataError(Msg("Data", "{file} is not UTF-8 text").format(file=name)) from None
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if not header or not any(c.strip() for c in header):
        raise DataError(Msg("Data", "{file} is empty: line 1 must name the columns").format(file=name))
    header = [c.strip() for c in header]
    if all(_is_number(c) for c in header):
        raise DataError(
            Msg("Data", "{file}, line 1: the first line must be a header naming the columns, not numbers").format(
                file=name
            )
        )
    if len(header) < 2:
        raise DataError(
            Msg("Data", "{file}, line 1: needs at least two columns, the features and the label").format(file=name)
        )
    if len(header) > CSV_MAX_COLUMNS:
        raise DataError(
            Msg("Data", "{file}, line 1: {n} columns; at most {limit}").format(
                file=name, n=len(header), limit=CSV_MAX_COLUMNS
            )
        )
    label = header.index("label") if "label" in header else len(header) - 1
    rows: list[list[float]] = []
    labels: list[int] = []
    for cells in reader:
        line = reader.line_num
        if not cells or not any(c.strip() for c in cells):
            continue  # blank lines are skipped
        if len(rows) == MAX_SIZE:
            raise DataError(
                Msg("Data", "{file}, line {line}: more than {limit} rows of data (the limit)").format(
                    file=name, line=line, limit=f"{MAX_SIZE:,}"
                )
            )
        if len(cells) != len(header):
            raise DataError(
                Msg("Data", "{file}, line {line}: {n} cells, but the header names {m} columns").format(
                    file=name, line=line, n=len(cells), m=len(header)
                )
            )
        row = []
        for j, cell in enumerate(cells):
            c = cell.strip()
            where = {"file": name, "line": line, "column": header[j] or str(j + 1)}
            if not c:
                raise DataError(Msg("Data", "{file}, line {line}: column {column} is missing").format(**where))
            try:
                v = float(c)
            except ValueError:
                raise DataError(
                    Msg("Data", "{file}, line {line}: column {column} holds {cell}, not a number").format(
                        cell=repr(c)[:30], **where
                    )
                ) from None
            if not math.isfinite(v) or abs(v) > 3.0e38:
                raise DataError(
                    Msg("Data", "{file}, line {line}: column {column} holds {cell}, not a finite number").format(
                        cell=c[:30], **where
                    )
                )
            if j == label:
                if not v.is_integer() or not 0 <= v < MAX_CLASSES:
                    raise DataError(
                        Msg(
                            "Data", "{file}, line {line}: the label {cell} is not a whole number from 0 to {high}"
                        ).format(cell=c[:30], high=MAX_CLASSES - 1, **where)
                    )
                labels.append(int(v))
            else:
                row.append(v)
        rows.append(row)
    if not rows:
        raise DataError(Msg("Data", "{file} holds no rows of data below its header").format(file=name))
    y = np.asarray(labels, np.int32)
    found = np.unique(y)
    if len(found) < 2:
        raise DataError(
            Msg("Data", "{file}: every label is {label}; a classifier needs at least two classes").format(
                file=name, label=int(found[0])
            )
        )
    x = np.asarray(rows, np.float32)
    return _FileInfo(None, len(rows), x.shape[1], int(y.max()) + 1, hashlib.sha256(raw).hexdigest(), (x, y))


def _is_number(c: str) -> bool:
    try:
        float(c)
    except ValueError:
        return False
    return True


def _check_mnist(folder: str) -> _FileInfo:
    """Check an MNIST folder's IDX files from their headers and labels (numpy only): present,
    28x28, as long as their headers say, labels 0 to 9; DataError naming the file."""
    if not os.path.isdir(folder):
        raise DataError(Msg("Data", "path {path}: no such folder").format(path=folder))
    total = 0
    for k, (images, labels) in enumerate(MNIST_FILES):
        pi, pl = os.path.join(folder, images), os.path.join(folder, labels)
        if k and not os.path.exists(pi) and not os.path.exists(pl):
            continue  # the t10k pair is optional
        for p in (pi, pl):
            if os.path.isfile(p):
                continue
            if os.path.exists(p + ".gz"):
                raise DataError(
                    Msg("Data", "the MNIST folder {folder} has {file}.gz: unpack it (gunzip) first").format(
                        folder=folder, file=os.path.basename(p)
                    )
                )
            raise DataError(
                Msg("Data", "the MNIST folder {folder} has no file {file}").format(
                    folder=folder, file=os.path.basename(p)
                )
            )
        n_images = _idx_count(pi, 2051, 16, MNIST_SIDE * MNIST_SIDE)
        n_labels = _idx_count(pl, 2049, 8, 1)
        if n_images != n_labels:
            raise DataError(
                Msg("Data", "{images} holds {n} images but {labels} {m} labels").format(
                    images=images, labels=labels, n=n_images, m=n_labels
                )
            )
        y = np.fromfile(pl, np.uint8, offset=8)
        if len(y) and y.max() > 9:
            raise DataError(
                Msg("Data", "{file}: label {label} at item {item}; MNIST's labels are 0 to 9").format(
                    file=labels, label=int(y.max()), item=int(np.argmax(y > 9))
                )
            )
        total += n_images
    if total < MIN_SIZE:
        raise DataError(
            Msg("Data", "the MNIST folder {folder} holds {n} images; at least {low} are needed").format(
                folder=folder, n=total, low=MIN_SIZE
            )
        )
    return _FileInfo(None, total, MNIST_SIDE * MNIST_SIDE, 10)


def _idx_count(path: str, magic: int, head: int, item: int) -> int:
    """The item count an IDX file's header gives, checked against its magic number, its image
    size (28x28) and its length."""
    name = os.path.basename(path)
    with open(path, "rb") as f:
        header = f.read(head)
    if len(header) < head:
        raise DataError(Msg("Data", "{file} is truncated: it has no complete header").format(file=name))
    words = np.frombuffer(header, ">u4")
    if words[0] != magic:
        raise DataError(
            Msg("Data", "{file} is not an MNIST IDX file (magic number {found}, expected {magic})").format(
                file=name, found=int(words[0]), magic=magic
            )
        )
    if head == 16 and (words[2], words[3]) != (MNIST_SIDE, MNIST_SIDE):
        raise DataError(
            Msg("Data", "{file} holds {r}x{c} images; MNIST's are 28x28").format(
                file=name, r=int(words[2]), c=int(words[3])
            )
        )
    n = int(words[1])
    want, got = head + n * item, os.path.getsize(path)
    if got < want:
        raise DataError(
            Msg(
                "Data", "{file} is truncated: its header says {n} items ({want} bytes), the file has {got} bytes"
            ).format(file=name, n=n, want=want, got=got)
        )
    return n


# the engine process's readers of file sources (it reads MNIST with mindspore.dataset): source ->
# read(path, n) -> (features float32 (n, d), labels int32 (n,))
_READERS: dict[str, Callable[[str, int], tuple[np.ndarray, np.ndarray]]] = {}


def use_reader(source: str, read: Callable[[str, int], tuple[np.ndarray, np.ndarray]]) -> None:
    """Install the reader of a file source (the engine installs MnistDataset's for mnist)."""
    _READERS[source] = read


def load(spec: DataSpec) -> tuple[np.ndarray, np.ndarray]:
    """(features float32 (n, d), labels int32 (n,)) of a valid spec, drawn from its seed.

    DataError when a file source cannot be read (or, for MNIST, outside the engine process)."""
    if spec.source == "csv":
        info = spec._file()
        if info.problem is not None:
            raise DataError(info.problem)
        x, y = info.table
        return x.copy(), y.copy()
    if spec.source == "mnist":
        if "mnist" not in _READERS:
            raise DataError(Msg("Data", "MNIST images are read by the engine process (mindspore.dataset)"))
        n = spec.samples()
        x, y = _READERS["mnist"](os.path.abspath(os.path.expanduser(spec.path)), n)
        if x.shape != (n, spec.features()) or y.shape != (n,):
            raise DataError(
                Msg("Data", "the MNIST folder {folder} gave {shape} images instead of {n}").format(
                    folder=spec.path, shape=x.shape, n=n
                )
            )
        return np.asarray(x, np.float32), np.asarray(y, np.int32)
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
