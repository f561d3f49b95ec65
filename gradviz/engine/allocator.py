"""The C allocator's settings for a process that trains: large blocks go back to the system.

glibc serves a block of 128 KB or more with its own mmap and returns it to the system when it is
freed, but each such free raises that threshold (up to 32 MB), so that the next blocks of that
size come from the heap instead, where what is freed stays with the process. A large graph's
training frees and allocates blocks of megabytes every step (the `big` preset: a 4 MB parameter
and gradient copied into each step's row), and the engine's memory then grew for as long as it
trained; with the threshold fixed at 1 MB it stays flat (benchmarks/RESULTS.md, "Memory").
Elsewhere than glibc this does nothing."""

from __future__ import annotations

import ctypes
import ctypes.util

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
LARGE = 1 << 20  # bytes: blocks from this size are mapped, and freed memory above it trimmed


def return_large_blocks() -> bool:
    """Fix glibc's mmap and trim thresholds at LARGE (which also stops it raising them); True if
    the C library took the settings."""
    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows)
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, LARGE)) and bool(mallopt(_M_TRIM_THRESHOLD, LARGE))
