"""The data view's plane: a 2-D data set's input plane as a grid of points, and what the network
gives there (each class's probability on a fine grid, each hidden unit's activation on a coarse
one), defined once for the engine, its numpy stand-in and the window.

- Applies where the Dataset node's samples have two features (the 2-D generators, a CSV of two
  feature columns) and the loss reads class scores (`plane_info`).
- The plane covers every sample (training and test) plus MARGIN of its span on each side.
- Grid point (i, j) of an n x n grid is at x = xs[j], y = ys[i], each from the low end to the
  high one (`axis`): row i = 0 is the bottom of the picture.
- The fine and the coarse grid's points go through the network as one batch (fine first); the
  Inputs fed by the Dataset take the points (features) and zero targets (onehot, labels), which
  the values of the computation nodes do not depend on.
- The hidden nodes: computation nodes between the features Input and the class scores whose
  value is (samples, units) with at most MAX_UNITS units (each unit a mini map on its node).

Qt-free and MindSpore-free."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import datasets, predictions
from .graph import Graph
from .ops import OPS

MARGIN = 0.1  # of the data's span, on each side
RESOLUTION = 100  # the fine grid's points a side (the class probabilities)
COARSE = 24  # the coarse grid's points a side (the hidden units' maps)
MAX_RESOLUTION = 400
MAX_UNITS = 16  # a node with more units shows no mini maps


@dataclass(frozen=True)
class PlaneSpec:
    """The plane's bounds and the two grids' points a side."""

    x0: float
    x1: float
    y0: float
    y1: float
    resolution: int = RESOLUTION
    coarse: int = COARSE

    def axis(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """(xs, ys) of an n x n grid, float64, from the low ends to the high ones."""
        return np.linspace(self.x0, self.x1, n), np.linspace(self.y0, self.y1, n)

    def points(self, n: int) -> np.ndarray:
        """float32 (n * n, 2): grid point (i, j) at row i * n + j (see the module's docstring)."""
        xs, ys = self.axis(n)
        gx, gy = np.meshgrid(xs, ys)
        return np.stack([gx.ravel(), gy.ravel()], axis=1).astype(np.float32)

    def problems(self) -> list[str]:
        out = []
        if not all(np.isfinite(v) for v in (self.x0, self.x1, self.y0, self.y1)):
            out.append("the plane's bounds must be finite")
        elif not (self.x0 < self.x1 and self.y0 < self.y1):
            out.append("the plane's bounds must be increasing")
        for n in (self.resolution, self.coarse):
            if not 2 <= n <= MAX_RESOLUTION:
                out.append(f"a grid has 2 to {MAX_RESOLUTION} points a side, not {n}")
        return out


def bounds(x: np.ndarray) -> PlaneSpec:
    """The plane around these samples (n, 2): their range plus MARGIN of its span each side."""
    x = np.asarray(x, np.float64)
    lo, hi = x.min(axis=0), x.max(axis=0)
    span = np.where(hi - lo > 0, hi - lo, 1.0)
    lo, hi = lo - MARGIN * span, hi + MARGIN * span
    return PlaneSpec(float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1]))


def scores_of(graph: Graph) -> tuple[str, str] | None:
    """(the class scores' node, the loss kind) where the loss reads class scores, else None."""
    out = graph.loss_output()
    src = graph.get(out.inputs.get("x", "")) if out is not None else None
    if src is None or OPS[src.kind].role != "loss":
        return None
    return src.inputs.get(OPS[src.kind].ports[0], ""), src.kind


def hidden_nodes(graph: Graph, shapes: dict) -> list[str]:
    """The hidden nodes (see the module's docstring), in graph order."""
    scores = scores_of(graph)
    feats = [n.name for n in graph.data_inputs() if n.init == "features"]
    if scores is None or not feats:
        return []
    rows = tuple(shapes[feats[0]])[0]
    order = [n for n in graph.topo_order() if not n.is_source and n.kind != "Output"]
    after: set[str] = set(feats)  # nodes that depend on the features
    for n in order:
        if any(v in after for v in n.inputs.values()):
            after.add(n.name)
    before = {scores[0]}  # nodes the scores depend on
    for n in reversed(order):
        if n.name in before:
            before.update(n.inputs.values())
    out = []
    for n in order:
        shape = tuple(shapes.get(n.name, ()))
        between = n.name in after and n.name in before and n.name != scores[0] and OPS[n.kind].role == "op"
        if between and len(shape) == 2 and shape[0] == rows and 1 <= shape[1] <= MAX_UNITS:
            out.append(n.name)
    return out


def plane_info(graph: Graph, shapes: dict, data: datasets.Prepared | None) -> dict | None:
    """What the window draws the data view from, as BuildInfo.plane carries it: the samples
    ("train_x" float32 (n, 2), "train_y" int16, "test_x", "test_y"), the classes, the plane's
    bounds ("bounds": x0, x1, y0, y1) and the hidden nodes with their units; None where the
    data view does not apply."""
    if data is None or data.spec.image_shape() is not None or data.train_x.shape[1] != 2:
        return None
    if scores_of(graph) is None:
        return None
    p = bounds(np.concatenate([data.train_x, data.test_x]))
    return {
        "train_x": np.asarray(data.train_x, np.float32),
        "train_y": np.asarray(data.train_y, np.int16),
        "test_x": np.asarray(data.test_x, np.float32),
        "test_y": np.asarray(data.test_y, np.int16),
        "classes": int(data.spec.classes()),
        "bounds": (p.x0, p.x1, p.y0, p.y1),
        "hidden": {h: int(shapes[h][1]) for h in hidden_nodes(graph, shapes)},
    }


def plane_inputs(graph: Graph, points: np.ndarray, classes: int) -> dict[str, np.ndarray]:
    """The values of the Inputs fed by the Dataset for these points (zero targets)."""
    out = {}
    for n in graph.data_inputs():
        zeros = np.zeros(len(points), np.int64)
        out[n.name] = datasets.as_input(n.init, points, zeros, classes)
    return out


@dataclass(frozen=True)
class PlaneOutputs:
    """probs float32 (resolution, resolution, classes): each class's probability at each grid
    point; hidden {node: float32 (coarse, coarse, units)}: each unit's value there."""

    probs: np.ndarray
    hidden: dict


def evaluate(
    graph: Graph,
    shapes: dict,
    spec: PlaneSpec,
    classes: int,
    values_of: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]],
) -> PlaneOutputs:
    """The plane's outputs, from `values_of` (the Dataset's Inputs' values -> every node's value,
    at the parameters asked for: the engine's compiled gv_values, or numpy's forward)."""
    problems = spec.problems()
    if problems:
        raise ValueError("; ".join(problems))
    scores = scores_of(graph)
    if scores is None:
        raise ValueError("the loss reads no class scores: the data view does not apply")
    n, m = spec.resolution, spec.coarse
    points = np.concatenate([spec.points(n), spec.points(m)])
    values = values_of(plane_inputs(graph, points, classes))
    s = np.asarray(values[scores[0]], np.float64).reshape(len(points), -1)
    probs = predictions.probabilities(s[: n * n], scores[1]).astype(np.float32).reshape(n, n, -1)
    hidden = {}
    for h in hidden_nodes(graph, shapes):
        v = np.asarray(values[h], np.float32).reshape(len(points), -1)
        hidden[h] = np.ascontiguousarray(v[n * n :].reshape(m, m, -1))
    return PlaneOutputs(probs, hidden)
