"""The one diverging colour map of every heat map (blue < 0 < red, white at 0), for the nodes' small
heat maps, the plots' heat maps and their colour bars; the scale S that maps ±S to the ends comes
from model/colorscale.py."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage


def _make_lut() -> np.ndarray:
    t = np.linspace(-1, 1, 256)
    r = np.where(t > 0, 1.0, 1.0 + t)
    g = 1.0 - np.abs(t) * 0.85
    b = np.where(t < 0, 1.0, 1.0 - t)
    return (np.stack([r, g, b], axis=1) * 255).astype(np.uint8)


LUT = _make_lut()  # 256 colours for -S .. +S


def diverging_rgb(a: np.ndarray, scale: float | None = None) -> np.ndarray:
    """(rows, cols, 3) uint8 colours of LUT, -scale blue, 0 white, +scale red (beyond: the ends);
    without a scale, the array's own largest |value|. Non-finite cells are black."""
    a = np.asarray(a, np.float64)
    finite = np.isfinite(a)
    m = scale if scale else (np.max(np.abs(a[finite])) if finite.any() else 1.0)
    t = np.clip(np.where(finite, a, 0) / (m or 1.0), -1, 1)
    rgb = LUT[np.rint((t + 1) * 127.5).astype(np.intp)]
    rgb[~finite] = 0
    return rgb


def to_qimage(a: np.ndarray, scale: float | None = None) -> QImage:
    return rgb_image(diverging_rgb(np.atleast_2d(np.asarray(a)), scale))


def rgb_image(rgb: np.ndarray) -> QImage:
    """A QImage (its own copy) of uint8 (rows, cols, 3), row 0 at the top."""
    a = np.ascontiguousarray(rgb)
    h, w, _ = a.shape
    return QImage(a.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()  # own the memory
