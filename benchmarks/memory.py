"""Memory and training rate of a large graph beside the tutorial (`bench.py --only memory`).

For each preset (the tutorial, digits: epochs of mini-batches with their evaluations, and `big`:
one 1000x1000 Parameter) and mode: the bare MindSpore loop of that graph (bench.bare_step: the
generated program's own train_step, nothing recorded), `gradviz run`
headless (steps/s and peak RSS, its output read and counted as a consumer would), and the app
training flat out (steps/s, the window's and the engine's RSS at the end, and the history's
bytes per step). `seconds` per configuration: about 20 for a full bench run; the 10-minute soak
is `--only memory --soak 600`, which runs the `big` preset only."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bare_child(conn, preset: str, mode: str, seconds: float) -> None:
    try:
        conn.send(_bare_loop(preset, mode, seconds))
    except Exception as e:  # said by the parent
        conn.send(f"{type(e).__name__}: {e}")


def _bare_loop(preset: str, mode: str, seconds: float) -> float:
    from bench import bare_step  # the throughput rows' bare loop (a Dataset node's batches fed)

    call = bare_step(mode, preset=preset)
    float(call().asnumpy())
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        float(call().asnumpy())  # the loss read every step, as the seed's loop does
        n += 1
    return n / (time.perf_counter() - t0)


def bare_rate(preset: str, mode: str, seconds: float) -> float:
    ctx = multiprocessing.get_context("spawn")
    a, b = ctx.Pipe()
    p = ctx.Process(target=_bare_child, args=(b, preset, mode, seconds))
    p.start()
    b.close()  # so that a child that dies is an EOFError here, not a wait forever
    try:
        rate = a.recv()
    finally:
        p.join()
    if isinstance(rate, str):
        raise RuntimeError(f"the bare loop of {preset} ({mode}) failed: {rate}")
    return rate


def headless(preset: str, mode: str, seconds: float) -> dict:
    """`gradviz run` flat out for `seconds`, then SIGINT: steps/s, peak RSS, bytes written a step."""
    import psutil

    env = dict(os.environ, PYTHONPATH=str(ROOT), GLOG_v="3")
    cmd = [sys.executable, str(ROOT / "main.py"), "run", "--preset", preset, "--mode", mode, "--steps", "100000000"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=ROOT / "benchmarks")
    counts = {"lines": 0, "bytes": 0, "first": None}

    def read():
        for line in p.stdout:
            counts["lines"] += 1
            counts["bytes"] += len(line)
            if counts["lines"] == 2:
                counts["first"] = time.perf_counter()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    proc, peak, samples = psutil.Process(p.pid), 0, []
    t0 = time.perf_counter()
    while counts["first"] is None and p.poll() is None and time.perf_counter() - t0 < 120:
        time.sleep(0.1)
    start, n0 = time.perf_counter(), counts["lines"]
    while time.perf_counter() - start < seconds:
        time.sleep(0.5)
        rss = proc.memory_info().rss
        peak = max(peak, rss)
        samples.append((round(time.perf_counter() - start, 1), rss >> 20))
    n1, t1 = counts["lines"], time.perf_counter()
    p.send_signal(signal.SIGINT)
    p.wait(60)
    reader.join(10)
    steps = max(counts["lines"] - 2, 1)
    return {
        "steps_per_s": (n1 - n0) / (t1 - start),
        "peak_rss_mb": peak >> 20,
        "bytes_per_step": counts["bytes"] / steps,
        "exit": p.returncode,
        "rss_mb_over_time": samples[:: max(1, len(samples) // 20)],
    }


def in_app(app, preset: str, mode: str, seconds: float) -> dict:
    """The window training `preset` flat out for `seconds`: steps/s, RSS of both processes."""
    import psutil

    from bench import _run_for, _training_window, _wait

    w = _training_window(app, mode, preset)
    c = w.controller
    try:
        c.start()
        _wait(app, lambda: c.state == "training" and c.step_count > 10)
        me, eng = psutil.Process(), psutil.Process(c.engine_pid)
        s0, t0, samples = c.step_count, time.perf_counter(), []
        step = max(1.0, seconds / 20)
        while time.perf_counter() - t0 < seconds:
            _run_for(step)
            samples.append(
                (round(time.perf_counter() - t0, 1), me.memory_info().rss >> 20, eng.memory_info().rss >> 20)
            )
        rate = (c.step_count - s0) / (time.perf_counter() - t0)
        h = c.history
        c.pause()
        _wait(app, lambda: c.state == "paused")
        return {
            "steps_per_s": rate,
            "window_rss_mb": samples[-1][1],
            "engine_rss_mb": samples[-1][2],
            "history_bytes_per_step": h.row_bytes(h.params.shape[1] + h.grads.shape[1] + 2, h.aux.shape[1]),
            "history_mb": h.nbytes() / 2**20,
            "history_steps_kept": h.n,
            "stride": h.stride,
            "rss_mb_over_time": samples,
        }
    finally:
        w.close()


def measure(seconds: float, presets=("tutorial", "digits", "big"), modes=("pynative", "graph")) -> dict:
    from bench import _app

    app = _app()
    out = {}
    for preset in presets:
        for mode in modes:
            key = f"{preset}_{mode}"
            out[key] = {
                "bare_steps_per_s": bare_rate(preset, mode, min(seconds, 20.0)),
                "headless": headless(preset, mode, seconds),
                "app": in_app(app, preset, mode, seconds),
            }
            print(key, {k: v if not isinstance(v, dict) else _brief(v) for k, v in out[key].items()}, flush=True)
    return out


def _brief(d: dict) -> dict:
    return {k: (round(v, 1) if isinstance(v, float) else v) for k, v in d.items() if k != "rss_mb_over_time"}


def rows(res: dict) -> list[tuple]:
    """Rows for bench.py's table: measure, bare, app, ratio, budget, met."""
    out = []
    for key, r in res.items():
        preset, mode = key.split("_", 1)
        a, h = r["app"], r["headless"]
        out.append(
            (
                f"memory: {preset}, {mode}: steps/s (app; headless {h['steps_per_s']:.0f})",
                f"{r['bare_steps_per_s']:.0f}",
                f"{a['steps_per_s']:.0f}",
                f"{a['steps_per_s'] / r['bare_steps_per_s']:.2f}",
                "reported",
                True,
            )
        )
        out.append(
            (
                f"memory: {preset}, {mode}: history bytes/step; RSS window / engine / headless peak (MB)",
                "",
                f"{a['history_bytes_per_step']:,}; {a['window_rss_mb']} / {a['engine_rss_mb']} / {h['peak_rss_mb']}",
                "",
                "history <= 1 GB",
                a["history_mb"] <= 1024,
            )
        )
    return out
