"""The app's side of the engine process: start, talk to, and stop it, never blocking the GUI.

Two threads do the pipe's waiting: a reader blocks on the pipe and queues replies (the GUI drains
them on its timer), and a sender takes commands from a bounded outbox and writes them (a stopped
engine that no longer reads fills the pipe, and a write to a full pipe blocks: the sender waits
then, not the GUI). Live option changes are coalesced in the outbox: only the latest value of each
is sent. The reader notes when the engine was last heard from, for the controller's watchdog."""

from __future__ import annotations

import collections
import threading
import time

from ..engine import entry
from ..engine import protocol as msg
from ..i18n import Msg

JOIN_SECONDS = 1.0  # polite quit, then kill: closing stays well under 2 s
OUTBOX_LIMIT = 256  # commands waiting to be sent; past this, send() refuses (the engine is not reading)


class EngineClient:
    def __init__(self, mode: str = "pynative", device: str = "CPU", started=None):
        self.mode, self.device = mode, device  # what the process is set up for (devices.prepare_process)
        # `started` (process, connection) if given; else the process the app spawned first thing
        # at launch, if it suits; else a fresh one
        self.process, self._conn = started or entry.take(mode, device) or entry.spawn(mode, device)
        self.inbox: collections.deque = collections.deque()
        self.last_heard = time.monotonic()  # when a message last came (set by the reader)
        self._outbox: collections.deque = collections.deque()
        self._wake = threading.Condition()
        self.closed = False
        self._reader = threading.Thread(target=self._read, name="gradviz-engine-reader", daemon=True)
        self._sender = threading.Thread(target=self._write, name="gradviz-engine-sender", daemon=True)
        self._reader.start()
        self._sender.start()

    # -- threads ----------------------------------------------------------------------------------
    def _read(self) -> None:
        while True:
            try:
                m = self._conn.recv()
            except (EOFError, OSError):
                self.inbox.append(msg.Gone())
                return
            except Exception as e:  # an unreadable message: report, keep reading
                m = msg.Error(
                    None, Msg("EngineClient", "unreadable message from the engine: {error}").format(error=str(e))
                )
            self.last_heard = time.monotonic()
            if not isinstance(m, msg.Heartbeat):
                self.inbox.append(m)

    def _write(self) -> None:
        while True:
            with self._wake:
                while not self._outbox and not self.closed:
                    self._wake.wait()
                if not self._outbox:
                    return  # closed, and everything sent
                m = self._outbox.popleft()
            try:
                self._conn.send(m)  # may block while the engine does not read: this thread waits
            except (OSError, ValueError):
                return  # the engine is gone; the reader reports it
            if isinstance(m, msg.Quit):
                return

    # -- the GUI's side ---------------------------------------------------------------------------
    def send(self, m) -> bool:
        """Queue a command for the engine; never blocks. A SetOption replaces a queued one of the
        same option. False if the client is closed or the outbox is full."""
        with self._wake:
            if self.closed:
                return False
            if isinstance(m, msg.SetOption):
                for i, queued in enumerate(self._outbox):
                    if isinstance(queued, msg.SetOption) and queued.name == m.name:
                        self._outbox[i] = m
                        return True
            if len(self._outbox) >= OUTBOX_LIMIT:
                return False
            self._outbox.append(m)
            self._wake.notify()
        return True

    @property
    def pending(self) -> int:
        """Commands queued and not yet written to the pipe."""
        return len(self._outbox)

    def silent_for(self) -> float:
        """Seconds since the engine was last heard from."""
        return time.monotonic() - self.last_heard

    def drain(self) -> list:
        out = []
        while self.inbox:
            out.append(self.inbox.popleft())
        return out

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self, kill: bool = False) -> None:
        """Stop the process (politely unless kill) and join it and both threads, within ~2 s."""
        with self._wake:
            if self.closed:
                return
            if not kill:
                self._outbox.clear()  # nothing else matters now
                self._outbox.append(msg.Quit())
            self.closed = True
            self._wake.notify()
        if not kill:
            self.process.join(JOIN_SECONDS)
        if self.process.is_alive():
            self.process.kill()  # also ends a stopped (SIGSTOP) process, and unblocks the sender
            self.process.join(JOIN_SECONDS)
        self._sender.join(JOIN_SECONDS)
        self._reader.join(JOIN_SECONDS)
        self._conn.close()
        if not self.process.is_alive():
            self.process.close()
