"""An engine that runs out of memory says so: how much the graph needs and what to do, not
MindSpore's "Unknown Error!"."""

import json
import os
import subprocess
import sys
from pathlib import Path

from gradviz.engine import protocol as msg
from gradviz.engine.memory import ran_out_of_memory, step_bytes
from gradviz.engine.process import Server
from gradviz.model.session import Session

ROOT = Path(__file__).resolve().parents[1]
N, SIDE = 8, 1000  # 8 Parameters of 1e6 elements: x(1000) @ p0 @ p1 ... @ p7 -> MSE


def _chain() -> dict:
    nodes = [
        {"name": "x", "kind": "Input", "shape": [SIDE], "init": "ones", "pos": [0, 0]},
        {"name": "y", "kind": "Input", "shape": [SIDE], "init": "zeros", "pos": [0, 100]},
    ]
    prev = "x"
    for i in range(N):
        nodes.append({"name": f"p{i}", "kind": "Parameter", "shape": [SIDE, SIDE], "init": "randn", "pos": [i, 1]})
        nodes.append({"name": f"m{i}", "kind": "MatMul", "inputs": {"a": prev, "b": f"p{i}"}, "pos": [i, 0]})
        prev = f"m{i}"
    nodes.append({"name": "loss", "kind": "MSE", "inputs": {"pred": prev, "target": "y"}, "pos": [N, 0]})
    nodes.append({"name": "out", "kind": "Output", "inputs": {"x": "loss"}, "pos": [N + 1, 0]})
    return {"format": "gradviz-session", "version": 1, "name": "oom", "graph": {"nodes": nodes}, "options": {}}


def _need_mb() -> int:
    """Independently: every node's value and gradient (the parameters, the matmul outputs, x, y,
    the loss), and each parameter's value and gradient in the step's record, float32, in MB."""
    values = N * SIDE * SIDE + N * SIDE + 2 * SIDE + 1
    return round(4 * (2 * values + 2 * N * SIDE * SIDE) / 2**20)


# the engine's own loop in a process whose address space is capped just above what the built
# run takes: the first step cannot get the memory it needs
CAPPED = r"""
import json, resource, sys
from gradviz.engine.devices import prepare_process, quiet_mindspore
from gradviz.engine import protocol as msg
from gradviz.engine.process import Server

class Conn:
    sent = []
    def send(self, m):
        self.sent.append(m)

quiet_mindspore()
prepare_process("pynative", "CPU")
server = Server(Conn())
server.handle(msg.Build(1, json.loads(sys.stdin.read())))
assert any(isinstance(m, msg.Built) for m in Conn.sent), Conn.sent
vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:")) * 1024
resource.setrlimit(resource.RLIMIT_AS, (vm + (32 << 20), resource.getrlimit(resource.RLIMIT_AS)[1]))
server.handle(msg.Step())
errors = [m for m in Conn.sent if isinstance(m, msg.Error)]
print(json.dumps([e.message for e in errors]))
"""


def test_an_engine_out_of_memory_says_what_the_graph_needs_and_what_to_do():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GLOG_v": "3"}
    r = subprocess.run(
        [sys.executable, "-c", CAPPED], input=json.dumps(_chain()), capture_output=True, text=True, timeout=300, env=env
    )
    assert r.returncode == 0, r.stderr[-3000:]
    (text,) = json.loads(r.stdout.strip().splitlines()[-1])
    assert text.startswith("The engine ran out of memory ("), text
    assert f"needs about {_need_mb()} MB for one training step" in text
    assert "up to 256 MB more (a quarter of the history budget)" in text
    assert "Use a smaller graph" in text and "lower the history budget" in text


class _Sent:
    def __init__(self):
        self.sent = []

    def send(self, m):
        self.sent.append(m)


def test_an_unknown_error_counts_as_out_of_memory_only_when_the_memory_cannot_be_had():
    session = Session.from_dict(_chain())
    assert round(step_bytes(session) / 2**20) == _need_mb()
    unknown = RuntimeError("Unknown Error!")
    assert not ran_out_of_memory(unknown, 1 << 20)
    assert ran_out_of_memory(unknown, 1 << 62)  # no machine can reserve this much
    assert ran_out_of_memory(RuntimeError("Allocate memory failed\n- C++ Call Stack"), 1)
    assert ran_out_of_memory(MemoryError("Unable to allocate 458. MiB"), 1)
    # any other error is reported as it was
    server = Server(_Sent())
    server.session = session
    server.fail(ValueError("shapes do not match"))
    (error,) = [m for m in server.conn.sent if isinstance(m, msg.Error)]
    assert error.message == "ValueError: shapes do not match"


def test_the_window_says_it_in_its_language(qtbot, win):
    from gradviz.engine.memory import out_of_memory
    from gradviz.ui import language

    language.set_language("zh_CN")
    try:
        win.controller.errorOccurred.emit(out_of_memory(3 << 30, 256 << 20, "MemoryError: x"), "")
        assert win.errorBanner.text().startswith("⚠ 引擎内存不足（MemoryError: x）。这个图训练一步大约需要 3.0 GB")
    finally:
        language.set_language("en")
