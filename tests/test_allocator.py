"""The allocator setting of a process that trains (gradviz/engine/allocator.py): blocks of a
megabyte and more are mapped afresh and given back to the system when freed, even after a larger
block was freed (glibc would otherwise raise its threshold and keep serving them from the heap,
where the `big` preset's memory grew for as long as it trained)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# after a 2.4 MB block is freed, does a 2 MB block get a mapping of its own?
PROBE = r"""
import ctypes, sys
import numpy as np
from gradviz.engine.allocator import return_large_blocks
if sys.argv[1] == "on":
    assert return_large_blocks()
class Info(ctypes.Structure):  # glibc's struct mallinfo2
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
mallinfo2 = ctypes.CDLL(None).mallinfo2
mallinfo2.restype = Info
a = np.ones(2_400_000 // 8)
del a
before = mallinfo2().hblks  # blocks mapped of their own
b = np.ones(2_000_000 // 8)
print(mallinfo2().hblks - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
@pytest.mark.parametrize("setting, new_mappings", [("off", 0), ("on", 1)])
def test_large_blocks_are_mapped_and_given_back_after_a_larger_one_was_freed(setting, new_mappings):
    r = subprocess.run([sys.executable, "-c", PROBE, setting], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) == new_mappings


def test_gradviz_run_sets_it_before_training(monkeypatch, capsys):
    import gradviz.engine.allocator as allocator
    from gradviz.cli import main

    calls = []
    monkeypatch.setattr(allocator, "return_large_blocks", lambda: calls.append(True) or True)
    assert main(["run", "--steps", "1"]) == 0
    assert calls == [True] and '"reason": "max_steps"' in capsys.readouterr().out
