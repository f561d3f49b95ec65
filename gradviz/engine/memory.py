"""An engine that runs out of memory says so, with what the graph needs and what to do.

MindSpore reports a failed allocation in many words ("Allocate memory failed", "Unknown Error!",
a thread that could not start, numpy's MemoryError). An error counts as running out of memory
when it says so, or when the memory one training step of this graph needs cannot be reserved
right after it. Qt-free."""

from __future__ import annotations

import numpy as np

from ..i18n import Msg
from ..model.graph import numel
from ..model.session import Session

FLOAT32 = 4
OPTIMIZER_SLOTS = {"sgd": 0, "momentum": 1, "adam": 2}  # state tensors per parameter
# how MindSpore, the C++ runtime and the operating system word a failed allocation
_SAYS_SO = (
    "out of memory",
    "allocate memory failed",
    "malloc memory failed",
    "cannot allocate memory",
    "bad_alloc",
    "resource temporarily unavailable",
)


def step_bytes(session: Session) -> int:
    """The memory one training step needs, roughly: every node's value and its gradient, the
    optimizer's state, and the step's record (each parameter's value and gradient)."""
    shapes, _ = session.graph.infer_shapes()
    values = sum(numel(s) for s in shapes.values() if s is not None)
    params = sum(numel(n.shape) for n in session.graph.trainable() if n.shape is not None)
    slots = OPTIMIZER_SLOTS.get(session.options.optimizer, 2)
    return FLOAT32 * (2 * values + (slots + 2) * params)


def _cannot_reserve(nbytes: int) -> bool:
    try:
        block = np.empty(max(nbytes, 1), np.uint8)  # address space only: no page is touched
    except MemoryError:
        return True
    del block
    return False


def ran_out_of_memory(error: BaseException, need: int) -> bool:
    if isinstance(error, MemoryError):
        return True
    text = str(error).lower()
    return any(s in text for s in _SAYS_SO) or _cannot_reserve(need)


def fmt_bytes(n: int) -> str:
    """1536 -> '2 KB', 3 << 29 -> '1.5 GB' (binary units, as the history budget's MB)."""
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if n >= 1 << shift:
            v = n / (1 << shift)
            return f"{v:.1f} {unit}" if v < 10 and unit == "GB" else f"{v:.0f} {unit}"
    return f"{n} B"


def out_of_memory(need: int, kept: int, said: str) -> Msg:
    return Msg(
        "Engine",
        "The engine ran out of memory ({error}). This graph needs about {need} for one training step, "
        "and the training states kept for going back up to {kept} more (a quarter of the history "
        "budget). Use a smaller graph (fewer or smaller Parameters), or lower the history budget, "
        "then press Reset.",
    ).format(error=said, need=fmt_bytes(need), kept=fmt_bytes(kept))
