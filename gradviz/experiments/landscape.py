"""The loss landscape: L over a plane through the parameters, spanned either by two chosen
parameter elements or by two random directions normalised filter by filter (Li et al.,
"Visualizing the Loss Landscape of Neural Nets", 2018), with the optimizer's path projected on it.

L is the function autodiff differentiates with the session's options (gradcheck.objective), in
float64 numpy. Runs in the engine process; progress is reported per row and a row can be
cancelled between points."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..model.graph import initial_values
from ..model.layout import Layout
from ..model.session import Session
from .gradcheck import objective


@dataclass
class Plane:
    """center + a * u + b * v, each a flat vector in a layout's order."""

    layout: Layout
    center: np.ndarray
    u: np.ndarray
    v: np.ndarray
    labels: tuple[str, str]  # what the axes are: two elements, or "direction 1/2"

    def point(self, a: float, b: float) -> dict[str, np.ndarray]:
        return self.layout.unflatten(self.center + a * self.u + b * self.v)

    def project(self, flat: np.ndarray) -> np.ndarray:
        """(a, b) of parameter vectors (one per row) projected on the plane (least squares)."""
        basis = np.stack([self.u, self.v], axis=1)
        coef, *_ = np.linalg.lstsq(basis, (np.atleast_2d(flat) - self.center).T, rcond=None)
        return coef.T


def element_plane(layout: Layout, center: np.ndarray, i: int, j: int) -> Plane:
    """The plane of two parameter elements (indices into the flat layout), others held."""
    labels = layout.labels()
    u, v = np.zeros(layout.total), np.zeros(layout.total)
    u[i], v[j] = 1.0, 1.0
    return Plane(layout, np.asarray(center, np.float64), u, v, (labels[i], labels[j]))


def filter_normalised(layout: Layout, center: np.ndarray, seed: int = 0) -> Plane:
    """Two random Gaussian directions, each filter scaled to the norm of the same filter of the
    parameters (a matrix's filters are its columns, a unit's incoming weights; a vector or a
    scalar is one filter)."""
    rng = np.random.RandomState(seed)
    params = layout.unflatten(np.asarray(center, np.float64))
    dirs = []
    for _ in range(2):
        parts = {}
        for name, p in params.items():
            d = rng.standard_normal(p.shape)
            if p.ndim == 2:
                norm_p = np.linalg.norm(p, axis=0, keepdims=True)
                norm_d = np.linalg.norm(d, axis=0, keepdims=True)
            else:
                norm_p, norm_d = np.linalg.norm(p), np.linalg.norm(d)
            parts[name] = d * norm_p / np.maximum(norm_d, 1e-12)
        dirs.append(np.concatenate([parts[n].reshape(-1) for n in layout.names]))  # float64, unlike flatten
    return Plane(layout, np.asarray(center, np.float64), dirs[0], dirs[1], ("direction 1", "direction 2"))


def surface(
    session: Session,
    plane: Plane,
    alphas: np.ndarray,
    betas: np.ndarray,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> np.ndarray:
    """L at every (alpha, beta): an array of shape (len(betas), len(alphas)); rows are betas."""
    base = {k: np.asarray(v, np.float64) for k, v in initial_values(session.graph, session.options.seed).items()}
    L = objective(session, {**base, **plane.point(0.0, 0.0)})
    z = np.empty((len(betas), len(alphas)))
    for r, b in enumerate(betas):
        for c, a in enumerate(alphas):
            if cancelled is not None and cancelled():
                raise InterruptedError("loss landscape cancelled")
            with np.errstate(all="ignore"):
                z[r, c] = L(plane.point(float(a), float(b)))
        if progress is not None:
            progress((r + 1) / len(betas))
    return z
