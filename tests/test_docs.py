"""The documentation describes the code: the README is a short front page whose links resolve, the
docs' op table lists every op kind, and no comment, docstring or README line carries benchmark
figures or development history (those belong in benchmarks/RESULTS.md). Pure text checks."""

import ast
import dataclasses
import io
import re
import tokenize
from pathlib import Path

import pytest

from gradviz.engine.protocol import TASKS
from gradviz.model.ops import KINDS
from gradviz.model.runstate import Event
from gradviz.model.session import Options

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
README_MAX_LINES = 150

# what a lab notebook writes and a description of the code does not: measured rates and times,
# before/after figures, and which work session did what. Design constants ("every 0.3 s", "up to
# 64 steps or 10 ms", "the 2 s watchdog") and a "training session" stay legitimate.
FIGURES = r"""
      \b\d[\d,]*(\.\d+)?\s*steps/s                             # a measured rate
    | \b\d+(\.\d+)?\s*(us|µs)\b                               # a time in microseconds
    | \b\d+(\.\d+)?\s*[-–]\s*\d+(\.\d+)?\s*%                   # a measured share, as a range
    | \b\d+\.\d+\s*ms\b | \b\d+(\.\d+)?\s*[-–]\s*\d+(\.\d+)?\s*ms\b  # a measured time or range
    | \b\d[\d,.]*\s*(ms|s|MB|KB|GB|%)?\s*(->|→)\s*\d           # a figure before -> after
    | \bmedian\ \d                                            # a measured median
"""
HISTORY = r"""
      \bmeasured\ (here|with|on\ this)\b                       # "measured here: ..."
    | \b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(st|nd|rd|th))
      \ (work\ )?session\b                                    # an ordinal work session
    | \b(earlier|previous|last|this)\ work\ session\b
    | \bissues?\ \d+                                         # "issue 14": history, not a reason
"""
NOTEBOOK = re.compile(FIGURES + "|" + HISTORY, re.IGNORECASE | re.VERBOSE)
# the docs/ pages may give a rate as an example or a limit ("set the speed to 50 steps/s")
NOTEBOOK_HISTORY = re.compile(HISTORY, re.IGNORECASE | re.VERBOSE)


def _comments_and_docstrings(path: Path):
    """(line, text) of every comment and docstring of a Python file."""
    src = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                for i, line in enumerate(doc.splitlines()):
                    yield node.body[0].lineno + i, line


def _notebook_lines(texts, where: str, pattern: re.Pattern = NOTEBOOK) -> list[str]:
    return [f"{where}:{n}: {t.strip()}" for n, t in texts if pattern.search(t)]


def test_the_pattern_tells_figures_from_design_constants():
    for notebook in (
        "MLP preset 5,900 -> 7,200 steps/s",
        "calls: median 450 us, fastest 171",
        "it took 10-27 ms in PyNative against 0.8-2.2 ms compiled",
        "the eighth " + "session's machine",  # split, so that this guard's own sample is not a hit
        "(issue 14: ready to train in 1.5 s)",
        "Measured here on the tutorial graph",
        "a PyNative one cost 3-8% of the steps",
    ):
        assert NOTEBOOK.search(notebook), notebook
    for fine in (
        "the 2 s watchdog, seen on the next 33 ms tick",
        "up to 64 steps or 10 ms",
        "build this session into a fresh run",
        "Engine._tune measures the steps per call",
        "grad(f, 2) -> dw",
        "speed must be 0 or 0.1 to 10000 steps per second",
    ):
        assert not NOTEBOOK.search(fine), fine


@pytest.mark.parametrize("package", ["gradviz", "tests", "tools", "benchmarks"])
def test_comments_and_docstrings_carry_no_figures_or_history(package):
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if path.name == "test_docs.py":  # its own examples
            continue
        found += _notebook_lines(_comments_and_docstrings(path), str(path.relative_to(ROOT)))
    assert not found, "figures and history go to benchmarks/RESULTS.md:\n" + "\n".join(found)


def test_readme_is_a_short_front_page_without_figures_or_history():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines: move the rest into docs/"
    found = _notebook_lines(enumerate(lines, 1), "README.md")
    found += _notebook_lines(
        ((n, t) for d in DOCS for n, t in enumerate(d.read_text(encoding="utf-8").splitlines(), 1)),
        "docs",
        NOTEBOOK_HISTORY,
    )
    assert not found, "figures and history go to benchmarks/RESULTS.md:\n" + "\n".join(found)


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("doc", [README, *DOCS, ROOT / "benchmarks" / "RESULTS.md"], ids=lambda p: p.name)
def test_relative_links_resolve(doc):
    text = doc.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md":
            headings = re.findall(r"(?m)^#+ (.+)$", file.read_text(encoding="utf-8"))
            if anchor not in {_anchor(h) for h in headings}:
                broken.append(target)
    assert not broken, f"{doc.name}: links that lead nowhere: {broken}"


def _section(title: str) -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


@pytest.mark.parametrize(
    "title, names, source",
    [
        ("The op table", lambda: KINDS, "gradviz/model/ops.py"),
        ("The option table", lambda: [f.name for f in dataclasses.fields(Options)], "gradviz/model/session.py"),
        ("The task table", lambda: [t.name for t in TASKS], "gradviz/engine/protocol.py"),
    ],
)
def test_architecture_tables_have_a_row_for_each_entry_in_the_code(title, names, source):
    table = _section(title)
    missing = [n for n in names() if f"| `{n}` |" not in table]
    assert not missing, f"docs/architecture.md, {title}, lacks {missing}: add their rows from {source}"


def test_the_run_state_diagram_names_every_event():
    diagram = _section("The run-state diagram")
    missing = [e.value for e in Event if f"`{e.value}`" not in diagram and f": {e.value}" not in diagram]
    assert not missing, f"docs/architecture.md's run-state diagram lacks {missing} (gradviz/model/runstate.py)"
