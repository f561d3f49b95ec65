"""What Graph mode costs and buys on the current graph: ms per step in PyNative and in Graph
mode (the first Graph step, which compiles, apart), and the largest difference between the two
modes' results after the same steps."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from ..model.session import Session


@dataclass
class ModeCost:
    steps: int
    pynative_ms: float  # per step, median over the steps after the first
    graph_ms: float
    graph_compile_s: float  # the first Graph-mode step, compilation included
    max_abs_difference: float  # over the loss, parameters and gradients of every step
    max_rel_difference: float

    def to_json(self) -> dict:
        return dict(self.__dict__)


def _run(session: Session, mode: str, steps: int, tick=None):
    from ..engine.engine import Engine

    e = Engine(Session(session.graph.copy(), replace(session.options, mode=mode), session.name))
    try:
        t0 = time.perf_counter()
        rows = [e.step().row.copy()]
        first = time.perf_counter() - t0
        times = []
        for k in range(steps - 1):
            if tick is not None:
                tick(k + 1)
            t = time.perf_counter()
            rows.append(e.step().row.copy())
            times.append(time.perf_counter() - t)
    finally:
        e.close()
    return np.array(rows, np.float64), first, float(np.median(times) * 1e3) if times else first * 1e3


def measure(session: Session, steps: int = 50, progress=None, cancelled=None) -> ModeCost:
    """Train `steps` steps in each mode from the same initial values (in this process);
    progress(fraction) and cancelled() (then InterruptedError) between steps."""

    def ticker(first: int):
        def tick(k: int) -> None:
            if cancelled is not None and cancelled():
                raise InterruptedError("mode cost cancelled")
            if progress is not None:
                progress((first + k) / (2 * steps))

        return tick

    py, _, py_ms = _run(session, "pynative", steps, ticker(0))
    gr, compile_s, gr_ms = _run(session, "graph", steps, ticker(steps))
    if progress is not None:
        progress(1.0)
    with np.errstate(invalid="ignore"):
        diff = np.abs(py - gr)
        rel = diff / np.maximum(np.abs(py), 1e-12)
    return ModeCost(steps, py_ms, gr_ms, compile_s, float(np.nanmax(diff)), float(np.nanmax(rel)))
