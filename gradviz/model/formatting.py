"""Compact text for tensor values, as nodes and tooltips show them. Qt-free."""
from __future__ import annotations

import numpy as np


def fmt_number(v: float, digits: int = 4) -> str:
    v = float(v)
    if np.isnan(v):
        return "NaN"
    if np.isinf(v):
        return "+inf" if v > 0 else "-inf"
    if v == 0:
        return "0"
    a = abs(v)
    if 1e3 <= a < 1e6:
        return f"{v:.1f}"
    if 1e-3 <= a < 1e3:
        return f"{v:#.{digits}g}".rstrip(".")
    return f"{v:.{max(digits - 1, 1)}e}"


def fmt_tensor(arr, max_items: int = 6, digits: int | None = None) -> str:
    a = np.asarray(arr)
    if a.ndim == 0:
        return fmt_number(a, digits or 4)
    flat = a.reshape(-1)
    digits = digits or (4 if flat.size <= 2 else 3)
    items = [fmt_number(x, digits) for x in flat[:max_items]]
    more = ", …" if flat.size > max_items else ""
    if a.ndim == 1:
        return "[" + ", ".join(items) + more + "]"
    return f"{a.shape[0]}×{a.shape[1]} in [{fmt_number(np.nanmin(a))}, {fmt_number(np.nanmax(a))}]"


def fmt_full(arr) -> str:
    """Every value, for tooltips."""
    a = np.asarray(arr)
    with np.printoptions(precision=5, suppress=True, linewidth=80, threshold=400):
        return np.array2string(a)
