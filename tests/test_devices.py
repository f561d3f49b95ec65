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
    r = subprocess.run(
        [sys.executable, "-c", PROBE, mode, device], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux-only")
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_both_modes_on_the_cpu_run_host_blocking_on_one_core(mode):
    d = _probe(mode)
    assert d["blocking"] == "1"
    if len(d["before"]) > 1:
        assert d["pinned"] == d["before"][-1] and d["after"] == [d["before"][-1]]
    else:
        assert d["pinned"] is None and d["after"] == d["before"]
    assert d["again"] is None  # the same mode again: nothing to do
    assert "needs a new process" in d["other"]
    assert not d["mindspore_loaded"]  # settings first, MindSpore later


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux-only")
@pytest.mark.parametrize("mode,device", [("graph", "GPU"), ("pynative", "GPU"), ("pynative", "Ascend")])
def test_other_devices_keep_mindspores_pipeline(mode, device):
    d = _probe(mode, device)
    assert d["blocking"] is None and d["pinned"] is None and d["after"] == d["before"]
    assert "needs a new process" in d["other"]
    assert not d["mindspore_loaded"]


COMPILE_FAILURE = r"""
import json, sys
import numpy as np
from gradviz.cli import main
from gradviz.engine.devices import artefact_dir

# set up as `gradviz run` does (the app's engine process uses the same devices.quiet_mindspore)
assert main(["run", "--preset", "tutorial", "--mode", "graph", "--steps", "2", "--out", sys.argv[1]]) == 0
import mindspore as ms
from mindspore import Tensor, ops


@ms.jit
def mismatched(x):
    return ops.matmul(x, Tensor(np.ones((4, 2), np.float32)))  # (3,) @ (4, 2): fails to compile


try:
    mismatched(Tensor(np.ones(3, np.float32)))
    message = None
except RuntimeError as e:
    message = str(e)
print(json.dumps({"message": message, "dir": str(artefact_dir())}))
"""


def test_a_graph_mode_compile_failure_leaves_nothing_in_the_working_directory(tmp_path):
    """MindSpore writes rank_0/om/analyze_fail.ir (and kernel_meta/, *.ir dumps) to the working
    directory unless told otherwise: the set-up sends them to GradViz's cache folder."""
    from gradviz.engine.devices import ARTEFACT_VARIABLES

    cwd, cache = tmp_path / "work", tmp_path / "cache"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ARTEFACT_VARIABLES}
    env.update(
        XDG_CACHE_HOME=str(cache),
        LOCALAPPDATA=str(cache),
        PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]),
    )
    script = tmp_path / "compile_failure.py"  # MindSpore compiles only functions it can read from a file
    script.write_text(COMPILE_FAILURE)
    r = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "out.jsonl")],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout.splitlines()[-1])
    assert d["message"] and "shape" in d["message"]  # it did fail to compile
    written = Path(d["dir"]) / "rank_0" / "om" / "analyze_fail.ir"
    assert written.is_file() and str(written) in d["message"]  # the message says where it went
    assert sorted(p.name for p in cwd.iterdir()) == []
    assert (tmp_path / "out.jsonl").read_text().count('"type": "step"') == 2
