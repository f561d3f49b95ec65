"""Hygiene a contributor expects, enforced by CI: `.ci/run` runs ruff's lint and format checks
and the import contracts of pyproject.toml ([tool.importlinter]) as their own steps before
pytest, and it runs the README's test command word for word."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKS = (".venv/bin/ruff check .", ".venv/bin/ruff format --check .", ".venv/bin/lint-imports")
PYTEST = ".venv/bin/python -m pytest"


def _ci_command() -> str:
    lines = [s for s in (ROOT / ".ci" / "run").read_text().splitlines() if s.startswith("python3 -m venv")]
    assert len(lines) == 1, lines
    return lines[0]


def test_ci_runs_the_readme_command():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"^" + re.escape(_ci_command()) + r"$", readme, re.MULTILINE), "README and .ci/run differ"


def test_lint_and_import_contracts_run_before_pytest():
    steps = _ci_command().split(" && ")
    assert steps[-1] == PYTEST
    for check in CHECKS:
        assert check in steps, check
        assert steps.index(check) < steps.index(PYTEST), check
