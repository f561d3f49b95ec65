"""The history format: JSON Lines with a run record, one record per step and an end record.

The CLI's output and the app's history export are this one format, written by HistoryWriter
and read by run_reader.read_history."""

from __future__ import annotations

import json
import math
from typing import IO, Any

import numpy as np

from ..model.ending import EndReason

FORMAT = "gradviz-history"
VERSION = 1
END_REASONS = tuple(EndReason)


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

    def write_run(
        self,
        config: dict,
        inputs: dict[str, np.ndarray],
        session: dict | None = None,
        program: str | None = None,
        kept_every: int = 1,
        dataset: dict | None = None,
    ) -> None:
        pl, gl, al = self.layouts
        rec: dict[str, Any] = {
            "type": "run",
            "format": FORMAT,
            "version": VERSION,
            "config": config,
            "inputs": {k: tolist(v) for k, v in inputs.items()},
            "layout": {"params": pl.to_dict(), "grads": gl.to_dict(), "aux": al.to_dict()},
        }
        if kept_every > 1:  # a history thinned to its budget (model/history.py): the steps kept
            rec["kept_every"] = int(kept_every)
        if dataset is not None:  # described, not copied: its batches are regenerated from this
            rec["dataset"] = dataset
        if session is not None:
            rec["session"] = session
        if program is not None:
            rec["program"] = program
        self._write(rec)

    def write_step(
        self,
        step: int,
        loss: float,
        params: np.ndarray,
        grads: np.ndarray,
        aux: np.ndarray,
        step_ms: float,
        lr: float | None = None,
        epoch: int | None = None,
        batch: int | None = None,
    ) -> None:
        pl, gl, al = self.layouts
        rec: dict[str, Any] = {"type": "step", "step": int(step)}
        if epoch is not None:  # over a Dataset node: the epoch and the mini-batch (model/steps.py)
            rec["epoch"], rec["batch"] = int(epoch), int(batch)
        rec["loss"] = _num(loss)
        if lr is not None and math.isfinite(lr):
            rec["lr"] = _num(lr)  # the learning rate in force at this step
        rec["params"], rec["grads"] = _named(pl, params), _named(gl, grads)
        if al.names:
            rec["aux"] = _named(al, aux)
        rec["step_ms"] = round(float(step_ms), 4)
        self._write(rec)

    def write_eval(
        self, epoch: int, step: int, test_loss: float, accuracy, train_loss: float, train_accuracy, confusion=None
    ) -> None:
        """The evaluation after epoch `epoch`, at the parameters after its last step's update;
        with class scores, the test set's confusion counts (rows true, columns predicted)."""
        rec = {"type": "eval", "epoch": int(epoch), "step": int(step), "test_loss": _num(test_loss)}
        rec["accuracy"] = None if accuracy is None else _num(accuracy)
        rec["train_loss"] = _num(train_loss)
        rec["train_accuracy"] = None if train_accuracy is None else _num(train_accuracy)
        if confusion is not None:
            rec["confusion"] = [[int(c) for c in row] for row in confusion]
        self._write(rec)

    def write_end(self, reason: EndReason, steps: int, message: str | None = None) -> None:
        rec: dict[str, Any] = {"type": "end", "reason": reason, "steps": int(steps)}
        if message:
            rec["message"] = message
        self._write(rec)


def write_history(
    fp: IO[str],
    history,
    config: dict,
    inputs: dict,
    reason: str,
    session: dict | None = None,
    program: str | None = None,
    evals: tuple = (),
) -> None:
    """Write a model.history.History in this format (the app's "Save run with history"); over
    a Dataset node, with each step's epoch and batch and the evaluations (engine Eval.to_dict())."""
    from ..model.session import Session
    from ..model.steps import epoch_and_batch

    h = history
    spec = Session.from_dict(session).graph.data_spec() if session is not None else None
    spe = spec.steps_per_epoch() if spec is not None else 0
    if spec is not None:  # described, not copied
        fed = {n.name for n in Session.from_dict(session).graph.data_inputs()}
        inputs = {k: v for k, v in inputs.items() if k not in fed}
    w = HistoryWriter(fp, h.param_layout, h.grad_layout, h.aux_layout)
    w.write_run(
        config,
        inputs,
        session=session,
        program=program,
        kept_every=getattr(h, "stride", 1),
        dataset=spec.describe() if spec is not None else None,
    )
    steps, loss, params, grads, aux, ms, lr = h.steps, h.loss, h.params, h.grads, h.aux, h.step_ms, h.lr
    pending = sorted(evals, key=lambda e: e["step"])
    for i in range(h.n):
        eb = epoch_and_batch(int(steps[i]), spe) if spe else (None, None)
        w.write_step(steps[i], loss[i], params[i], grads[i], aux[i], ms[i], float(lr[i]), *eb)
        while pending and (pending[0]["step"] <= steps[i] and (i + 1 == h.n or pending[0]["step"] < steps[i + 1])):
            e = pending.pop(0)
            w.write_eval(
                e["epoch"],
                e["step"],
                e["test_loss"],
                e["accuracy"],
                e["train_loss"],
                e["train_accuracy"],
                e.get("confusion"),
            )
    w.write_end(reason, int(steps[-1]) if h.n else 0)
