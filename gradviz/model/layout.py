"""How named tensors are flattened into one vector per step, for history buffers and pipes."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

# -- a summarised tensor's columns (model/recording.py decides which tensors are summarised) -----
STATS = ("norm", "min", "max", "mean", "q05", "q25", "q50", "q75", "q95")
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)  # the q.. stats, in order
SAMPLES = 64  # sampled elements recorded per summarised tensor
QUANTILE_SAMPLES = 4096  # elements the quantiles are computed over
SEED = 13  # of the sampled elements' choice


@lru_cache(maxsize=64)
def _choice(size: int, k: int, salt: int) -> np.ndarray:
    idx = np.random.default_rng((SEED, size, salt)).choice(size, min(k, size), replace=False)
    idx = np.sort(idx).astype(np.int64)
    idx.setflags(write=False)
    return idx


def sample_indices(size: int) -> np.ndarray:
    """The flat indices of the elements recorded of a summarised tensor of `size` elements."""
    return _choice(size, SAMPLES, 0)


def quantile_indices(size: int) -> np.ndarray:
    """The flat indices of the elements the quantiles of such a tensor are computed over."""
    return _choice(size, QUANTILE_SAMPLES, 1)


def numel(shape) -> int:
    return math.prod(int(d) for d in shape)


def summary_width(shape) -> int:
    return len(STATS) + len(sample_indices(numel(shape)))


def summary_labels(name: str, shape) -> list[str]:
    """Column labels of a summarised tensor: w:norm, w:min, ..., then its samples as w[i,j]."""
    idx = sample_indices(numel(shape))
    return [f"{name}:{s}" for s in STATS] + [
        f"{name}[{','.join(map(str, np.unravel_index(int(i), tuple(shape))))}]" for i in idx
    ]


def describe_summary(shape) -> dict:
    """A summarised tensor in a run file's layout: its shape, its columns' stats, then the flat
    (row-major) indices of its sampled elements, and how many elements the quantiles are of."""
    size = numel(shape)
    return {
        "shape": list(shape),
        "stats": list(STATS),
        "samples": sample_indices(size).tolist(),
        "quantiles_of": len(quantile_indices(size)),
    }


@dataclass
class Layout:
    """Names and shapes of the tensors of one record kind, flattened end to end.

    A recorded layout (model.recording) may hold a large tensor as its summary: then `shapes`
    has the summary's width and `summaries` the tensor's full shape, by name."""

    names: list[str]
    shapes: list[tuple[int, ...]]
    summaries: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def sizes(self) -> list[int]:
        return [int(math.prod(s)) for s in self.shapes]  # math's: numpy's prod costs a recorded step

    @property
    def total(self) -> int:
        return sum(self.sizes)

    def labels(self) -> list[str]:
        """One label per flattened element: w[0,1], b[2], loss."""
        out = []
        for n, s in zip(self.names, self.shapes):
            if n in self.summaries:
                out += summary_labels(n, self.summaries[n])
            elif not s:
                out.append(n)
            else:
                out += [f"{n}[{','.join(map(str, idx))}]" for idx in np.ndindex(*s)]
        return out

    def flatten(self, d: dict[str, np.ndarray]) -> np.ndarray:
        if not self.names:
            return np.zeros(0, np.float32)
        return np.concatenate([np.asarray(d[n], np.float32).reshape(-1) for n in self.names])

    def unflatten(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        out, i = {}, 0
        for n, s, k in zip(self.names, self.shapes, self.sizes):
            out[n] = np.asarray(flat[i : i + k]).reshape(s)
            i += k
        return out

    def to_dict(self) -> dict:
        d = {"names": list(self.names), "shapes": [list(s) for s in self.shapes]}
        if self.summaries:  # what each column of a summary is: its stats, then which elements
            d["summaries"] = {n: describe_summary(s) for n, s in self.summaries.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Layout:
        summaries = {n: tuple(s["shape"]) for n, s in d.get("summaries", {}).items()}
        return cls(list(d["names"]), [tuple(s) for s in d["shapes"]], summaries)


LOSS_COL = 0  # a step's row: [loss, lr, params, grads, aux]
LR_COL = 1  # the learning rate in force at that step


def row_slices(params: Layout, grads: Layout) -> tuple[slice, slice, slice]:
    """Where the parameters, gradients and auxiliary outputs are in one step's row,
    [loss, lr, params, grads, aux]: the engine writes rows so, the window reads them so."""
    p = 2 + params.total
    g = p + grads.total
    return slice(2, p), slice(p, g), slice(g, None)
