"""Compact text for tensor values, as nodes and tooltips show them. Qt-free."""

from __future__ import annotations

import numpy as np


def fmt_special(v: float) -> str | None:
    """NaN, the infinities and zero as every number format in GradViz writes them; None else."""
    if np.isnan(v):
        return "NaN"
    if np.isinf(v):
        return "+inf" if v > 0 else "-inf"
    return "0" if v == 0 else None


def fmt_number(v: float, digits: int = 4) -> str:
    v = float(v)
    special = fmt_special(v)
    if special is not None:
        return special
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


# -- user text in messages ---------------------------------------------------------------------
QUOTE_LIMIT = 80
PATH_LIMIT = 160


def _escape(text: str) -> str:
    """Control and format characters (terminal escapes, bidi overrides, line breaks) as \\x.. /
    \\u.... so a message from a file can neither drive a terminal nor break a line."""
    import unicodedata

    out = []
    for ch in text:
        if ch.isprintable() and unicodedata.category(ch) not in ("Cf", "Zl", "Zp"):
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\x{ord(ch):02x}"))
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
    return "".join(out)


def shorten(value, limit: int = QUOTE_LIMIT) -> str:
    """User text made safe for a one-line message: control characters escaped, at most about
    `limit` characters (cut with "…"). Only a bounded prefix is ever looked at, so a
    5,000,000-character name costs no more than an 80-character one."""
    try:
        text = value if isinstance(value, str) else repr(value)[: limit * 4]
    except ValueError:  # an integer too long to print
        text = f"a {type(value).__name__} too long to show"
    s = _escape(text[: limit * 2])
    return s if len(s) <= limit and len(text) <= limit * 2 else s[: limit - 1] + "…"


def quote(value, limit: int = QUOTE_LIMIT) -> str:
    """User text in double quotes, shortened and escaped (see shorten): every message that echoes
    a name, a kind, a value or an argument from a user or a file goes through here."""
    return f'"{shorten(value, limit)}"'


def show_path(path, limit: int = PATH_LIMIT) -> str:
    """A file path for a message, escaped; a very long one keeps its start and its file name."""
    import os

    text = os.fsdecode(path) if not isinstance(path, str) else path
    if len(text) > limit * 4:  # the middle is cut anyway: never escape megabytes
        text = text[: limit * 2] + text[-limit * 2 :]
    s = _escape(text)
    if len(s) <= limit:
        return s
    half = (limit - 1) // 2
    return s[:half] + "…" + s[-half:]
