"""An animated GIF of a run, for slides: which steps become frames, and the GIF itself.

The window is grabbed at each chosen step (the time-travel cursor moved there; gradviz/ui), and
the pictures, as RGB arrays, are turned into one looping GIF here with Pillow. Each frame gets its
own 256-colour palette without dithering, so text and thin curves stay sharp; the last frame is
held longer so the end of the run can be read. Qt-free."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import numpy as np

MIN_FRAMES = 10  # a GIF shows the run evolving: at least this many steps
DEFAULT_FRAMES = 20
MAX_FRAMES = 200
FRAME_MS = 250  # each frame
LAST_FRAME_MS = 2500  # the end of the run, held


class TooFewSteps(ValueError):
    """The history has fewer steps than a GIF needs; the message says how many it has."""


def frame_steps(steps: np.ndarray, count: int = DEFAULT_FRAMES) -> list[int]:
    """`count` steps of the history (or all of them, when it has fewer), spread evenly from its
    first step to its last, both included; TooFewSteps below MIN_FRAMES steps."""
    steps = np.asarray(steps)
    n = len(steps)
    if n < MIN_FRAMES:
        raise TooFewSteps(
            f"an animated GIF needs at least {MIN_FRAMES} steps of history; this run has {n}: train longer first"
        )
    idx = np.unique(np.round(np.linspace(0, n - 1, min(max(count, MIN_FRAMES), n))).astype(int))
    return [int(steps[i]) for i in idx]


def gif_bytes(
    frames: Sequence[np.ndarray],
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> bytes:
    """One looping GIF of RGB frames (height x width x 3, uint8, all the same size)."""
    from PIL import Image

    from ..safe_io import Cancelled

    if not frames:
        raise ValueError("no frames to write")
    images = []
    for k, f in enumerate(frames):
        if cancelled is not None and cancelled():
            raise Cancelled()
        rgb = Image.fromarray(np.ascontiguousarray(f, np.uint8), "RGB")
        images.append(rgb.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
        if progress is not None:
            progress(0.9 * (k + 1) / len(frames))
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    buf = io.BytesIO()
    images[0].save(buf, "GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return buf.getvalue()
