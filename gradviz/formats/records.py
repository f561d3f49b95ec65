"""The history format: JSON Lines with a run record, one record per step and an end record.

The CLI's output and the app's history export are this one format, written by HistoryWriter."""
from __future__ import annotations

import json
import math
from typing import IO, Any

import numpy as np

FORMAT = "gradviz-history"
VERSION = 1
END_REASONS = ("max_steps", "until_loss", "non_finite", "stopped", "error")


def _num(v: float) -> float | None:
    """float32 values written with their shortest exact form; NaN and infinities as null."""
    f = float(v)
    if not math.isfinite(f):
        return None
    return float(str(np.float32(f)))


def tolist(arr: np.ndarray) -> Any:
    arr = np.asarray(arr)
    if arr.ndim == 0:
        return _num(arr)
    return [tolist(a) for a in arr]


def _named(layout, flat: np.ndarray) -> dict[str, Any]:
    return {n: tolist(v) for n, v in layout.unflatten(flat).items()}


class HistoryWriter:
    """Writes records to a text stream, one JSON object per line."""

    def __init__(self, fp: IO[str], param_layout, grad_layout, aux_layout):
        self.fp = fp
        self.layouts = (param_layout, grad_layout, aux_layout)

    def _write(self, rec: dict) -> None:
        self.fp.write(json.dumps(rec, allow_nan=False) + "\n")

    def write_run(self, config: dict, inputs: dict[str, np.ndarray], session: dict | None = None,
                  program: str | None = None) -> None:
        pl, gl, al = self.layouts
        rec: dict[str, Any] = {
            "type": "run", "format": FORMAT, "version": VERSION, "config": config,
            "inputs": {k: tolist(v) for k, v in inputs.items()},
            "layout": {"params": pl.to_dict(), "grads": gl.to_dict(), "aux": al.to_dict()},
        }
        if session is not None:
            rec["session"] = session
        if program is not None:
            rec["program"] = program
        self._write(rec)

    def write_step(self, step: int, loss: float, params: np.ndarray, grads: np.ndarray,
                   aux: np.ndarray, step_ms: float, lr: float | None = None) -> None:
        pl, gl, al = self.layouts
        rec: dict[str, Any] = {"type": "step", "step": int(step), "loss": _num(loss)}
        if lr is not None and math.isfinite(lr):
            rec["lr"] = _num(lr)  # the learning rate in force at this step
        rec["params"], rec["grads"] = _named(pl, params), _named(gl, grads)
        if al.names:
            rec["aux"] = _named(al, aux)
        rec["step_ms"] = round(float(step_ms), 4)
        self._write(rec)

    def write_end(self, reason: str, steps: int, message: str | None = None) -> None:
        rec: dict[str, Any] = {"type": "end", "reason": reason, "steps": int(steps)}
        if message:
            rec["message"] = message
        self._write(rec)


def write_history(fp: IO[str], history, config: dict, inputs: dict, reason: str, session: dict | None = None,
                  program: str | None = None) -> None:
    """Write a model.history.History in this format (the app's "Save run with history")."""
    h = history
    w = HistoryWriter(fp, h.param_layout, h.grad_layout, h.aux_layout)
    w.write_run(config, inputs, session=session, program=program)
    steps, loss, params, grads, aux, ms, lr = h.steps, h.loss, h.params, h.grads, h.aux, h.step_ms, h.lr
    for i in range(h.n):
        w.write_step(steps[i], loss[i], params[i], grads[i], aux[i], ms[i], float(lr[i]))
    w.write_end(reason, int(steps[-1]) if h.n else 0)


def read_history(path):
    """Read a run written by HistoryWriter: (session, layouts, arrays, end reason).

    Every problem is reported as SessionError naming the file and the line."""
    from ..model.layout import Layout
    from ..model.session import MAX_FILE_BYTES, Session, SessionError, read_text_file

    text, where = read_text_file(path, 16 * MAX_FILE_BYTES)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise SessionError(f"{where}: the file is empty")
    try:
        head = json.loads(lines[0])
    except ValueError:
        raise SessionError(f"{where}: line 1 is not JSON: not a GradViz history") from None
    if not isinstance(head, dict) or head.get("type") != "run" or head.get("format") != FORMAT:
        raise SessionError(f"{where}: not a GradViz history (the first line must be a run record)")
    if head.get("version") != VERSION:
        raise SessionError(f"{where}: history version {head.get('version')!r} is not supported")
    if "session" not in head:
        raise SessionError(f"{where}: the run record holds no session")
    session = Session.from_dict(head["session"], f"{where}: the run's session")
    try:
        lay = head["layout"]
        pl, gl, al = (Layout.from_dict(lay[k]) for k in ("params", "grads", "aux"))
    except (KeyError, TypeError, ValueError):
        raise SessionError(f"{where}: the run record's layout is missing or malformed") from None
    steps, loss, params, grads, aux, ms, lrs = [], [], [], [], [], [], []
    reason = None
    for i, line in enumerate(lines[1:], start=2):
        try:
            rec = json.loads(line)
            if rec["type"] == "end":
                reason = rec["reason"]
                break
            if rec["type"] != "step":
                raise ValueError("unknown record type")
            steps.append(int(rec["step"]))
            loss.append(np.nan if rec["loss"] is None else float(rec["loss"]))
            params.append(_flat(pl, rec["params"]))
            grads.append(_flat(gl, rec["grads"]))
            aux.append(_flat(al, rec.get("aux", {})))
            ms.append(float(rec.get("step_ms", 0.0)))
            lr = rec.get("lr")
            if lr is not None and (isinstance(lr, bool) or not isinstance(lr, (int, float)) or not lr > 0):
                raise ValueError(f'"lr" must be a number above 0, not {str(lr)[:40]}')
            lrs.append(np.nan if lr is None else float(lr))
        except (ValueError, KeyError, TypeError, OverflowError) as e:
            raise SessionError(f"{where}: line {i} is not a valid step record ({str(e)[:120]})") from None
    if steps and steps != list(range(steps[0], steps[0] + len(steps))):
        raise SessionError(f"{where}: the steps are not consecutive")
    if reason not in END_REASONS:
        reason = "stopped"  # a file cut short still shows what it holds
    if any(not (0 < st < 2**62) for st in steps):
        raise SessionError(f"{where}: step numbers out of range")
    k = len(steps)
    arrays = (np.asarray(steps, np.int64), np.asarray(loss, np.float32),
              np.asarray(params, np.float32).reshape(k, pl.total), np.asarray(grads, np.float32).reshape(k, gl.total),
              np.asarray(aux, np.float32).reshape(k, al.total), np.asarray(ms, np.float32), np.asarray(lrs, np.float32))
    return session, (pl, gl, al), arrays, reason


def _flat(layout, d: dict) -> np.ndarray:
    if set(d) != set(layout.names):
        raise ValueError(f"expected tensors {layout.names}, found {sorted(d)}")
    out = []
    for n, shape in zip(layout.names, layout.shapes):
        a = np.asarray([np.nan if v is None else v for v in np.ravel(np.asarray(d[n], dtype=object))], np.float64)
        if a.size != (int(np.prod(shape)) if shape else 1):
            raise ValueError(f"{n} has {a.size} values, expected shape {tuple(shape)}")
        out.append(a)
    return np.concatenate(out) if out else np.zeros(0)
