"""Bad input, faults and hostile files, as a new user or an attacker produces them: each case
asserts the message (or exit code, or window state) and that nothing was lost: the file that was
there keeps its bytes and mode, the document being edited stays as it was, no temporary file is
left behind."""

import errno
import io
import re
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import standin
from gradviz.cli import main
from gradviz.model.codegen import generate, run_layouts
from gradviz.formats.records import HistoryWriter
from gradviz.formats.run_reader import read_history
from gradviz.safe_io import FileProblem, SafeOutput, WriteFailed, atomic_write_text, read_bytes, read_text_file
from gradviz.model.formatting import quote, show_path
from gradviz.model.presets import load_preset
from gradviz.model.session import SessionError, load_session, save_session

ROOT = Path(__file__).resolve().parents[1]


def listing(folder):
    return sorted(p.name for p in Path(folder).iterdir())


# -- a valid run file, written by the real writer without MindSpore --------------------------------
def make_run(path, steps=6, preset="tutorial", aux=True, end=True):
    s = load_preset(preset)
    s.options.aux_output = aux and bool(s.graph.aux_outputs())
    program = generate(s.graph, s.options)
    shapes = s.graph.check()
    pl, gl, al = run_layouts(program, shapes)
    rng = np.random.default_rng(1)
    buf = io.StringIO()
    w = HistoryWriter(buf, pl, gl, al)
    w.write_run(
        dict(s.options.to_dict(), source="test"),
        {n: np.ones(shapes[n]) for n in program.input_names},
        session=s.to_dict(),
        program=program.source,
    )
    rows = []
    for k in range(1, steps + 1):
        row = [rng.standard_normal(t).astype(np.float32) for t in (pl.total, gl.total, al.total)]
        loss = np.float32(rng.standard_normal())
        w.write_step(k, loss, *row, 0.25, lr=0.01 if k <= steps // 2 else 0.005)
        rows.append((loss, row))
    if end:
        w.write_end("max_steps", steps)
    Path(path).write_text(buf.getvalue())
    return rows


def test_a_run_written_before_the_learning_rate_was_recorded_reads_with_it_unknown(tmp_path):
    p = tmp_path / "run.jsonl"
    make_run(p, 4)
    lines = p.read_text().splitlines()
    p.write_text("\n".join(lines[:1] + [re.sub(r'"lr": [0-9.e-]+, ', "", ln) for ln in lines[1:]]) + "\n")
    lr = read_history(p)[2][6]
    assert np.isnan(lr).all() and len(lr) == 4


def test_a_valid_run_reads_back_exactly(tmp_path):
    p = tmp_path / "run.jsonl"
    rows = make_run(p, 40)
    session, (pl, gl, al), (steps, loss, params, grads, aux, ms, lr), reason, _ = read_history(p)
    assert reason == "max_steps" and list(steps) == list(range(1, 41))
    assert np.array_equal(lr, np.float32([0.01] * 20 + [0.005] * 20))
    assert np.array_equal(loss, np.array([r[0] for r in rows], np.float32))
    assert np.array_equal(params, np.stack([r[1][0] for r in rows]))
    assert np.array_equal(grads, np.stack([r[1][1] for r in rows]))
    assert np.array_equal(aux, np.stack([r[1][2] for r in rows])) and np.all(ms == np.float32(0.25))


@pytest.mark.parametrize("variant", ["crlf", "blank lines", "compact json", "no end record", "reordered keys"])
def test_other_writers_layouts_read_the_same(tmp_path, variant):
    p = tmp_path / "run.jsonl"
    make_run(p, 5)
    want = read_history(p)
    lines = p.read_text().splitlines()
    if variant == "crlf":
        text = "\r\n".join(lines) + "\r\n"
    elif variant == "blank lines":
        text = "\n\n".join(lines) + "\n\n\n"
    elif variant == "compact json":
        text = "\n".join(json.dumps(json.loads(ln), separators=(",", ":")) for ln in lines)
    elif variant == "no end record":
        text = "\n".join(lines[:-1])
    else:
        text = "\n".join(json.dumps(dict(reversed(list(json.loads(ln).items())))) for ln in lines)
    p.write_text(text)
    got = read_history(p)
    assert all(np.array_equal(a, b) for a, b in zip(got[2], want[2]))
    assert got[3] == ("stopped" if variant == "no end record" else "max_steps")


def _edit_step(k, fn):
    """A mutation of step record k (1-based line k+1)."""

    def mut(lines):
        rec = json.loads(lines[k])
        fn(rec)
        lines[k] = json.dumps(rec)
        return lines

    return mut


def _edit_head(fn):
    def mut(lines):
        rec = json.loads(lines[0])
        fn(rec)
        lines[0] = json.dumps(rec)
        return lines

    return mut


def _set(rec, path, value):
    d = rec
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


BAD_RUNS = {
    "step as text": (_edit_step(2, lambda r: _set(r, ["step"], "2")), 'line 3: "step" must be a whole number'),
    "step as float": (_edit_step(2, lambda r: _set(r, ["step"], 2.0)), 'line 3: "step" must be a whole number'),
    "step as 2.5": (_edit_step(2, lambda r: _set(r, ["step"], 2.5)), 'line 3: "step" must be a whole number'),
    "step true": (_edit_step(2, lambda r: _set(r, ["step"], True)), 'line 3: "step" must be a whole number'),
    "step zero": (_edit_step(1, lambda r: _set(r, ["step"], 0)), 'line 2: "step" must be a whole number'),
    "step negative": (_edit_step(1, lambda r: _set(r, ["step"], -4)), 'line 2: "step" must be a whole number'),
    "step huge": (_edit_step(1, lambda r: _set(r, ["step"], 10**30)), 'line 2: "step" must be a whole number'),
    "step null": (_edit_step(3, lambda r: _set(r, ["step"], None)), 'line 4: "step" must be a whole number'),
    "steps skip": (_edit_step(3, lambda r: _set(r, ["step"], 9)), 'line 4: "step" is 9, expected 3'),
    "steps repeat": (_edit_step(3, lambda r: _set(r, ["step"], 2)), 'line 4: "step" is 2, expected 3'),
    "step missing": (_edit_step(2, lambda r: r.pop("step")), 'line 3: the field "step" is missing'),
    "loss true": (_edit_step(2, lambda r: _set(r, ["loss"], True)), 'line 3: "loss" must be a number or null'),
    "loss text": (_edit_step(2, lambda r: _set(r, ["loss"], "1.0")), 'line 3: "loss" must be a number or null'),
    "loss list": (_edit_step(2, lambda r: _set(r, ["loss"], [1.0])), 'line 3: "loss" must be a number or null'),
    "loss missing": (_edit_step(2, lambda r: r.pop("loss")), 'line 3: the field "loss" is missing'),
    "loss beyond float32": (
        _edit_step(4, lambda r: _set(r, ["loss"], 1e39)),
        'line 5: "loss" is 1e+39, out of the range of float32',
    ),
    "param beyond float32": (_edit_step(4, lambda r: _set(r, ["params", "b", 1], -1e300)), 'line 5: "params" b[1]'),
    "params missing": (_edit_step(2, lambda r: r.pop("params")), 'line 3: the field "params" is missing'),
    "params not object": (_edit_step(2, lambda r: _set(r, ["params"], [1, 2])), 'line 3: "params" must hold w, b'),
    "params extra tensor": (_edit_step(2, lambda r: _set(r, ["params", "q"], 1.0)), 'line 3: "params" must hold w, b'),
    "params missing tensor": (_edit_step(2, lambda r: r["params"].pop("b")), 'line 3: "params" must hold w, b'),
    "param wrong shape": (
        _edit_step(2, lambda r: _set(r, ["params", "w"], [[0.0] * 5] * 3)),
        'line 3: "params" "w" must be a list of 5',
    ),
    "param flat": (_edit_step(2, lambda r: _set(r, ["params", "b"], 1.0)), 'line 3: "params" "b" must be a list of 3'),
    "param text value": (
        _edit_step(2, lambda r: _set(r, ["params", "b", 0], "x")),
        'line 3: "params" "b"[0] must be a number or null, found text',
    ),
    "param bool value": (
        _edit_step(2, lambda r: _set(r, ["params", "w", 1, 2], False)),
        'line 3: "params" "w"[1][2] must be a number or null',
    ),
    "grad object value": (
        _edit_step(2, lambda r: _set(r, ["grads", "b", 2], {})),
        'line 3: "grads" "b"[2] must be a number or null, found an object',
    ),
    "grads missing": (_edit_step(5, lambda r: r.pop("grads")), 'line 6: the field "grads" is missing'),
    "aux missing": (_edit_step(2, lambda r: r.pop("aux")), 'line 3: the field "aux" is missing'),
    "aux wrong name": (_edit_step(2, lambda r: _set(r, ["aux"], {"y": [1, 2, 3]})), 'line 3: "aux" must hold z'),
    "step_ms text": (_edit_step(2, lambda r: _set(r, ["step_ms"], "fast")), 'line 3: "step_ms" must be a number'),
    "step_ms negative": (
        _edit_step(2, lambda r: _set(r, ["step_ms"], -1.0)),
        'line 3: "step_ms" must be a number of milliseconds',
    ),
    "unknown step field": (_edit_step(2, lambda r: _set(r, ["evil"], 1)), 'line 3: unknown field(s) "evil"'),
    "unknown type": (_edit_step(2, lambda r: _set(r, ["type"], "stp")), 'line 3: "type" must be "step" or "end"'),
    "record is a list": (
        lambda ls: ls[:2] + ["[1, 2, 3]"] + ls[3:],
        "line 3: expected a step record (an object), found a list",
    ),
    "NaN constant": (
        lambda ls: ls[:2] + [ls[2].replace('"loss": ', '"loss": NaN, "x": ')] + ls[3:],
        "line 3 is not valid JSON",
    ),
    "Infinity constant": (
        lambda ls: ls[:2] + [ls[2].replace('"step_ms": 0.25', '"step_ms": Infinity')] + ls[3:],
        "line 3 is not valid JSON",
    ),
    "torn last line": (lambda ls: ls[:4] + [ls[4][:50]], "line 5 is not valid JSON"),
    "torn middle line": (lambda ls: ls[:2] + [ls[2][:-3]] + ls[3:], "line 3 is not valid JSON"),
    "binary line": (lambda ls: ls[:2] + ["\x00\x01\x02garbage"] + ls[3:], "line 3 is not valid JSON"),
    "line after end": (lambda ls: ls + [ls[1]], "line 9: nothing may follow the end record (line 8)"),
    "end reason unknown": (
        lambda ls: ls[:-1] + ['{"type": "end", "reason": "boom", "steps": 6}'],
        'line 8: "reason" must be one of',
    ),
    "end steps wrong": (
        lambda ls: ls[:-1] + ['{"type": "end", "reason": "max_steps", "steps": 99}'],
        'line 8: "steps" is 99 but the last step is 6',
    ),
    "end steps text": (
        lambda ls: ls[:-1] + ['{"type": "end", "reason": "max_steps", "steps": "6"}'],
        'line 8: "steps" must be a whole number',
    ),
    "end unknown field": (
        lambda ls: ls[:-1] + ['{"type": "end", "reason": "max_steps", "steps": 6, "x": 1}'],
        'line 8: unknown field(s) "x"',
    ),
    "version 2": (_edit_head(lambda r: _set(r, ["version"], 2)), "line 1: run version 2 is not supported"),
    "version text": (_edit_head(lambda r: _set(r, ["version"], "1")), 'line 1: "version" must be a whole number'),
    "version missing": (_edit_head(lambda r: r.pop("version")), 'line 1: "version" must be a whole number'),
    "format wrong": (_edit_head(lambda r: _set(r, ["format"], "other")), "not a GradViz history"),
    "head unknown field": (_edit_head(lambda r: _set(r, ["payload"], 1)), 'line 1: unknown field(s) "payload"'),
    "no session": (_edit_head(lambda r: r.pop("session")), "line 1: the run record holds no session"),
    "session invalid": (
        _edit_head(lambda r: _set(r, ["session", "options", "lr"], -1)),
        "line 1: the run's session: learning rate",
    ),
    "config not object": (_edit_head(lambda r: _set(r, ["config"], 3)), 'line 1: "config" must be an object'),
    "config differs": (
        _edit_head(lambda r: _set(r, ["config", "seed"], 7)),
        'line 1: "config" does not match the run\'s session (differs in "seed")',
    ),
    "layout negative shape": (
        _edit_head(lambda r: _set(r, ["layout", "params", "shapes", 0], [-5, 3])),
        'line 1: "layout" "params" does not match',
    ),
    "layout text shape": (
        _edit_head(lambda r: _set(r, ["layout", "params", "shapes", 1], ["3"])),
        'line 1: "layout" "params" does not match',
    ),
    "layout other names": (
        _edit_head(lambda r: _set(r, ["layout", "grads", "names"], ["b", "w"])),
        'line 1: "layout" "grads" does not match',
    ),
    "layout missing": (_edit_head(lambda r: r.pop("layout")), 'line 1: "layout" must be an object'),
    "layout bigger than session": (
        _edit_head(lambda r: _set(r, ["layout", "aux", "shapes", 0], [300])),
        'line 1: "layout" "aux" does not match',
    ),
    "inputs missing": (_edit_head(lambda r: _set(r, ["inputs"], {})), 'line 1: "inputs" must hold x, y'),
    "inputs wrong shape": (
        _edit_head(lambda r: _set(r, ["inputs", "x"], [1.0, 2.0])),
        'line 1: "inputs" "x" must be a list of 5',
    ),
    "program not text": (_edit_head(lambda r: _set(r, ["program"], 5)), 'line 1: "program" must be text'),
    "first line a step": (lambda ls: ls[1:], "not a GradViz history (the first line must be a run record"),
    "first line not json": (lambda ls: ["hello"] + ls[1:], "line 1 is not JSON: not a GradViz history"),
    "empty": (lambda ls: [], "the file is empty"),
    "only blank lines": (lambda ls: ["", "   ", ""], "the file is empty"),
}


@pytest.mark.parametrize("case", list(BAD_RUNS))
def test_bad_run_files_name_the_line_and_field(tmp_path, case):
    mutate, expected = BAD_RUNS[case]
    p = tmp_path / "run.jsonl"
    make_run(p, 6)
    p.write_text("\n".join(mutate(p.read_text().splitlines())) + "\n")
    before = p.read_bytes()
    with pytest.raises(SessionError) as e:
        read_history(p)
    msg = str(e.value)
    assert expected in msg and msg.startswith(str(p)), msg
    assert "\n" not in msg and len(msg) < 600
    assert p.read_bytes() == before


@pytest.mark.parametrize(
    "case", ["step as float", "loss true", "steps skip", "param text value", "loss beyond float32"]
)
def test_bad_lines_deep_in_a_long_run_are_found(tmp_path, case):
    """The bulk path (thousands of lines in one chunk) finds the same problems as the slow path."""
    mutate, expected = BAD_RUNS[case]
    p = tmp_path / "run.jsonl"
    make_run(p, 3000)
    lines = p.read_text().splitlines()
    lines[2000:2008] = mutate(lines[:1] + lines[2000:2008])[1:]  # the case's line 3/5 becomes line 2003/2005
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(SessionError) as e:
        read_history(p)
    want = expected.replace("line 3", "line 2002").replace("line 5", "line 2004").replace("line 4", "line 2003")
    want = want.replace("expected 3", "expected 2001")
    assert want.split(":")[0] in str(e.value) and expected.split(": ", 1)[-1][:20] in str(e.value), str(e.value)


# -- inputs that are not regular files -----------------------------------------------------------------
def test_reading_refuses_what_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    cases = [
        ("/dev/zero", "is a device"),
        ("/dev/null", "is a device"),
        (str(fifo), "is a named pipe"),
        (str(tmp_path), "is a folder"),
        (str(tmp_path / "missing"), "no such file"),
        ("", "no file name"),
    ]
    for path, expected in cases:
        with pytest.raises(FileProblem, match=expected):
            read_bytes(path, 1000)
        with pytest.raises(SessionError, match=expected):
            load_session(path)
        with pytest.raises(SessionError, match=expected):
            read_history(path)


def test_size_limit_is_checked_before_reading(tmp_path):
    p = tmp_path / "big.json"
    p.write_bytes(b" " * 5000)
    with pytest.raises(FileProblem, match="5,000 bytes; at most 4,096"):
        read_bytes(p, 4096)
    p.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(FileProblem, match="not a text file"):
        read_text_file(p, 4096)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file_is_a_message(tmp_path):
    p = tmp_path / "secret.json"
    p.write_text("{}")
    p.chmod(0)
    with pytest.raises(SessionError, match="cannot be read \\(permission denied\\)"):
        load_session(p)


# -- messages: user text shortened and escaped -------------------------------------------------------------
HOSTILE = {
    "5M chars": ("a" * 5_000_000, None),
    "terminal escape": ("\x1b[2J\x1b[31mred", "\\x1b[2J"),
    "newlines": ("one\ntwo\rthree", "one\\ntwo\\rthree"),
    "bidi override": ("abc\u202edcba", "\\u202e"),
    "html": ("<h1>big</h1><img width=20000 src=x>", "<h1>big</h1>"),
    "nul": ("a\x00b", "a\\x00b"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("field", ["name", "kind", "init", "option"])
def test_session_messages_quote_user_text_bounded_and_escaped(tmp_path, case, field):
    text, shown = HOSTILE[case]
    d = load_preset("tutorial").to_dict()
    if field == "name":
        d["graph"]["nodes"][0]["name"] = text
    elif field == "kind":
        d["graph"]["nodes"][0]["kind"] = text
    elif field == "init":
        d["graph"]["nodes"][2]["init"] = text
    else:
        d["options"][text] = 1
    p = tmp_path / "s.json"
    p.write_text(json.dumps(d))
    with pytest.raises(SessionError) as e:
        load_session(p)
    msg = str(e.value)
    assert len(msg) < 500 and "\n" not in msg and "\x1b" not in msg and "\u202e" not in msg and "\x00" not in msg
    if shown:
        assert shown in msg


def test_quote_and_show_path():
    assert quote("w") == '"w"'
    assert len(quote("x" * 10_000_000)) <= 82
    assert show_path("/tmp/a\nb") == "/tmp/a\\nb"
    long = "/" + "d" * 1000 + "/file.json"
    assert len(show_path(long)) <= 160 and show_path(long).endswith("file.json")


# -- outputs ------------------------------------------------------------------------------------------
def _session_file(tmp_path):
    p = tmp_path / "s.json"
    save_session(load_preset("tutorial"), p)
    return p


@pytest.mark.parametrize(
    "target,expected",
    [
        ("/dev/null", "is a device, not a regular file"),
        ("/dev/zero", "is a device, not a regular file"),
        ("{fifo}", "is a named pipe, not a regular file"),
        ("{dir}", "is a folder, not a file"),
        ("{dir}/", "names a folder"),
        ("{dir}/missing/x.jsonl", "the folder"),
        ("{session}", "which is being read; choose another file"),
        ("{link_to_session}", "which is being read"),
        ("{dir}/" + "n" * 256, "the name is too long"),
        ("", "--out needs a value"),
    ],
)
def test_run_out_refuses_what_it_must_not_replace(tmp_path, capsys, target, expected):
    session = _session_file(tmp_path)
    os.mkfifo(tmp_path / "fifo")
    os.symlink(session, tmp_path / "link")
    target = target.format(fifo=tmp_path / "fifo", dir=tmp_path, session=session, link_to_session=tmp_path / "link")
    before = listing(tmp_path), session.read_bytes()
    code = main(["run", "--session", str(session), "--steps", "1", "--out", target])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and expected in err and err.startswith("gradviz run: error:"), err
    assert (listing(tmp_path), session.read_bytes()) == before
    assert stat.S_ISFIFO(os.stat(tmp_path / "fifo").st_mode) and os.path.islink(tmp_path / "link")


@pytest.mark.parametrize(
    "args,expected",
    [
        (["--preset", ""], "--preset needs a value"),
        (["--session", ""], "--session needs a value"),
        (["--preset", "x" * 5_000_000], 'unknown preset "xxxx'),
        (["--preset", "\x1b[31mred"], "\\x1b[31mred"),
        (["--steps", "1\x1b[2J"], "\\x1b[2J"),
        (["--bogus", "y" * 100_000], "unrecognized arguments"),
        (["--mode", "<b>graph</b>"], "--mode"),
    ],
)
def test_run_arguments_are_quoted_in_one_short_line(tmp_path, capsys, args, expected):
    code = main(["run", *args, "--out", str(tmp_path / "o.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and expected in err and len(err) < 400 and err.count("\n") == 1 and "\x1b" not in err, err[:300]
    assert listing(tmp_path) == []


def test_write_keeps_the_mode_and_leaves_no_temporary(tmp_path):
    for mode in (0o600, 0o644, 0o640, 0o755):
        p = tmp_path / f"f{mode:o}.json"
        p.write_text("old")
        p.chmod(mode)
        atomic_write_text(p, "new")
        assert p.read_text() == "new" and stat.S_IMODE(p.stat().st_mode) == mode
    new = tmp_path / "brand_new.json"
    old = os.umask(0o022)
    try:
        atomic_write_text(new, "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    assert not [n for n in listing(tmp_path) if n.endswith(".tmp")]


def test_a_251_byte_name_is_written(tmp_path):
    p = tmp_path / ("n" * 246 + ".json")
    atomic_write_text(p, "x")
    assert p.read_text() == "x" and listing(tmp_path) == [p.name]


def test_symlink_target_is_replaced_and_the_link_kept(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "link.json").symlink_to(real)
    atomic_write_text(tmp_path / "link.json", "new")
    assert os.path.islink(tmp_path / "link.json") and real.read_text() == "new"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anything")
def test_read_only_file_and_folder_are_refused(tmp_path):
    p = tmp_path / "ro.json"
    p.write_text("keep")
    p.chmod(0o444)
    with pytest.raises(FileProblem, match="permission denied"):
        atomic_write_text(p, "x")
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    with pytest.raises(FileProblem, match="permission denied"):
        atomic_write_text(d / "x.json", "x")
    assert p.read_text() == "keep"


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EDQUOT, errno.EIO])
def test_disk_full_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch, err):
    p = tmp_path / "out.json"
    p.write_text("precious")
    real_fsync = os.fsync

    def full(fd):
        raise OSError(err, os.strerror(err))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(WriteFailed, match="could not be written .*it was left as it was"):
        atomic_write_text(p, "x" * 100_000)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert p.read_text() == "precious" and listing(tmp_path) == ["out.json"]


def test_disk_full_during_run_exits_4_with_one_line(tmp_path, capsys, monkeypatch):
    p = tmp_path / "out.jsonl"
    p.write_text("precious")
    real_write = SafeOutput.write

    def full(self, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    import gradviz.safe_io as sio

    monkeypatch.setattr(
        sio.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device"))
    )
    code = main(["run", "--steps", "2", "--out", str(p)])
    err = capsys.readouterr().err.strip()
    assert (
        code == 4
        and err == f"gradviz run: error: {p}: could not be written (no space left on the device); it was left as it was"
    )
    assert p.read_text() == "precious" and listing(tmp_path) == ["out.jsonl"]
    del real_write, full


def test_stdout_on_dev_full_exits_4_with_one_line():
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "main.py", "run", "--steps", "3"],
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert r.returncode == 4, r.stderr
    assert r.stderr.strip() == "gradviz run: error: standard output could not be written (no space left on the device)"


def test_disk_full_while_run_writes_its_steps_names_the_out_file(tmp_path, capsys, monkeypatch):
    """A write that fails mid-run (not only at the final sync) is said of the --out file, not of
    standard output, and leaves the file as it was."""
    p = tmp_path / "out.jsonl"
    p.write_text("precious")

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(HistoryWriter, "write_step", full)
    code = main(["run", "--steps", "2", "--out", str(p)])
    err = capsys.readouterr().err.strip()
    assert code == 4
    assert err == f"gradviz run: error: {p}: could not be written (no space left on the device); it was left as it was"
    assert p.read_text() == "precious" and listing(tmp_path) == ["out.jsonl"]


def test_out_at_dev_stdout_on_a_pipe_is_refused_as_a_named_pipe():
    r = subprocess.run(
        [sys.executable, "main.py", "run", "--steps", "1", "--out", "/dev/stdout"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.strip() == (
        "gradviz run: error: --out /dev/stdout: is a named pipe, not a regular file; only regular files are written"
    )


def test_export_on_a_full_disk_exits_4_not_2(tmp_path, capsys, monkeypatch):
    import gradviz.safe_io as sio

    p = tmp_path / "t.py"
    monkeypatch.setattr(
        sio.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device"))
    )
    code = main(["export", "--framework", "mindspore", "--out", str(p)])
    err = capsys.readouterr().err.strip()
    assert code == 4
    assert (
        err == f"gradviz export: error: {p}: could not be written (no space left on the device); it was left as it was"
    )
    assert listing(tmp_path) == []


@pytest.mark.parametrize(
    "args",
    [["run", "--steps", "2"], ["variants"], ["variants", "--json"], ["gradcheck"], ["gradcheck", "--json"]],
    ids=" ".join,
)
@pytest.mark.parametrize("stdout", ["/dev/full", "closed"])
def test_every_command_with_results_on_a_failed_standard_output_exits_4_with_one_line(args, stdout):
    redirect = ">&-" if stdout == "closed" else f"> {stdout}"
    why = "it is closed" if stdout == "closed" else "no space left on the device"
    r = subprocess.run(
        f"exec {sys.executable} main.py {' '.join(args)} {redirect}",
        shell=True,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    assert (r.returncode, r.stderr.strip()) == (
        4,
        f"gradviz {args[0]}: error: standard output could not be written ({why})",
    )


@pytest.mark.parametrize("args", [["variants"], ["gradcheck", "--json"]], ids=" ".join)
def test_every_command_with_results_stops_quietly_when_its_reader_goes_away(args):
    """As `gradviz run | head` does: exit 141, nothing on stderr (the reader, `true`, is gone long
    before MindSpore has loaded)."""
    r = subprocess.run(
        ["bash", "-c", f"{sys.executable} main.py {' '.join(args)} | true; exit ${{PIPESTATUS[0]}}"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    assert (r.returncode, r.stderr.strip()) == (141, "")


# -- signals: a complete file ending "stopped", the documented exit code, no temporary file -------------
MARK_STEP = """
import signal, sys
# main() blocks the stop signals before anything starts a thread; this hook imports numpy (whose
# thread pool would not inherit the mask) before main() runs, so it blocks them first, as main does
signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGINT, signal.SIGTERM))
import gradviz.engine.run_end as t
orig = t.finish_step
def finish_step(engine, r):
    if r.step == 2:
        sys.stderr.write("MARK\\n"); sys.stderr.flush()
    return orig(engine, r)
t.finish_step = finish_step
"""
MARK_IMPORT = """
import sys, importlib.abc
class Mark(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "mindspore":
            sys.stderr.write("MARK\\n"); sys.stderr.flush()
            sys.meta_path.remove(self)
        return None
sys.meta_path.insert(0, Mark())
"""


@pytest.mark.parametrize("sig,code", [("SIGINT", 130), ("SIGTERM", 143)])
@pytest.mark.parametrize("moment", ["start-up", "mid-run"])
def test_signal_gives_complete_file_and_exit_code(tmp_path, sig, code, moment):
    import signal

    out = tmp_path / "out.jsonl"
    hook = MARK_IMPORT if moment == "start-up" else MARK_STEP
    script = (
        hook
        + f"\nfrom gradviz.cli import main\nsys.exit(main(['run', '--steps', '100000000', '--out', {str(out)!r}]))\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    try:
        for line in p.stderr:
            if line.strip() == b"MARK":
                p.send_signal(getattr(signal, sig))
                break
        rest = p.stderr.read()
        assert p.wait(timeout=120) == code, rest[-2000:]
    finally:
        p.kill()
        p.wait()
    recs = [json.loads(ln) for ln in out.read_text().splitlines()]
    assert recs[0]["type"] == "run" and recs[-1] == {"type": "end", "reason": "stopped", "steps": len(recs) - 2}
    assert listing(tmp_path) == ["out.jsonl"] and b"Traceback" not in rest
    read_history(out)  # and it opens


# -- the window ------------------------------------------------------------------------------------------
def _finish(qtbot, job):
    assert job is not None
    qtbot.waitUntil(lambda: job.done, timeout=60_000)
    return job


def test_bad_runs_in_the_window_leave_the_document_and_show_plain_text(qtbot, win, tmp_path):
    from PySide6.QtCore import Qt

    before = win.document.session.to_json()
    width = win.width()
    for case in ("loss true", "step as float", "layout negative shape", "torn last line", "config differs"):
        mutate, expected = BAD_RUNS[case]
        p = tmp_path / "run.jsonl"
        make_run(p, 6)
        p.write_text("\n".join(mutate(p.read_text().splitlines())) + "\n")
        win.dismiss_error()
        job = _finish(qtbot, win.files.open_history_file(str(p)))
        assert isinstance(job.error, SessionError) and expected in win.errorBanner.text(), case
        assert win.document.session.to_json() == before and win.controller.state == "ready"
    # text from a file is shown as text, never as HTML, and never widens the window
    p = tmp_path / "<h1>big<img width=20000 src=x>.json"
    p.write_text("{")
    _finish(qtbot, win.files.open_session_file(str(p)))
    assert win.errorBanner.textFormat() == Qt.TextFormat.PlainText and "<img width=20000" in win.errorBanner.text()
    qtbot.wait(50)
    assert win.width() == width and win.document.session.to_json() == before


def test_fifo_and_device_as_a_run_or_session_do_not_block(qtbot, win, tmp_path):
    before = win.document.session.to_json()
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path, expected in ((fifo, "is a named pipe"), ("/dev/zero", "is a device"), (tmp_path, "is a folder")):
        job = _finish(qtbot, win.files.open_history_file(str(path)))
        assert expected in win.errorBanner.text() and job.error is not None
        win.dismiss_error()
        assert _finish(qtbot, win.files.open_session_file(str(path))).error is not None
        assert expected in win.errorBanner.text()
    assert win.document.session.to_json() == before


def test_cancel_while_opening_leaves_the_document(qtbot, win, tmp_path):
    from gradviz.safe_io import Cancelled

    p = tmp_path / "run.jsonl"
    make_run(p, 20)
    before = win.document.session.to_json()
    files = win.files
    job = files.open_history_file(str(p))
    job.cancel()  # what the progress dialog's Cancel button does
    _finish(qtbot, job)
    # cancelled before or during the read: nothing changes either way
    if isinstance(job.error, Cancelled):
        assert "cancelled" in win.statusBar().currentMessage()
    assert win.document.session.to_json() == before or job.error is None


def test_a_huge_session_name_neither_crashes_nor_widens(qtbot, win, tmp_path):
    d = load_preset("tutorial").to_dict()
    d["name"] = "<b>" + "N" * 1_000_000 + "\x1b[2J"
    p = tmp_path / "s.json"
    p.write_text(json.dumps(d))
    width = win.width()
    win.document.path = None
    assert _finish(qtbot, win.files.open_session_file(str(p))).error is None
    win.document.path = None
    win._update_title()
    qtbot.wait(50)
    assert win.width() == width and len(win.windowTitle()) < 120 and "\x1b" not in win.windowTitle()


@pytest.fixture
def store(tmp_path):
    from PySide6.QtCore import QSettings

    from gradviz.ui.persistence import AppStore

    return AppStore(QSettings(str(tmp_path / "settings.conf"), QSettings.Format.IniFormat), tmp_path / "data")


def _window(qtbot, store):
    from PySide6.QtWidgets import QMessageBox

    from gradviz.ui.main_window import MainWindow

    w = MainWindow(store=store, ask=lambda *a: QMessageBox.StandardButton.No, make_client=standin.client)
    qtbot.addWidget(w)
    return w


def test_pickle_in_the_settings_file_is_inert(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from gradviz.ui.persistence import AppStore

    marker = tmp_path / "PWNED"
    conf = tmp_path / "settings.conf"
    payload = _plant(conf, "recentFiles", marker)
    store = AppStore(QSettings(str(conf), QSettings.Format.IniFormat), tmp_path / "data")
    assert store.recent_files() == [] and store.text("lastSession") == ""
    assert not marker.exists()
    kept = [n for n in listing(tmp_path) if n.startswith("settings.conf.unreadable-")]
    assert len(kept) == 1 and (tmp_path / kept[0]).read_bytes() == payload
    assert "serialized objects" in store.problems[0]
    w = _window(qtbot, store)
    assert "serialized objects" in w.errorBanner.text() and not marker.exists()
    w.close()


def _plant(conf, key, marker) -> bytes:
    """Have Qt itself write (in another process, as a crafted file would come), as `key`, a Python
    object whose unpickling runs os.mkdir(marker)."""
    code = f"""
import os
from PySide6.QtCore import QSettings
class Mkdir:
    def __reduce__(self):
        return (os.mkdir, ({str(marker)!r},))
s = QSettings({str(conf)!r}, QSettings.Format.IniFormat)
s.setValue({key!r}, Mkdir())
s.sync()
"""
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    raw = Path(conf).read_bytes()
    assert b"@Variant(" in raw and b"mkdir" in raw and not Path(marker).exists()
    return raw


def test_a_planted_payload_would_run_without_the_guard(tmp_path):
    """The test above is meaningful: reading any key makes Qt unpickle such a value."""
    marker = tmp_path / "RAN"
    conf = tmp_path / "raw.conf"
    _plant(conf, "x", marker)
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from PySide6.QtCore import QSettings; "
            f"QSettings({str(conf)!r}, QSettings.Format.IniFormat).value('other', '', type=str)",
        ],
        timeout=60,
    )
    assert marker.exists()


@pytest.mark.parametrize(
    "content,expected",
    [
        (b'{"format": "gradviz-session", "vers', "not valid JSON"),
        (b"\x89PNG\r\n\x1a\n\x00", "not a text file"),
        (b'{"format": "gradviz-session", "version": 99, "graph": {"nodes": []}}', "version 99 is not supported"),
        ("fifo", "is a named pipe"),
        ("folder", "is a folder"),
    ],
)
def test_unreadable_autosave_is_kept_aside_and_reported(qtbot, store, content, expected):
    store.folder.mkdir(parents=True)
    orphan = store.folder / "autosave-999999999-1.json"
    if content == "fifo":
        os.mkfifo(orphan)
    elif content == "folder":
        orphan.mkdir()
    else:
        orphan.write_bytes(content)
    w = _window(qtbot, store)
    kept = [n for n in listing(store.folder) if n.startswith("autosave-999999999-1.json.unreadable-")]
    assert len(kept) == 1 and not orphan.exists()
    if isinstance(content, bytes):
        assert (store.folder / kept[0]).read_bytes() == content
    assert expected in w.errorBanner.text() and kept[0] in w.errorBanner.text()
    w.close()
    assert kept[0] in listing(store.folder)  # a clean exit deletes only the window's own autosave


def test_each_window_has_its_own_autosave(qtbot, store, tmp_path):
    from PySide6.QtCore import QSettings

    from gradviz.ui.persistence import AppStore

    other = AppStore(QSettings(str(tmp_path / "settings.conf"), QSettings.Format.IniFormat), store.folder)
    w1, w2 = _window(qtbot, store), _window(qtbot, other)
    w1.controls.seedSpin.setValue(5)
    w2.controls.seedSpin.setValue(6)
    w1.files.write_autosave()
    w2.files.write_autosave()
    assert store.autosave_path != other.autosave_path
    assert json.loads(store.read_autosave())["options"]["seed"] == 5
    assert json.loads(other.read_autosave())["options"]["seed"] == 6
    w1.files.ask = lambda *a: __import__("PySide6.QtWidgets").QtWidgets.QMessageBox.StandardButton.Discard
    w1.close()
    assert not store.autosave_path.exists() and other.autosave_path.exists()  # w2's work is kept
    w2.files.ask = w1.files.ask
    w2.close()


def test_autosave_failure_is_said_once(qtbot, store):
    store.folder.parent.mkdir(parents=True, exist_ok=True)
    store.folder.write_text("a file where the folder should be")
    w = _window(qtbot, store)
    w.files.write_autosave()
    first = w.statusBar().currentMessage()
    assert first.startswith("Autosave failed:") and "cannot be made" in first
    w.statusBar().clearMessage()
    w.files.write_autosave()
    assert w.statusBar().currentMessage() == ""  # not repeated
    w.files.ask = lambda *a: __import__("PySide6.QtWidgets").QtWidgets.QMessageBox.StandardButton.Discard
    w.close()
