"""Small diverging heat maps of matrices (blue = negative, white = 0, red = positive)."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage


def diverging_rgb(a: np.ndarray, scale: float | None = None) -> np.ndarray:
    """(rows, cols, 3) uint8 colours, symmetric around 0; non-finite cells are black."""
    a = np.asarray(a, np.float64)
    finite = np.isfinite(a)
    m = scale if scale else (np.max(np.abs(a[finite])) if finite.any() else 1.0)
    t = np.clip(np.where(finite, a, 0) / (m or 1.0), -1, 1)
    r = np.where(t > 0, 1.0, 1.0 + t)
    g = 1.0 - np.abs(t) * 0.85
    b = np.where(t < 0, 1.0, 1.0 - t)
    rgb = (np.stack([r * 0.95 + 0.05 * (t > 0), g, b], axis=-1) * 255).astype(np.uint8)
    rgb[~finite] = 0
    return rgb


def to_qimage(a: np.ndarray) -> QImage:
    a2 = np.atleast_2d(np.asarray(a))
    rgb = np.ascontiguousarray(diverging_rgb(a2))
    h, w, _ = rgb.shape
    img = QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888)
    return img.copy()  # own the memory
