"""Hygiene a contributor expects, enforced by the test command CI runs: ruff's lint and format
checks, and the import contracts of pyproject.toml ([tool.importlinter]: the core never imports
Qt nor the window, the window never imports MindSpore, the model sits below the engine and the
formats). The tools come with the `test` extra; a missing one fails rather than skips, so the
checks cannot silently disappear."""

import shutil
import subprocess
import sysconfig
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


def _run(tool: str, *args: str) -> subprocess.CompletedProcess:
    exe = shutil.which(tool, path=sysconfig.get_path("scripts"))
    assert exe, f"{tool} is not installed next to this Python: pip install -e '.[test]'"
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_lint():
    r = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format():
    r = _run("ruff", "format", "--no-cache", "--check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_import_contracts():
    r = _run("lint-imports", "--no-cache", "--no-logo")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout, r.stdout
