"""Command line: `gradviz` opens the app, `gradviz run` trains headless and writes JSON Lines,
`gradviz screenshot` renders the window to a PNG.

Exit codes of `run`: 0 success, 2 bad input (one line on stderr), 3 stopped on a non-finite
value (the file is still complete), 130 interrupted (the file ends with reason "stopped"),
141 standard output was closed by its reader (as `| head` does)."""
from __future__ import annotations

import argparse
import io
import os
import sys
from dataclasses import replace
from pathlib import Path

from .model.session import APIS, DEVICES, MODES, OPTIMIZERS, Session, SessionError, load_session

EXIT_OK, EXIT_BAD_INPUT, EXIT_NON_FINITE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 2, 3, 130, 141


class BadInput(Exception):
    """Reported as one line on stderr with exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage block
        raise BadInput(message)


def _ci(choices):
    """Case-insensitive choice: 'cpu' and 'CPU' both name the CPU."""
    table = {c.lower(): c for c in choices}

    def conv(v: str) -> str:
        c = table.get(v.lower())
        if c is None:
            raise argparse.ArgumentTypeError(f"{v!r} is not one of {', '.join(choices)}")
        return c
    conv.__name__ = "choice"
    return conv


def _build_parser() -> _Parser:
    p = _Parser(prog="gradviz", description="See MindSpore's automatic differentiation at work.")
    sub = p.add_subparsers(dest="command")
    r = sub.add_parser("run", help="train headless and write JSON Lines")
    src = r.add_mutually_exclusive_group()
    src.add_argument("--preset", help="a preset name (default: tutorial)")
    src.add_argument("--session", help="a session file saved by GradViz")
    r.add_argument("--aux-output", action="store_true", help="return the auxiliary outputs (z) too")
    r.add_argument("--stop-gradient", action="store_true", help="wrap auxiliary outputs in ops.stop_gradient")
    r.add_argument("--has-aux", action="store_true", help="differentiate with has_aux=True")
    r.add_argument("--api", type=_ci(APIS), help="grad, value_and_grad or cell")
    r.add_argument("--steps", type=int, help="maximum number of steps")
    r.add_argument("--until-loss", type=float, help="stop once the loss is below this")
    r.add_argument("--seed", type=int, help="seed of the initial values")
    r.add_argument("--lr", type=float, help="learning rate")
    r.add_argument("--optimizer", type=_ci(OPTIMIZERS), help="sgd, momentum or adam")
    r.add_argument("--mode", type=_ci(MODES), help="pynative or graph")
    r.add_argument("--device", type=_ci(DEVICES), help="CPU, GPU or Ascend")
    r.add_argument("--out", help="output file (default: standard output)")
    s = sub.add_parser("screenshot", help="render the window with a trained preset to a PNG")
    s.add_argument("--preset", default="tutorial")
    s.add_argument("--steps", type=int, default=50)
    s.add_argument("--out", required=True)
    s.add_argument("--aux-output", action="store_true")
    s.add_argument("--mode", type=_ci(MODES), default=None)
    return p


def session_from_args(a: argparse.Namespace) -> tuple[Session, str]:
    """The session a `run` asks for, with command-line options applied; BadInput if invalid."""
    from .model.presets import load_preset

    try:
        if a.session:
            session, source = load_session(a.session), {"session": a.session}
        else:
            session, source = load_preset(a.preset or "tutorial"), {"preset": a.preset or "tutorial"}
    except SessionError as e:
        raise BadInput(str(e)) from None
    o = session.options
    changes = {k: v for k, v in {
        "api": a.api, "steps": a.steps, "until_loss": a.until_loss, "seed": a.seed, "lr": a.lr,
        "optimizer": a.optimizer, "mode": a.mode, "device": a.device}.items() if v is not None}
    o = replace(o, **changes)
    o.aux_output = a.aux_output or o.aux_output
    o.stop_gradient = a.stop_gradient or o.stop_gradient
    o.has_aux = a.has_aux or o.has_aux
    if (o.stop_gradient or o.has_aux) and not o.aux_output:
        raise BadInput("--stop-gradient and --has-aux act on the auxiliary output: add --aux-output")
    session = Session(session.graph, o, session.name)
    problems = session.problems()
    if problems:
        raise BadInput("; ".join(problems))
    return session, next(iter(source.items()))[0] + ":" + next(iter(source.values()))


def cmd_run(a: argparse.Namespace) -> int:
    from .engine.devices import DeviceError
    from .engine.trainer import Engine
    from .formats.records import HistoryWriter
    from .engine.training import finish_step

    session, source = session_from_args(a)
    try:
        engine = Engine(session)
    except (DeviceError, SessionError) as e:
        raise BadInput(str(e)) from None

    out_path = Path(a.out) if a.out else None
    if out_path is not None:
        if out_path.is_dir():
            raise BadInput(f"--out {a.out}: is a folder")
        if not out_path.parent.exists():
            raise BadInput(f"--out {a.out}: the folder {out_path.parent} does not exist")
        try:
            tmp = out_path.with_name(f".{out_path.name}.{os.getpid()}.tmp")
            fp = open(tmp, "w", encoding="utf-8")  # noqa: SIM115 -- closed (and renamed or removed) below
        except OSError as e:
            raise BadInput(f"--out {a.out}: cannot be written ({e.strerror or e})") from None
    else:
        tmp, fp = None, io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=False, write_through=True) if hasattr(sys.stdout, "buffer") else sys.stdout

    w = HistoryWriter(fp, engine.param_layout, engine.grad_layout, engine.aux_layout)
    config = dict(session.options.to_dict(), source=source)
    ok = False
    reason, steps = "stopped", 0
    try:
        w.write_run(config, {n: engine.initial[n] for n in engine.program.input_names},
                    session=session.to_dict(), program=engine.program.source)
        try:
            while True:
                r = engine.step()
                w.write_step(r.step, r.loss, r.params, r.grads, r.aux, r.step_ms, r.lr)
                steps = r.step
                reason = finish_step(engine, r)
                if reason:
                    break
        except KeyboardInterrupt:
            reason = "stopped"
        w.write_end(reason, steps)
        fp.flush()
        ok = True
    finally:
        if tmp is not None:
            fp.close()
            if ok:
                os.replace(tmp, out_path)
            else:
                tmp.unlink(missing_ok=True)
    if reason == "non_finite":
        print(f"gradviz run: stopped at step {steps}: the loss or a gradient is not finite (diverging?)", file=sys.stderr)
        return EXIT_NON_FINITE
    if reason == "stopped":
        return EXIT_INTERRUPTED
    return EXIT_OK


def cmd_screenshot(a: argparse.Namespace) -> int:
    from .ui.screenshot import take_screenshot

    return take_screenshot(a.preset, a.steps, a.out, aux_output=a.aux_output, mode=a.mode)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _build_parser()
    try:
        a = parser.parse_args(argv)
        if a.command == "run":
            try:
                return cmd_run(a)
            except BrokenPipeError:
                # the reader went away (`gradviz run | head`): stop quietly, as Unix tools do
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes at exit
                return EXIT_BROKEN_PIPE
        if a.command == "screenshot":
            if a.steps < 0:
                raise BadInput("--steps must be 0 or more")
            return cmd_screenshot(a)
    except BadInput as e:
        cmd = f"gradviz {argv[0]}" if argv and argv[0] in ("run", "screenshot") else "gradviz"
        print(f"{cmd}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .app import launch

    return launch()


if __name__ == "__main__":
    sys.exit(main())
