"""Where the engine process begins: spawn it, and spawn it early.

Standard library only, so that the app can start the engine process before it imports anything
else (Qt, pyqtgraph, numpy): MindSpore's import is the longest part of start-up, and it runs in
the engine process while the window is being built.
`prestart()` spawns a process for the mode and device the app will most likely need; the window's
engine client takes it (`take()`) when mode and device match, and otherwise stops it and spawns
the one it needs."""

from __future__ import annotations

import multiprocessing

_prestarted: dict = {}  # (mode, device) -> (process, connection): at most one, not yet taken


def run(conn, mode: str, device: str) -> None:
    """The spawned process's target (imports the engine only in the child)."""
    from .process import serve

    serve(conn, mode, device)


def spawn(mode: str, device: str):
    """A fresh engine process for `mode` on `device`: (process, the app's end of the pipe)."""
    ctx = multiprocessing.get_context("spawn")
    conn, child = ctx.Pipe(duplex=True)
    process = ctx.Process(target=run, args=(child, mode, device), name="gradviz-engine", daemon=True)
    process.start()
    child.close()  # so that the app's reader sees EOF when the process ends
    return process, conn


def prestart(mode: str = "pynative", device: str = "CPU") -> None:
    """Spawn the engine process now, to be taken by the first engine client for (mode, device)."""
    discard()
    hand_over(mode, device, spawn(mode, device))


def hand_over(mode: str, device: str, started) -> None:
    """Give a (process, connection) that spawn() made earlier to the next engine client for
    (mode, device), as prestart() does (the test suite spawns its engines ahead)."""
    discard()
    _prestarted[(mode, device)] = started


def take(mode: str, device: str):
    """The prestarted (process, connection) for this mode and device, or None (a prestarted one
    for another mode or device is stopped: MindSpore fixes both once per process)."""
    started = _prestarted.pop((mode, device), None)
    discard()
    return started


def discard() -> None:
    """Stop a prestarted process nobody took: killed at once (it is still importing MindSpore and
    holds nothing; a polite close would keep the window's start waiting on it)."""
    for process, conn in _prestarted.values():
        conn.close()
        process.kill()
        process.join(1.0)
    _prestarted.clear()
