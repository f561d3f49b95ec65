"""Which MindSpore devices this machine has, probed without starting the runtime.

MindSpore fixes the device once per process, so `use_device` may be called once; a different
device needs a new process (the app restarts its engine process for that)."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path

from ..i18n import Msg
from ..model.session import DEVICES


class DeviceError(RuntimeError):
    """The device asked for cannot be used in this process."""


_REASONS = {
    "GPU": Msg("Devices", "no CUDA GPU with a working driver was found on this machine"),
    "Ascend": Msg("Devices", "no Ascend NPU with its CANN runtime was found on this machine"),
    "CPU": Msg("Devices", "MindSpore's CPU backend is not available"),
}
_chosen: str | None = None
_lock = threading.Lock()
_prepared: tuple[str, str] | None = None


def prepare_process(mode: str, device: str = "CPU") -> int | None:
    """Runtime settings for a process that trains in `mode` ("pynative" or "graph") on
    `device`: call once, before MindSpore starts. Returns the CPU this call pinned the process
    to, if it did.

    On the CPU both modes run MindSpore's host pipeline in the calling thread
    (MS_DEV_HOST_BLOCKING_RUN=1) on one core. The default pipeline keeps a queue thread and a
    kernel thread spinning beside the Python thread; whatever else runs (the window) then
    delays the hand-offs between them (benchmarks/RESULTS.md, "PyNative" and "Graph mode"):
    - PyNative: one core trains as fast as the default pipeline spread over two, and the app
      stays near the bare loop, where with the default pipeline it fell well behind;
    - Graph mode: MindSpore runs a small compiled graph (up to ~100 kernels) in the calling
      thread, and a larger one through its actor threads, which on one core is 3-5 times
      slower (Engine._tune measures the steps per call that stay under that); the default
      pipeline kept both cores busy, which left the window none.
    On one core the hand-offs are yields on the same core and the window has the other core to
    itself. Other devices keep the defaults: these settings are tuned for the CPU only.
    The mode is still fixed per process (a mode switch starts a new one, as a device switch
    does): MindSpore's jit caches and the engine's programs are per mode.
    """
    global _prepared
    if _prepared is not None:
        if _prepared != (mode, device):
            raise DeviceError(
                Msg(
                    "Devices",
                    "this process was set up for {was} on {was_device}; {mode} on {device} needs a new process",
                ).format(was=_prepared[0], was_device=_prepared[1], mode=mode, device=device)
            )
        return None
    _prepared = (mode, device)
    if device != "CPU":
        return None
    os.environ["MS_DEV_HOST_BLOCKING_RUN"] = "1"
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cpus) < 2:
        return None
    os.sched_setaffinity(0, {cpus[-1]})  # MindSpore's threads, made later, inherit it
    return cpus[-1]


def prepared_for() -> tuple[str, str] | None:
    """(mode, device) this process was set up for by prepare_process, or None."""
    return _prepared


def quiet_mindspore() -> None:
    """Call before MindSpore loads. MindSpore prints [WARNING] lines on stderr by default: keep
    only errors; and its compile artefacts go to GradViz's cache folder (route_artefacts)."""
    os.environ.setdefault("GLOG_v", "3")
    route_artefacts()


# Where MindSpore 2.10 writes compile artefacts, "." (the working directory) unless set:
# MS_OM_PATH: rank_0/om/analyze_fail.ir when a Graph-mode compile fails;
# MS_DEV_SAVE_GRAPHS_PATH: the *.ir dumps asked for with MS_DEV_SAVE_GRAPHS;
# MS_COMPILER_CACHE_PATH: kernel_meta, somas_meta and graph_cache (MindSpore's environment
# variable list). set_context(save_graphs_path=...) does not move analyze_fail.ir.
ARTEFACT_VARIABLES = ("MS_OM_PATH", "MS_DEV_SAVE_GRAPHS_PATH", "MS_COMPILER_CACHE_PATH")


def artefact_dir() -> Path:
    """GradViz's folder for MindSpore's compile artefacts, in the user's cache folder."""
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "GradViz" / "Cache" / "mindspore"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "GradViz" / "mindspore"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "gradviz" / "mindspore"


def route_artefacts() -> None:
    """Send MindSpore's compile artefacts (rank_0/, analyze_fail.ir, kernel_meta/, *.ir dumps) to
    artefact_dir() instead of the user's working directory; a folder the user chose through one
    of these variables is kept. Falls back to the temporary folder if the cache cannot be made."""
    if all(os.environ.get(v) for v in ARTEFACT_VARIABLES):
        return
    folder = artefact_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        folder = Path(tempfile.gettempdir()) / "gradviz-mindspore"
    for v in ARTEFACT_VARIABLES:
        if not os.environ.get(v):
            os.environ[v] = str(folder)


def import_mindspore():
    """Import MindSpore (the longest part of the engine's start) without Triton: MindSpore's
    package imports Triton whenever it is installed, as it is with PyTorch (the optional extra),
    only to register its dtype names for Triton kernels, which GradViz never runs; that import is
    guarded (ImportError is passed over) and slows start-up. Triton stays importable
    afterwards."""
    import sys

    if "mindspore" in sys.modules or "triton" in sys.modules:
        import mindspore

        return mindspore
    sys.modules["triton"] = None  # `import triton` raises ImportError while this is set
    try:
        import mindspore
    finally:
        if sys.modules.get("triton", False) is None:
            del sys.modules["triton"]
    return mindspore


def probe() -> dict[str, tuple[bool, str]]:
    """{device: (available, reason if not)} for every device MindSpore knows of."""
    quiet_mindspore()
    mindspore = import_mindspore()
    out: dict[str, tuple[bool, str]] = {}
    for dev in DEVICES:
        try:
            ok = bool(getattr(mindspore.device_context, dev.lower()).is_available())
        except Exception as e:  # a broken plugin is reported, not raised
            ok, why = False, Msg("Devices", "probing {device} failed: {error}").format(device=dev, error=str(e))
            out[dev] = (ok, why)
            continue
        out[dev] = (ok, "" if ok else _REASONS[dev])
    return out


def use_device(device: str) -> None:
    """Fix this process's MindSpore device, once. Raises DeviceError with the reason. Safe from
    several threads at once (a command-line run in a process whose other thread trains)."""
    with _lock:
        _use_device(device)


def _use_device(device: str) -> None:
    global _chosen
    if device not in DEVICES:
        raise DeviceError(
            Msg("Devices", 'unknown device "{device}"; use one of {devices}').format(
                device=device, devices=", ".join(DEVICES)
            )
        )
    if _chosen == device:
        return
    ok, why = probe()[device]
    if not ok:
        raise DeviceError(Msg("Devices", "device {device} is not available: {why}").format(device=device, why=why))
    if _chosen is not None:
        raise DeviceError(
            Msg(
                "Devices",
                "this process already runs on {device}; MindSpore cannot switch to {new} without a new process",
            ).format(device=_chosen, new=device)
        )
    import mindspore

    mindspore.set_device(device)
    if device == "CPU":
        # synchronous launches make PyNative training of small graphs several times faster
        # than MindSpore's default asynchronous pipeline; Graph mode is unchanged
        mindspore.runtime.launch_blocking()
    _chosen = device


def current_device() -> str | None:
    return _chosen
