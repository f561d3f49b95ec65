"""Test set-up: offscreen Qt, quiet MindSpore, and a guard that fails any test leaving a
thread, timer or process running."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GLOG_v", "3")

import multiprocessing
import threading

import pytest


@pytest.fixture(autouse=True)
def no_leftover_threads_or_processes(request):
    before = {t.ident for t in threading.enumerate()}
    yield
    leftover = [t for t in threading.enumerate() if t.ident not in before and t.is_alive()
                and not t.daemon]
    kids = multiprocessing.active_children()
    for p in kids:
        p.kill()
        p.join(5)
    assert not kids, f"test left processes running: {kids}"
    assert not leftover, f"test left threads running: {leftover}"
