"""The app's side of the engine process: start, talk to, and stop it.

A reader thread blocks on the pipe and queues messages; the GUI drains the queue on its timer,
so the window never waits for MindSpore and the engine never waits for the window."""
from __future__ import annotations

import collections
import multiprocessing
import threading

from ..engine.process import serve

JOIN_SECONDS = 1.0  # polite quit, then kill: closing stays well under 2 s


class EngineClient:
    def __init__(self, mode: str = "pynative", device: str = "CPU"):
        ctx = multiprocessing.get_context("spawn")
        self.mode, self.device = mode, device  # what the process is set up for (devices.prepare_process)
        self._conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=serve, args=(child, mode, device), name="gradviz-engine", daemon=True)
        self.process.start()
        child.close()  # so that the reader sees EOF when the process ends
        self.inbox: collections.deque = collections.deque()
        self._reader = threading.Thread(target=self._read, name="gradviz-engine-reader", daemon=True)
        self._reader.start()
        self.closed = False

    def _read(self) -> None:
        while True:
            try:
                msg = self._conn.recv()
            except (EOFError, OSError):
                self.inbox.append(("died", None))
                return
            except Exception as e:  # an unreadable message: report, keep reading
                self.inbox.append(("error", None, f"unreadable message from the engine: {e}", ""))
                continue
            self.inbox.append(msg)

    def send(self, *msg) -> bool:
        if self.closed:
            return False
        try:
            self._conn.send(msg)
            return True
        except (OSError, ValueError):
            return False

    def drain(self) -> list:
        out = []
        while self.inbox:
            out.append(self.inbox.popleft())
        return out

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self, kill: bool = False) -> None:
        """Stop the process (politely unless kill) and join it and the reader, within ~2 s."""
        if self.closed:
            return
        self.closed = True
        if not kill:
            try:
                self._conn.send(("quit",))
            except (OSError, ValueError):
                pass
            self.process.join(JOIN_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(JOIN_SECONDS)
        self._reader.join(JOIN_SECONDS)
        self._conn.close()
        if not self.process.is_alive():
            self.process.close()
