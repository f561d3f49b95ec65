"""The small interfaces the window's parts are given instead of the window itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QStatusBar


@dataclass(frozen=True)
class Feedback:
    """How a part tells the user something: a passing message in the status bar, or the error
    banner (`show_error(text, detail="")`, which also puts its first line in the status bar)."""

    status: QStatusBar
    show_error: Callable[..., None]
    dismiss_error: Callable[[], None]
