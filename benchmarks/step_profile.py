"""Where a step's time goes: the app's engine process against the bare loop, in one process.

    python benchmarks/step_profile.py PRESET MODE [--pairs N] [--seconds S] [--profile S]

The engine process's loop (gradviz.engine.process.Server, its pipe replaced by one that pickles
each message as the real pipe does and drops it) trains PRESET flat out in MODE, set up as
bench.py's throughput rows are (value_and_grad, no stop at loss, no end); bench.py's bare loop
of the same preset runs in the same process, with the same runtime settings. Their stretches of
S seconds alternate N times, and the median of the pairs' ratios is printed with each pair. On a
shared machine the absolute rates move with the load; the ratio of a pair, taken on the same
minutes, much less. With --profile, S seconds of the engine's loop run under cProfile and the
functions with the largest own time are printed, grouped by who called them. The window
and the pipe's reader in the other process are left out; bench.py times the whole app."""

from __future__ import annotations

import argparse
import cProfile
import os
import pickle
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("GLOG_v", "3")


class Pipe:
    """The engine's end of the pipe: each message pickled, counted and dropped."""

    def __init__(self):
        self.sent = 0
        self.bytes = 0

    def poll(self, _timeout=0):
        return False

    def send(self, m):
        self.sent += 1
        self.bytes += len(pickle.dumps(m, pickle.HIGHEST_PROTOCOL))


def make_server(preset: str, mode: str):
    from gradviz.engine.process import Server
    from gradviz.model.presets import load_preset

    s = load_preset(preset)
    s.options.mode, s.options.api = mode, "value_and_grad"
    s.options.steps, s.options.until_loss = 100_000_000, None
    srv = Server(Pipe())
    srv.build(1, s.to_dict())
    srv.start()
    return srv


def app_rate(srv, seconds: float) -> float:
    u0, t0 = srv.engine.updates, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        srv.train_slice()
    return (srv.engine.updates - u0) / (time.perf_counter() - t0)


def bare_rate(call, seconds: float) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        float(call().asnumpy())  # the seed's loop reads the loss every step
        n += 1
    return n / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("preset")
    ap.add_argument("mode", choices=["pynative", "graph"])
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--profile", type=float, default=0.0, help="seconds of the engine's loop under cProfile")
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()

    from gradviz.engine.devices import prepare_process

    prepare_process(a.mode, "CPU")
    import bench

    call = bench.bare_step(a.mode, preset=a.preset)
    float(call().asnumpy())  # compiles in Graph mode
    srv = make_server(a.preset, a.mode)
    app_rate(srv, 2.0)  # the first Start: compiles, measures the steps per call, the side pass
    bare_rate(call, 0.5)
    ratios = []
    for i in range(a.pairs):
        b = bare_rate(call, a.seconds)
        r = app_rate(srv, a.seconds)
        ratios.append(r / b)
        print(f"pair {i + 1}: bare {b:,.0f} steps/s, app {r:,.0f}: {r / b:.3f}", flush=True)
    e = srv.engine
    print(
        f"{a.preset} {a.mode}: app / bare median {statistics.median(ratios):.3f} "
        f"({min(ratios):.3f}-{max(ratios):.3f}, {a.pairs} pairs of {a.seconds:g} s); "
        f"{e.batch_size} steps per call; {srv.conn.sent} messages, {srv.conn.bytes / 1e6:.1f} MB sent"
    )
    if a.profile:
        pr = cProfile.Profile()
        u0, t0 = e.updates, time.perf_counter()
        pr.enable()
        while time.perf_counter() - t0 < a.profile:
            srv.train_slice()
        pr.disable()
        n = e.updates - u0
        dt = time.perf_counter() - t0
        print(f"\nprofiled: {n / dt:,.0f} steps/s, {dt / n * 1e6:.0f} us a step")
        st = pstats.Stats(pr)
        st.sort_stats("tottime").print_stats(a.top)
        st.sort_stats("cumulative").print_stats(a.top)
    e.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
