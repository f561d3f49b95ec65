"""Reading a run file (the JSON Lines of `gradviz run` and of the app's "Save run with history"),
checked field by field as strictly as a session, and fast enough for a million steps.

The first line (the run record) is parsed with json and checked in full: its session, its config
(the session's options), its inputs and its layout, which must be what that session trains. Step
lines as GradViz writes them all have one shape, so they are checked and parsed in bulk: a chunk
of lines whose text, with the numbers taken out, is exactly the expected line repeated, is turned
into numbers by numpy in one call. Any other line (another writer's spacing, a wrong type, a
missing field, the end record) is parsed with json and checked field by field, so a message names
the line and the field. Range checks (steps consecutive whole numbers, values within float32,
times not negative) run on the arrays at the end. Qt-free."""

from __future__ import annotations

import io
import json
import math
import re
import warnings
from typing import Any, NamedTuple
from collections.abc import Callable

import numpy as np

from ..i18n import message
from ..model.formatting import quote, shorten, show_path
from ..model.ending import EndReason
from .records import END_REASONS, FORMAT, VERSION, HistoryWriter
from ..safe_io import Cancelled, FileProblem, read_bytes

MAX_RUN_BYTES = 1024 * 1024 * 1024
CHUNK_BYTES = 4 * 1024 * 1024
MAX_STEP = 2**53  # step numbers are read as float64: exact up to here
F32_MAX = float(np.finfo(np.float32).max)
READ_SHARE = 0.25  # of the progress bar: reading the bytes; the rest is parsing
HEAD_KEYS = {"type", "format", "version", "config", "inputs", "layout", "session", "program", "kept_every", "dataset"}
STEP_KEYS = {"type", "step", "epoch", "batch", "loss", "lr", "params", "grads", "aux", "step_ms"}
EVAL_KEYS = {"type", "epoch", "step", "test_loss", "accuracy", "train_loss", "train_accuracy", "confusion"}
MAX_CLASSES = 1000  # a confusion matrix's rows at most
END_KEYS = {"type", "reason", "steps", "message"}
# a JSON number in a value position (after ": ", ", " or "["), never a digit inside a key
_VALUE_NUMBER = re.compile(r"(?:(?<=: )|(?<=, )|(?<=\[))-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_NUMBER_CHARS = b"0123456789.-+eE"
_PUNCTUATION_TO_SPACE = bytes(32 if chr(c) in ',[]{}:"' else c for c in range(256))

Progress = Callable[[float], None]


class SavedRun(NamedTuple):
    """What a run file holds, checked."""

    session: Any
    layouts: tuple  # (param, grad, aux) Layouts
    arrays: tuple  # (steps, loss, params, grads, aux, step_ms, lr), as History.append takes them
    reason: Any  # the EndReason
    evals: tuple  # the evaluation records (over a Dataset node), as the engine's Eval.to_dict has them


def read_history(path, progress: Progress | None = None, cancelled: Callable[[], bool] | None = None) -> SavedRun:
    """The SavedRun of a run file. Every problem is a SessionError naming the file, the line and the field;
    Cancelled if cancelled() said so. progress(fraction) reports how far it got."""
    from ..model.session import SessionError

    def read_progress(done: int, total: int) -> None:
        if progress is not None:
            progress(READ_SHARE * done / total)

    try:
        raw = read_bytes(path, MAX_RUN_BYTES, read_progress, cancelled)
    except FileProblem as e:
        raise SessionError(message(e)) from None
    return parse_history(raw, show_path(path), progress, cancelled)


def parse_history(
    raw: bytes, where: str, progress: Progress | None = None, cancelled: Callable[[], bool] | None = None
):
    """read_history on the bytes of a file; `where` names it in messages."""
    from ..model.session import SessionError

    try:
        return _Reader(raw, where, progress, cancelled).read()
    except _Bad as e:
        raise SessionError(f"{where}: {e}") from None
    except RecursionError:
        raise SessionError(f"{where}: nested too deeply to be a GradViz run") from None


class _Bad(Exception):
    """A problem; the message says where (line, field) and what."""


def _reject_constant(name: str):
    raise ValueError(f"{name} is not allowed")


def _loads(line: bytes, lineno: int) -> Any:
    try:
        return json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise _Bad(f"line {lineno} is not text (not UTF-8)") from None
    except ValueError as e:
        raise _Bad(f"line {lineno} is not valid JSON ({shorten(str(e), 80)})") from None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _kind(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}.get(
        type(v), "a number" if _is_num(v) else type(v).__name__
    )


class _Reader:
    def __init__(self, raw: bytes, where: str, progress, cancelled):
        self.raw, self.where = raw, where
        self.progress, self.cancelled = progress, cancelled
        self.evals: list[dict] = []  # the evaluation records, checked, in order

    # -- the run record ----------------------------------------------------------------------------
    def read(self):
        raw = self.raw
        start = 0
        while True:  # the run record is the first line that is not blank
            nl = raw.find(b"\n", start)
            line = raw[start : len(raw) if nl < 0 else nl]
            if line.strip() or nl < 0:
                break
            start = nl + 1
        if not line.strip():
            raise _Bad("the file is empty")
        self.head_lineno = raw.count(b"\n", 0, start) + 1
        end = raw.find(b"\n", start)
        end = len(raw) if end < 0 else end
        try:
            head = json.loads(raw[start:end].decode("utf-8"), parse_constant=_reject_constant)
        except (UnicodeDecodeError, ValueError):
            raise _Bad(f"line {self.head_lineno} is not JSON: not a GradViz history") from None
        self._check_head(head)
        self._make_template()
        rows, reason, end_steps, end_line = self._read_steps(end + 1, self.head_lineno + 1)
        return self._finish(rows, reason, end_steps, end_line)

    def _check_head(self, head: Any) -> None:
        from ..model.codegen import generate, run_layouts
        from ..model.recording import RecordingPlan
        from ..model.session import Session, SessionError

        ln = f"line {self.head_lineno}"
        if not isinstance(head, dict) or head.get("type") != "run" or head.get("format") != FORMAT:
            raise _Bad(f'not a GradViz history (the first line must be a run record with "format": "{FORMAT}")')
        v = head.get("version")
        if not _is_int(v):
            raise _Bad(f'{ln}: "version" must be a whole number, found {quote(v, 40)}')
        if v != VERSION:
            raise _Bad(f"{ln}: run version {shorten(v, 20)} is not supported (this GradViz reads version {VERSION})")
        unknown = set(head) - HEAD_KEYS
        if unknown:
            raise _Bad(f"{ln}: unknown field(s) {', '.join(quote(k, 40) for k in sorted(unknown)[:5])}")
        if "session" not in head:
            raise _Bad(f"{ln}: the run record holds no session")
        self.kept_every = head.get("kept_every", 1)  # a thinned history (model/history.py)
        if "kept_every" in head and not (_is_int(self.kept_every) and 2 <= self.kept_every <= MAX_STEP):
            raise _Bad(f'{ln}: "kept_every" must be a whole number from 2 to {MAX_STEP:,}')
        try:
            self.session = Session.from_dict(head["session"], f"{ln}: the run's session")
        except SessionError as e:
            raise _Bad(str(e)) from None
        s = self.session
        config = head.get("config")
        if not isinstance(config, dict):
            raise _Bad(f'{ln}: "config" must be an object, found {_kind(config)}')
        src = config.get("source", "")
        if not isinstance(src, str):
            raise _Bad(f'{ln}: "config" "source" must be text, found {_kind(src)}')
        opts = {k: val for k, val in config.items() if k != "source"}
        if opts != s.options.to_dict():
            diff = sorted(
                k for k in set(opts) | set(s.options.to_dict()) if opts.get(k) != s.options.to_dict().get(k, None)
            )
            raise _Bad(
                f'{ln}: "config" does not match the run\'s session (differs in {", ".join(quote(k, 40) for k in diff[:5])})'
            )
        shapes = s.graph.check()
        program = generate(s.graph, s.options)
        self.layouts = RecordingPlan(*run_layouts(program, shapes)).layouts  # large tensors: summaries
        lay = head.get("layout")
        if not isinstance(lay, dict) or set(lay) != {"params", "grads", "aux"}:
            raise _Bad(f'{ln}: "layout" must be an object with "params", "grads" and "aux"')
        for key, expected in zip(("params", "grads", "aux"), self.layouts):
            got = lay[key]
            ok = (
                isinstance(got, dict)
                and set(got) == set(expected.to_dict())
                and got.get("summaries") == expected.to_dict().get("summaries")
                and got["names"] == expected.names
                and isinstance(got["shapes"], list)
                and len(got["shapes"]) == len(expected.shapes)
                and all(
                    isinstance(a, list) and all(_is_int(d) for d in a) and tuple(a) == b
                    for a, b in zip(got["shapes"], expected.shapes)
                )
            )
            if not ok:
                want = (
                    ", ".join(
                        f"{n} {tuple(expected.summaries[n])} as a summary of {sh[0]} values"
                        if n in expected.summaries
                        else f"{n} {tuple(sh)}"
                        for n, sh in zip(expected.names, expected.shapes)
                    )
                    or "nothing"
                )
                raise _Bad(
                    f'{ln}: "layout" "{key}" does not match the run\'s session (expected {want}, found '
                    f"{shorten(json.dumps(got), 80)})"
                )
        inputs = head.get("inputs", {})
        fed = {n.name for n in s.graph.data_inputs()}  # a Dataset's Inputs: described, not copied
        written = [n for n in program.input_names if n not in fed]
        if not isinstance(inputs, dict) or sorted(inputs) != sorted(written):
            found = sorted(inputs)[:5] if isinstance(inputs, dict) else _kind(inputs)
            raise _Bad(f'{ln}: "inputs" must hold {", ".join(written) or "nothing"}, found {shorten(found, 80)}')
        spec = s.graph.data_spec()
        self.steps_per_epoch = spec.steps_per_epoch() if spec is not None else 0
        if head.get("dataset") != (spec.describe() if spec is not None else None):
            raise _Bad(f'{ln}: "dataset" does not describe the run\'s Dataset node')
        for name in written:
            self._check_tensor(inputs[name], shapes[name], f'{ln}: "inputs" "{name}"')
        if not isinstance(head.get("program", ""), str):
            raise _Bad(f'{ln}: "program" must be text')

    def _check_tensor(self, value: Any, shape: tuple[int, ...], field: str, out: list | None = None) -> None:
        """Nested lists of exactly `shape`, each item a number or null (appended to out)."""

        def walk(v: Any, dims: tuple[int, ...], path: str) -> None:
            if not dims:
                if v is None:
                    if out is not None:
                        out.append(math.nan)
                elif _is_num(v):
                    if out is not None:
                        out.append(float(v))
                else:
                    raise _Bad(f"{field}{path} must be a number or null, found {_kind(v)}")
                return
            if not isinstance(v, list) or len(v) != dims[0]:
                got = f"a list of {len(v)}" if isinstance(v, list) else _kind(v)
                raise _Bad(f"{field}{path} must be a list of {dims[0]} (shape {tuple(shape)}), found {got}")
            for i, item in enumerate(v):
                walk(item, dims[1:], f"{path}[{i}]")

        walk(value, tuple(shape), "")

    # -- step lines ------------------------------------------------------------------------------------
    def _make_template(self) -> None:
        """The step line GradViz writes, cut into the text between its numbers."""
        pl, gl, al = self.layouts
        buf = io.StringIO()
        data = self.steps_per_epoch > 0  # over a Dataset: each step says its epoch and batch
        HistoryWriter(buf, pl, gl, al).write_step(
            1, 0.0, np.zeros(pl.total), np.zeros(gl.total), np.zeros(al.total), 0.0, 0.5, *((1, 1) if data else ())
        )
        line = buf.getvalue().rstrip("\n")
        self.segments = [s.encode() for s in _VALUE_NUMBER.split(line)]
        # the numbers of a line: step, (epoch, batch), loss, lr, params, grads, aux, step_ms
        self.width = len(self.segments) - 1
        self.row_width = 4 + pl.total + gl.total + al.total  # a row leaves epoch and batch out
        assert self.width == self.row_width + 2 * data, "template and layout disagree"
        self.canon = _canon(line.encode())
        # the segments holding keys go first, whole; what is left between numbers is punctuation
        self.keyed = sorted({s for s in self.segments if re.search(rb"[A-Za-z0-9_]", s)}, key=len, reverse=True)
        self.float_step = re.compile(re.escape(self.segments[0]) + rb"-?\d*[.eE]")

    def _read_steps(self, pos: int, lineno: int):
        raw, n = self.raw, len(self.raw)
        rows: list[np.ndarray] = []
        first_lines: list[np.ndarray] = []  # the line number of each row, per chunk
        reason = end_steps = end_line = None
        while pos < n:
            if self.cancelled is not None and self.cancelled():
                raise Cancelled()
            stop = raw.find(b"\n", min(pos + CHUNK_BYTES, n))
            stop = n if stop < 0 else stop
            chunk = raw[pos:stop]
            if stop == n:
                chunk = chunk.rstrip(b"\r\n")  # blank lines at the end
                if not chunk:
                    break
            count = chunk.count(b"\n") + 1
            if reason is None:
                done = self._fast(chunk, count)
                if done is not None:
                    rows.append(done)
                    first_lines.append(lineno + np.arange(count))
                else:
                    r, lines, reason, end_steps, end_line = self._slow_chunk(chunk, lineno)
                    rows += r
                    first_lines += lines
            else:
                for i, line in enumerate(chunk.split(b"\n")):
                    if line.strip():
                        raise _Bad(f"line {lineno + i}: nothing may follow the end record (line {end_line})")
            lineno += count
            pos = stop + 1
            if self.progress is not None:
                self.progress(READ_SHARE + (1 - READ_SHARE) * min(pos, n) / n)
        self.line_numbers = np.concatenate(first_lines) if first_lines else np.zeros(0, np.int64)
        table = np.concatenate(rows) if rows else np.zeros((0, self.row_width))
        return table, reason, end_steps, end_line

    def _fast(self, chunk: bytes, count: int) -> np.ndarray | None:
        """The rows of a chunk of lines written exactly as GradViz writes them, or None."""
        if _canon(chunk) != b"\n".join([self.canon] * count) or self.float_step.search(chunk):
            return None
        residual = chunk
        for seg in self.keyed:
            residual = residual.replace(seg, b" ")
        residual = residual.translate(_PUNCTUATION_TO_SPACE).replace(b"null", b"nan")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                values = np.fromstring(residual, dtype=np.float64, sep=" ")
            except (ValueError, DeprecationWarning):
                return None
        if values.size != count * self.width:
            return None
        values = values.reshape(count, self.width)
        if self.width == self.row_width:
            return values
        eb = values[:, 1:3]
        if not np.array_equal(eb, self._epoch_batch(values[:, 0])):
            return None  # the slow path names the line
        return np.delete(values, (1, 2), axis=1)

    def _epoch_batch(self, steps: np.ndarray) -> np.ndarray:
        """(epoch, batch) of each step (model/steps.py's definition, on arrays)."""
        spe = self.steps_per_epoch
        k = steps.astype(np.int64) - 1
        return np.stack([k // spe + 1, k % spe + 1], axis=1).astype(np.float64)

    def _slow_chunk(self, chunk: bytes, lineno: int):
        """Line by line: runs of lines in GradViz's own form in bulk, any other line with json."""
        rows, lines = [], []
        reason = end_steps = end_line = None
        run_start = None
        split = chunk.split(b"\n")

        def flush(upto: int) -> None:
            nonlocal run_start
            if run_start is None:
                return
            block = split[run_start:upto]
            done = self._fast(b"\n".join(block), len(block))
            if done is None:  # looked right but is not: find the exact problem line by line
                done = np.stack(
                    [
                        self._step_row(_loads(b, lineno + run_start + k), lineno + run_start + k)
                        for k, b in enumerate(block)
                    ]
                )
            rows.append(done)
            lines.append(lineno + run_start + np.arange(len(block)))
            run_start = None

        for i, line in enumerate(split):
            ln = lineno + i
            if reason is not None:
                if line.strip():
                    raise _Bad(f"line {ln}: nothing may follow the end record (line {end_line})")
                continue
            if _canon(line) == self.canon:
                if run_start is None:
                    run_start = i
                continue
            flush(i)
            if not line.strip():
                continue
            rec = _loads(line, ln)
            if isinstance(rec, dict) and rec.get("type") == "end":
                reason, end_steps = self._end_record(rec, ln)
                end_line = ln
                continue
            if isinstance(rec, dict) and rec.get("type") == "eval":
                self.evals.append(self._eval_record(rec, ln))
                continue
            rows.append(self._step_row(rec, ln)[None, :])
            lines.append(np.array([ln]))
        flush(len(split))
        return rows, lines, reason, end_steps, end_line

    def _step_row(self, rec: Any, ln: int) -> np.ndarray:
        """One step record checked field by field, as a row [step, loss, lr, params, grads, aux, ms]
        (lr NaN where the file does not say: files written before it was recorded)."""
        if not isinstance(rec, dict):
            raise _Bad(f"line {ln}: expected a step record (an object), found {_kind(rec)}")
        if rec.get("type") != "step":
            raise _Bad(
                f'line {ln}: "type" must be "step" or "end" (or "eval" over a Dataset node), '
                f"found {quote(rec.get('type'), 40)}"
            )
        unknown = set(rec) - STEP_KEYS
        if unknown:
            raise _Bad(f"line {ln}: unknown field(s) {', '.join(quote(k, 40) for k in sorted(unknown)[:5])}")
        pl, gl, al = self.layouts
        need = ["step", "loss", "params", "grads"] + (["aux"] if al.names else [])
        for k in need:
            if k not in rec:
                raise _Bad(f'line {ln}: the field "{k}" is missing')
        if "aux" in rec and not al.names and rec["aux"] not in ({}, None):
            raise _Bad(f'line {ln}: "aux" must be empty: the run returns no auxiliary outputs')
        step = rec["step"]
        if not _is_int(step) or not 1 <= step <= MAX_STEP:
            raise _Bad(f'line {ln}: "step" must be a whole number from 1 to {MAX_STEP:,}, found {quote(step, 40)}')
        if self.steps_per_epoch:
            want = self._epoch_batch(np.array([step]))[0]
            for k, v in zip(("epoch", "batch"), want):
                if rec.get(k) != int(v):
                    raise _Bad(f'line {ln}: "{k}" of step {step} must be {int(v)}, found {quote(rec.get(k), 40)}')
        elif "epoch" in rec or "batch" in rec:
            raise _Bad(f'line {ln}: "epoch" and "batch" are for runs over a Dataset node')
        loss = rec["loss"]
        if loss is not None and not _is_num(loss):
            raise _Bad(f'line {ln}: "loss" must be a number or null, found {_kind(loss)}')
        ms = rec.get("step_ms", 0.0)
        if not _is_num(ms):
            raise _Bad(f'line {ln}: "step_ms" must be a number, found {_kind(ms)}')
        lr = rec.get("lr")
        if lr is not None and not (_is_num(lr) and 0 < lr < F32_MAX):
            raise _Bad(f'line {ln}: "lr" must be a number above 0, found {quote(lr, 40)}')
        out: list[float] = [
            float(step),
            math.nan if loss is None else float(loss),
            math.nan if lr is None else float(lr),
        ]
        for key, lay in (("params", pl), ("grads", gl), ("aux", al)):
            d = rec.get(key, {})
            if not lay.names and d in ({}, None):
                continue
            if not isinstance(d, dict) or set(d) != set(lay.names):
                found = sorted(d)[:5] if isinstance(d, dict) else _kind(d)
                raise _Bad(f'line {ln}: "{key}" must hold {", ".join(lay.names)}, found {shorten(found, 80)}')
            for name, shape in zip(lay.names, lay.shapes):
                self._check_tensor(d[name], shape, f'line {ln}: "{key}" "{name}"', out)
        try:
            out.append(float(ms))
            return np.array(out, np.float64)
        except OverflowError:  # an integer too large for a float
            raise _Bad(f"line {ln}: a number is out of range") from None

    def _eval_record(self, rec: dict, ln: int) -> dict:
        """An evaluation record checked field by field."""
        unknown = set(rec) - EVAL_KEYS
        if unknown:
            raise _Bad(f"line {ln}: unknown field(s) {', '.join(quote(k, 40) for k in sorted(unknown)[:5])}")
        if not self.steps_per_epoch:
            raise _Bad(f"line {ln}: an evaluation record is for runs over a Dataset node")
        epoch, step = rec.get("epoch"), rec.get("step")
        if not _is_int(epoch) or not 1 <= epoch <= MAX_STEP or step != epoch * self.steps_per_epoch:
            raise _Bad(f'line {ln}: "epoch" and "step" must be an epoch and its last step, found {quote(epoch, 20)}')
        for k in ("test_loss", "train_loss"):
            if rec.get(k) is not None and not _is_num(rec.get(k)):
                raise _Bad(f'line {ln}: "{k}" must be a number or null, found {_kind(rec.get(k))}')
        for k in ("accuracy", "train_accuracy"):
            v = rec.get(k)
            if v is not None and not (_is_num(v) and 0 <= v <= 1):
                raise _Bad(f'line {ln}: "{k}" must be a number from 0 to 1 or null, found {quote(v, 40)}')
        out = {k: rec.get(k) for k in EVAL_KEYS if k != "confusion"}
        if "confusion" in rec:
            out["confusion"] = _confusion(rec["confusion"], ln)
        return out

    def _end_record(self, rec: dict, ln: int) -> tuple[EndReason, int]:
        unknown = set(rec) - END_KEYS
        if unknown:
            raise _Bad(f"line {ln}: unknown field(s) {', '.join(quote(k, 40) for k in sorted(unknown)[:5])}")
        reason = rec.get("reason")
        if reason not in END_REASONS:
            raise _Bad(f'line {ln}: "reason" must be one of {", ".join(END_REASONS)}, found {quote(reason, 40)}')
        steps = rec.get("steps")
        if not _is_int(steps) or not 0 <= steps <= MAX_STEP:
            raise _Bad(f'line {ln}: "steps" must be a whole number from 0 to {MAX_STEP:,}, found {quote(steps, 40)}')
        if not isinstance(rec.get("message", ""), str):
            raise _Bad(f'line {ln}: "message" must be text')
        return EndReason(reason), steps

    # -- checks on the whole table ------------------------------------------------------------------------
    def _finish(self, table: np.ndarray, reason, end_steps, end_line):
        pl, gl, al = self.layouts
        lines = self.line_numbers
        steps = table[:, 0]
        bad = ~((steps >= 1) & (steps <= MAX_STEP) & (steps == np.floor(steps)))
        if bad.any():
            i = int(np.argmax(bad))
            raise _Bad(
                f'line {lines[i]}: "step" must be a whole number from 1 to {MAX_STEP:,}, found {shorten(steps[i])}'
            )
        if len(steps) and self.kept_every > 1:  # thinned: every kept_every-th step, and the last
            off = np.zeros(len(steps), bool)
            off[1:] = np.diff(steps) <= 0
            off[:-1] |= steps[:-1] % self.kept_every != 0
            if off.any():
                i = int(np.argmax(off))
                raise _Bad(
                    f'line {lines[i]}: "step" is {int(steps[i])}: with "kept_every" {self.kept_every} the steps must '
                    f"increase, each but the last a multiple of it"
                )
        elif len(steps):
            expect = steps[0] + np.arange(len(steps))
            off = steps != expect
            if off.any():
                i = int(np.argmax(off))
                raise _Bad(
                    f'line {lines[i]}: "step" is {int(steps[i])}, expected {int(expect[i])}: the steps must be consecutive'
                )
        values = table[:, 1:-1]
        with np.errstate(invalid="ignore"):
            big = np.abs(values) > F32_MAX
        if big.any():
            i, j = np.unravel_index(int(np.argmax(big)), big.shape)
            raise _Bad(
                f"line {lines[i]}: {self._column_name(j)} is {shorten(values[i, j])}, out of the range of float32"
            )
        ms = table[:, -1]
        badms = ~(np.isfinite(ms) & (ms >= 0))
        if badms.any():
            i = int(np.argmax(badms))
            raise _Bad(
                f'line {lines[i]}: "step_ms" must be a number of milliseconds, 0 or more, found {shorten(ms[i])}'
            )
        last = int(steps[-1]) if len(steps) else 0
        if reason is None:
            reason = EndReason.STOPPED  # a file cut short still shows what it holds
        elif end_steps != last:
            raise _Bad(f'line {end_line}: "steps" is {end_steps} but the last step is {last}')
        k = len(steps)
        P, G = pl.total, gl.total
        lr = table[:, 2]
        badlr = ~(np.isnan(lr) | (lr > 0))
        if badlr.any():
            i = int(np.argmax(badlr))
            raise _Bad(f'line {lines[i]}: "lr" must be a number above 0, found {shorten(lr[i])}')
        arrays = (
            steps.astype(np.int64),
            table[:, 1].astype(np.float32),
            table[:, 3 : 3 + P].astype(np.float32).reshape(k, P),
            table[:, 3 + P : 3 + P + G].astype(np.float32).reshape(k, G),
            table[:, 3 + P + G : -1].astype(np.float32).reshape(k, al.total),
            ms.astype(np.float32),
            lr.astype(np.float32),
        )
        return SavedRun(self.session, self.layouts, arrays, reason, tuple(self.evals))

    def _column_name(self, j: int) -> str:
        """The field of column j of a row's values (loss, params, grads, aux)."""
        if j == 0:
            return '"loss"'
        if j == 1:
            return '"lr"'
        j -= 2
        for key, lay in zip(("params", "grads", "aux"), self.layouts):
            if j < lay.total:
                labels = lay.labels()
                return f'"{key}" {labels[j]}'
            j -= lay.total
        return "a value"


def _canon(b: bytes) -> bytes:
    """The text with every number (and null) taken out: equal for lines of equal structure."""
    return b.replace(b"null", b"").translate(None, _NUMBER_CHARS)


def _confusion(value: Any, ln: int) -> list:
    """An evaluation's confusion counts: a square list of lists of whole numbers from 0."""
    ok = (
        isinstance(value, list)
        and 1 <= len(value) <= MAX_CLASSES
        and all(isinstance(r, list) and len(r) == len(value) for r in value)
        and all(_is_int(c) and c >= 0 for r in value for c in r)
    )
    if not ok:
        raise _Bad(f'line {ln}: "confusion" must be a square list of lists of whole numbers from 0')
    return value
