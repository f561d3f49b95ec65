"""Per-process runtime settings (devices.prepare_process), checked in fresh processes."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = r"""
import json, os, sys
from gradviz.engine.devices import DeviceError, prepare_process
before = sorted(os.sched_getaffinity(0))
pinned = prepare_process(sys.argv[1], sys.argv[2])
again = prepare_process(sys.argv[1], sys.argv[2])
try:
    prepare_process("graph" if sys.argv[1] == "pynative" else "pynative")
    other = "allowed"
except DeviceError as e:
    other = str(e)
print(json.dumps({"before": before, "after": sorted(os.sched_getaffinity(0)), "pinned": pinned, "again": again,
                  "blocking": os.environ.get("MS_DEV_HOST_BLOCKING_RUN"), "other": other,
                  "mindspore_loaded": "mindspore" in sys.modules}))
"""


def _probe(mode: str, device: str = "CPU") -> dict:
    env = {k: v for k, v in os.environ.items() if k != "MS_DEV_HOST_BLOCKING_RUN"}
    r = subprocess.run([sys.executable, "-c", PROBE, mode, device], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux-only")
def test_pynative_runs_host_blocking_on_one_core():
    d = _probe("pynative")
    assert d["blocking"] == "1"
    if len(d["before"]) > 1:
        assert d["pinned"] == d["before"][-1] and d["after"] == [d["before"][-1]]
    else:
        assert d["pinned"] is None and d["after"] == d["before"]
    assert d["again"] is None  # the same mode again: nothing to do
    assert "needs a new process" in d["other"]
    assert not d["mindspore_loaded"]  # settings first, MindSpore later


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux-only")
@pytest.mark.parametrize("mode,device", [("graph", "CPU"), ("pynative", "GPU"), ("pynative", "Ascend")])
def test_graph_mode_and_other_devices_keep_mindspores_pipeline(mode, device):
    d = _probe(mode, device)
    assert d["blocking"] is None and d["pinned"] is None and d["after"] == d["before"]
    assert "needs a new process" in d["other"]
    assert not d["mindspore_loaded"]
