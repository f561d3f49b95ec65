"""Training history in growable numpy buffers: what the plots draw and what export writes.

Appends come in batches; capacity doubles, so a million steps cost a few dozen copies. Qt-free."""
from __future__ import annotations

from typing import IO

import numpy as np

from .layout import Layout
from .records import HistoryWriter


class History:
    def __init__(self, param_layout: Layout, grad_layout: Layout, aux_layout: Layout, capacity: int = 1024):
        self.param_layout, self.grad_layout, self.aux_layout = param_layout, grad_layout, aux_layout
        self.n = 0
        self.version = 0  # bumped on every change, so views redraw only when needed
        self._alloc(capacity)

    def _alloc(self, cap: int) -> None:
        self._step = np.zeros(cap, np.int64)
        self._loss = np.zeros(cap, np.float32)
        self._params = np.zeros((cap, self.param_layout.total), np.float32)
        self._grads = np.zeros((cap, self.grad_layout.total), np.float32)
        self._aux = np.zeros((cap, self.aux_layout.total), np.float32)
        self._gnorm = np.zeros(cap, np.float32)
        self._ms = np.zeros(cap, np.float32)

    @property
    def capacity(self) -> int:
        return len(self._step)

    def _grow(self, need: int) -> None:
        cap = self.capacity
        while cap < need:
            cap *= 2
        old = (self._step, self._loss, self._params, self._grads, self._aux, self._gnorm, self._ms)
        self._alloc(cap)
        for dst, src in zip((self._step, self._loss, self._params, self._grads, self._aux, self._gnorm, self._ms), old):
            dst[:self.n] = src[:self.n]

    def append(self, steps, loss, params, grads, aux, step_ms) -> None:
        """Append a batch: 1-D steps/loss/step_ms and 2-D (batch, total) params/grads/aux."""
        k = len(steps)
        if k == 0:
            return
        if self.n + k > self.capacity:
            self._grow(self.n + k)
        s = slice(self.n, self.n + k)
        self._step[s] = steps
        self._loss[s] = loss
        self._params[s] = np.asarray(params).reshape(k, -1)
        g = np.asarray(grads, np.float32).reshape(k, -1)
        self._grads[s] = g
        self._aux[s] = np.asarray(aux).reshape(k, -1)
        with np.errstate(over="ignore", invalid="ignore"):
            self._gnorm[s] = np.sqrt(np.sum(g.astype(np.float64) ** 2, axis=1))
        self._ms[s] = step_ms
        self.n += k
        self.version += 1

    def clear(self) -> None:
        self.n = 0
        self.version += 1

    # views of the filled part (no copies)
    @property
    def steps(self) -> np.ndarray:
        return self._step[:self.n]

    @property
    def loss(self) -> np.ndarray:
        return self._loss[:self.n]

    @property
    def params(self) -> np.ndarray:
        return self._params[:self.n]

    @property
    def grads(self) -> np.ndarray:
        return self._grads[:self.n]

    @property
    def aux(self) -> np.ndarray:
        return self._aux[:self.n]

    @property
    def grad_norm(self) -> np.ndarray:
        return self._gnorm[:self.n]

    @property
    def step_ms(self) -> np.ndarray:
        return self._ms[:self.n]

    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self._step, self._loss, self._params, self._grads, self._aux, self._gnorm, self._ms))

    def export(self, fp: IO[str], config: dict, inputs: dict, reason: str, session: dict | None = None,
               program: str | None = None) -> None:
        """Write the history in the `gradviz run` JSON Lines format."""
        w = HistoryWriter(fp, self.param_layout, self.grad_layout, self.aux_layout)
        w.write_run(config, inputs, session=session, program=program)
        for i in range(self.n):
            w.write_step(self._step[i], self._loss[i], self._params[i], self._grads[i], self._aux[i], self._ms[i])
        w.write_end(reason, int(self._step[self.n - 1]) if self.n else 0)
