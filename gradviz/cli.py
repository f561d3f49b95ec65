"""Command line: `gradviz` opens the app, `gradviz run` trains headless and writes JSON Lines,
`gradviz screenshot` renders the window to a PNG, an SVG or an animated GIF.

Exit codes of `run`: 0 success, 2 bad input (one line on stderr, nothing written), 3 stopped on a
non-finite value (the file is still complete), 4 the output could not be written (a full disk, an
I/O error: one line on stderr; a file named by --out is left as it was), 130 interrupted by
SIGINT (Ctrl-C) and 143 by SIGTERM (either way the file is complete and ends with reason
"stopped"), 141 standard output was closed by its reader (as `| head` does).

SIGINT and SIGTERM are blocked from the first moment of `run`, before MindSpore is loaded (its
threads inherit the mask, and MindSpore's own SIGINT handler, which it installs on every step and
which ends the process with SIGTERM, never runs), and taken between steps: the run stops after
the current step, writes its end record and renames its file into place, so no signal leaves a
torn or temporary file behind."""

from __future__ import annotations

import argparse
import errno
import io
import os
import signal
import sys
from dataclasses import replace

# Only the standard library at import: main() blocks the stop signals before anything (numpy's
# thread pool, MindSpore) starts a thread, so that every thread inherits the mask.

EXIT_OK, EXIT_BAD_INPUT, EXIT_NON_FINITE, EXIT_WRITE_FAILED = 0, 2, 3, 4
EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_BROKEN_PIPE = 130, 143, 141
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


COMMANDS = ("run", "variants", "gradcheck", "backprop", "transform", "export", "parity", "screenshot", "import")


class _Stop:
    """The first stop signal taken, if any."""

    signum: int | None = None


def _write_failed():
    from .safe_io import WriteFailed

    return WriteFailed


def stop_requested() -> int | None:
    """The stop signal waiting for this process (SIGINT or SIGTERM, blocked by main), if any."""
    if _Stop.signum is None:
        info = signal.sigtimedwait(STOP_SIGNALS, 0)
        if info is not None:
            # MindSpore's SIGINT handler (some of its threads unblock SIGINT) ends the process by
            # sending it SIGTERM: a SIGTERM from this very process is that Ctrl-C
            own = info.si_signo == signal.SIGTERM and info.si_pid == os.getpid()
            _Stop.signum = signal.SIGINT if own else info.si_signo
    return _Stop.signum


class BadInput(Exception):
    """Reported as one line on stderr with exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage block, user text shortened and escaped
        from .model.formatting import shorten

        raise BadInput(shorten(message, 240))


def _ci(choices):
    """Case-insensitive choice: 'cpu' and 'CPU' both name the CPU."""
    table = {c.lower(): c for c in choices}

    def conv(v: str) -> str:
        from .model.formatting import quote

        c = table.get(v.lower())
        if c is None:
            raise argparse.ArgumentTypeError(f"{quote(v)} is not one of {', '.join(choices)}")
        return c

    conv.__name__ = "choice"
    return conv


def _build_parser() -> _Parser:
    p = _Parser(prog="gradviz", description="See MindSpore's automatic differentiation at work.")
    sub = p.add_subparsers(dest="command")
    r = sub.add_parser("run", help="train headless and write JSON Lines")
    _add_run_options(r)
    r.add_argument("--out", help="output file (default: standard output)")
    r.add_argument(
        "--history-budget",
        type=_budget,
        metavar="MB",
        help="memory the run may keep, in MB (default 1024): the training states kept for rewinding get a quarter",
    )
    v = sub.add_parser("variants", help="the gradients of the four ways of returning z, side by side")
    _add_source(v)
    v.add_argument("--seed", type=int, help="seed of the initial values")
    v.add_argument("--json", action="store_true", help="write JSON instead of a table")
    g = sub.add_parser("gradcheck", help="MindSpore's gradients against float64 central differences")
    _add_run_options(g)
    g.add_argument("--json", action="store_true", help="write JSON instead of a table")
    b = sub.add_parser("backprop", help="the forward and backward pass stage by stage, the chain rule in numbers")
    _add_run_options(b)
    b.add_argument(
        "--element",
        action="append",
        type=_element,
        metavar="I|NODE=I",
        help="the element (a flat index) to follow: I for every tensor, NODE=I for one node (default 0)",
    )
    b.add_argument("--json", action="store_true", help="write JSON instead of a list")
    t = sub.add_parser("transform", help="MindSpore's other transforms against float64 finite differences")
    t.add_argument(
        "kind",
        choices=("hessian", "jacobian", "vjp"),
        help="hessian: grad of grad and the Hessian; jacobian: jacrev and jacfwd; vjp: vjp and jvp",
    )
    _add_run_options(t)
    t.add_argument("--param", help="the Parameter differentiated with respect to (default: the first)")
    t.add_argument("--node", help="jacobian, vjp: the node differentiated (default: z, else the loss)")
    t.add_argument("--element", type=int, default=0, metavar="I", help="hessian: the flat index of p_i (default 0)")
    t.add_argument("--sample", type=int, metavar="K", help="hessian, jacobian: K random elements where it is too large")
    t.add_argument("--v", type=_floats, metavar="V1,V2,...", help="vjp: the vector v, node-shaped (default ones)")
    t.add_argument("--u", type=_floats, metavar="U1,U2,...", help="vjp: the vector u, Parameter-shaped (default ones)")
    t.add_argument("--json", action="store_true", help="write JSON instead of text")
    x = sub.add_parser("export", help="write the session as a standalone MindSpore or PyTorch script")
    x.add_argument("--framework", type=_ci(("mindspore", "pytorch")), required=True, help="mindspore or pytorch")
    _add_run_options(x)
    x.add_argument("--out", required=True, help="the script to write (FILE.py)")
    q = sub.add_parser("parity", help="train in PyTorch beside MindSpore from the same values and compare per step")
    _add_run_options(q)
    q.add_argument("--json", action="store_true", help="write JSON instead of a table")
    s = sub.add_parser("screenshot", help="render the window with a trained run to a PNG, an SVG or an animated GIF")
    _add_run_options(s)
    s.add_argument(
        "--size", type=_size, help=f"the window and its screen, WxH (default {DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]})"
    )
    s.add_argument("--lang", type=_ci(LANGUAGES), help="the window's language: zh or en")
    s.add_argument("--presentation", action="store_true", help="in presentation mode")
    s.add_argument(
        "--tab",
        type=_ci(SCREENSHOT_TABS),
        help="the bottom tab in front: " + ", ".join(SCREENSHOT_TABS) + " (default plots)",
    )
    s.add_argument("--frames", type=int, help="frames of an animated GIF (10 to 200; default 20)")
    s.add_argument("--out", required=True, help="FILE.png, FILE.svg or FILE.gif (an animated GIF across the run)")
    m = sub.add_parser("import", help="read a MindSpore program (never run) and write its session")
    m.add_argument("file", help="the program, FILE.py")
    m.add_argument("--out", help="the session file to write (default: standard output)")
    return p


def _element(v: str) -> tuple[str, int]:
    """'3' (every node) or 'w=3' (node w): the flat index of the element --element follows."""
    name, _, index = v.rpartition("=")
    try:
        return name, int(index)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{v[:40]!r} is not I or NODE=I (I a whole number)") from None


def _floats(v: str) -> tuple[float, ...]:
    """'1,0,0' or '2': the numbers of a vector (one number: every element)."""
    try:
        return tuple(float(x) for x in v.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{v[:40]!r} is not numbers separated by commas") from None


LANGUAGES = ("zh", "en")
DEFAULT_SIZE = (1600, 1000)
MIN_SIZE, MAX_SIZE = (320, 240), (7680, 4320)
SCREENSHOT_FORMATS = ("png", "svg", "gif")
SCREENSHOT_STEPS = 50
# --tab: the bottom tab a screenshot shows in front (ui/screenshot.py: TAB_DOCKS, each one's dock)
SCREENSHOT_TABS = ("plots", "experiments", "program", "images", "data")


def _size(text: str) -> tuple[int, int]:
    """'1280x720' -> (1280, 720), within MIN_SIZE..MAX_SIZE."""
    import re

    from .model.formatting import quote

    m = re.fullmatch(r"(\d{1,6})[xX](\d{1,6})", text.strip())
    size = (int(m.group(1)), int(m.group(2))) if m else None
    if size is None or not (MIN_SIZE[0] <= size[0] <= MAX_SIZE[0] and MIN_SIZE[1] <= size[1] <= MAX_SIZE[1]):
        raise argparse.ArgumentTypeError(
            f"{quote(text)} is not a window size: give WIDTHxHEIGHT in pixels, from "
            f"{MIN_SIZE[0]}x{MIN_SIZE[1]} to {MAX_SIZE[0]}x{MAX_SIZE[1]} (e.g. 1280x720)"
        )
    return size


def _budget(text: str) -> int:
    """--history-budget MB -> bytes, within the range the app's spin box takes."""
    from .model.formatting import quote
    from .model.history import MAX_BUDGET_MB, MIN_BUDGET_MB

    try:
        mb = int(text.strip())
    except ValueError:
        mb = None
    if mb is None or not MIN_BUDGET_MB <= mb <= MAX_BUDGET_MB:
        raise argparse.ArgumentTypeError(
            f"{quote(text)} is not a budget: give whole megabytes from {MIN_BUDGET_MB} to {MAX_BUDGET_MB:,}"
        )
    return mb << 20


def _add_source(r) -> None:
    src = r.add_mutually_exclusive_group()
    src.add_argument("--preset", help="a preset name (default: tutorial)")
    src.add_argument("--session", help="a session file saved by GradViz")
    src.add_argument("--code", help="a MindSpore program, FILE.py (read, never run)")


def _add_run_options(r) -> None:
    """The options that say what is trained: shared by run, gradcheck (and every command that
    trains what `run` would)."""
    from .model.options import add_flags

    _add_source(r)
    add_flags(r, _ci)  # every option the option table gives a flag
    r.add_argument("--epochs", type=int, help="over a Dataset node: train this many epochs (sets --steps)")
    r.add_argument("--batch-size", type=int, help="over a Dataset node: the mini-batch size")


def session_from_args(a: argparse.Namespace):
    """(session, source) of a `run`, with command-line options applied; BadInput if invalid."""
    from .model.options import TABLE as OPTION_TABLE
    from .model.presets import load_preset
    from .model.session import Session, SessionError, load_session

    for opt in ("preset", "session", "code", "out"):
        if getattr(a, opt, None) == "":
            raise BadInput(f"--{opt} needs a value; an empty one is not allowed")
    try:
        if getattr(a, "code", None):
            session, source = _import_code(a.code), {"code": a.code}
        elif a.session:
            session, source = load_session(a.session), {"session": a.session}
        else:
            session, source = load_preset(a.preset or "tutorial"), {"preset": a.preset or "tutorial"}
    except SessionError as e:
        raise BadInput(str(e)) from None
    flagged = [opt for opt in OPTION_TABLE if opt.flag is not None]
    o = session.options
    given = {opt.name: getattr(a, opt.name, None) for opt in flagged if opt.type is not bool}
    o = replace(o, **{k: v for k, v in given.items() if v is not None})
    for opt in flagged:  # a switch turns its option on; left out, the session's value stays
        if opt.type is bool and getattr(a, opt.name, False):
            setattr(o, opt.name, True)
    if (o.stop_gradient or o.has_aux) and not o.aux_output:
        raise BadInput("--stop-gradient and --has-aux act on the auxiliary output: add --aux-output")
    session = Session(session.graph, o, session.name)
    _data_flags(a, session)
    problems = session.problems()
    if problems:
        raise BadInput("; ".join(problems))
    return session, next(iter(source.items()))[0] + ":" + next(iter(source.values()))


def _data_flags(a: argparse.Namespace, session) -> None:
    """--batch-size and --epochs onto the session's Dataset node; BadInput without one."""
    from .model.options import OPTIONS

    epochs, batch = getattr(a, "epochs", None), getattr(a, "batch_size", None)
    if epochs is None and batch is None:
        return
    node = session.graph.dataset()
    if node is None:
        raise BadInput("--epochs and --batch-size need a session with a Dataset node")
    if batch is not None:
        node.attrs = dict(node.attrs, batch_size=batch)
    problems = [p.message for p in session.graph.validate() if p.node == node.name]
    if problems:
        raise BadInput("--batch-size: " + problems[0] if batch is not None else problems[0])
    if epochs is not None:
        spec = session.graph.data_spec()
        most = OPTIONS["steps"].high // spec.steps_per_epoch()
        if not 1 <= epochs <= most:
            raise BadInput(f"--epochs must be a whole number from 1 to {most:,}, not {epochs}")
        session.options.steps = epochs * spec.steps_per_epoch()


def _import_code(path: str):
    """The session of a MindSpore program; BadInput with one FILE:LINE:COL line per problem."""
    from .model.code_import import CodeError, import_file

    try:
        return import_file(path)
    except CodeError as e:
        raise BadInput("\n".join(e.lines())) from None


def _inputs(a: argparse.Namespace) -> list[str]:
    """The files a command reads, which its --out must not be."""
    return [f for f in (getattr(a, "session", None), getattr(a, "code", None)) if f]


def cmd_import(a: argparse.Namespace) -> int:
    """Read a MindSpore program into a session: the session's JSON (to --out or standard output)
    and exit 0, or one FILE:LINE:COL line per problem on stderr and exit 2."""
    from .model.code_import import CodeError, import_file
    from .safe_io import FileProblem, atomic_write_text, check_output

    if a.out is not None:
        try:
            check_output(a.out, [a.file])
        except FileProblem as e:
            raise BadInput(f"--out {e}") from None
    try:
        session = import_file(a.file)
    except CodeError as e:
        for line in e.lines():
            print(line, file=sys.stderr)
        return EXIT_BAD_INPUT
    if a.out is None:
        print(session.to_json())
        return EXIT_OK
    try:
        atomic_write_text(a.out, session.to_json() + "\n", [a.file])
    except FileProblem as e:
        if isinstance(e, _write_failed()):
            raise
        raise BadInput(f"--out {e}") from None
    return EXIT_OK


def _stdout_stream():
    if sys.stdout is None:  # started with standard output closed (`gradviz run >&-`)
        raise OSError(errno.EBADF, "it is closed")
    if hasattr(sys.stdout, "buffer"):
        return io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=False, write_through=True)
    return sys.stdout


def cmd_run(a: argparse.Namespace) -> int:
    from .engine.allocator import return_large_blocks
    from .engine.devices import DeviceError
    from .engine.engine import Engine
    from .formats.records import HistoryWriter
    from .engine.run_end import finish_step
    from .model.ending import EndReason
    from .model.layout import row_slices
    from .model.steps import epoch_and_batch
    from .safe_io import FileProblem, SafeOutput, check_output
    from .model.session import SessionError

    session, source = session_from_args(a)
    inputs = _inputs(a)
    try:
        if a.out is not None:
            check_output(a.out, inputs)  # refuse a bad --out before MindSpore is loaded
    except FileProblem as e:
        raise BadInput(f"--out {e}") from None
    return_large_blocks()  # a large graph's memory would otherwise grow for as long as it trains
    try:
        engine = Engine(session)
    except (DeviceError, SessionError) as e:
        raise BadInput(str(e)) from None
    try:
        out = SafeOutput(a.out, inputs) if a.out is not None else None
    except FileProblem as e:
        raise BadInput(f"--out {e}") from None
    fp = out.file if out is not None else _stdout_stream()

    if a.history_budget is not None:  # the run streams its steps: only the kept states grow
        engine.checkpoints.fit_history_budget(a.history_budget)
    plan = engine.plan  # large tensors are written as their summaries (model/recording.py)
    w = HistoryWriter(fp, *plan.layouts)
    pc, gc, ac = row_slices(plan.layouts[0], plan.layouts[1])
    config = dict(session.options.to_dict(), source=source)
    reason, steps = EndReason.STOPPED, 0
    spec = session.graph.data_spec()
    fed = {n.name for n in session.graph.data_inputs()}
    spe = engine.steps_per_epoch
    written = 0  # the evaluations written (one after each epoch)
    try:
        w.write_run(
            config,
            {n: engine.initial[n] for n in engine.program.input_names if n not in fed},
            session=session.to_dict(),
            program=engine.program.source,
            dataset=spec.describe() if spec is not None else None,
        )
        try:
            while stop_requested() is None:
                r = engine.step()
                row = plan.reduce_row(r.row)
                eb = epoch_and_batch(r.step, spe) if spe else (None, None)
                w.write_step(r.step, r.loss, row[pc], row[gc], row[ac], r.step_ms, r.lr, *eb)
                steps = r.step
                reason = finish_step(engine, r)
                for ev in engine.evals[written:]:  # the update of an epoch's last step was kept
                    w.write_eval(
                        ev.epoch, ev.step, ev.test_loss, ev.accuracy, ev.train_loss, ev.train_accuracy, ev.confusion
                    )
                written = len(engine.evals)
                if reason:
                    break
            else:
                reason = EndReason.STOPPED
        except KeyboardInterrupt:  # SIGINT sent to a thread that does not block it
            reason, _Stop.signum = EndReason.STOPPED, _Stop.signum or signal.SIGINT
        w.write_end(reason, steps)
        fp.flush()
        if out is not None:
            out.commit()
        elif fp is not sys.stdout:
            fp.detach()  # our wrapper, flushed: sys.stdout's buffer stays open (main() runs in tests)
    except OSError as e:
        if out is None:
            raise  # standard output failed: see _main
        raise out.failed(e) from None  # --out's disk is full: that file is named, left as it was
    except BaseException:
        if out is not None:
            out.discard()
        raise
    if reason == EndReason.NON_FINITE:
        print(
            f"gradviz run: stopped at step {steps}: the loss or a gradient is not finite (diverging?)", file=sys.stderr
        )
        return EXIT_NON_FINITE
    if reason == EndReason.STOPPED:
        return 128 + (_Stop.signum or signal.SIGINT)
    return EXIT_OK


def _compute(a: argparse.Namespace, compute):
    """compute(session) for the session the options name; a device or session problem is bad input."""
    from .engine.devices import DeviceError
    from .model.session import SessionError

    session, _ = session_from_args(a)
    try:
        return session, compute(session)
    except (DeviceError, SessionError) as e:
        raise BadInput(str(e)) from None


def cmd_variants(a: argparse.Namespace) -> int:
    """The four variants at the initial parameters: a table, or the JSON of docs/cli_and_formats.md."""
    import json

    from .experiments import variants

    session, found = _compute(a, variants.compute)
    if a.json:
        print(json.dumps({"variants": [v.to_json() for v in found]}, indent=1))
        return EXIT_OK
    from .model.formatting import fmt_tensor

    for v in found:
        print(
            f"{v.name}: {v.function_returns}\n  grad_fn = {v.call}\n  returns {v.returns}; differentiates {v.differentiated}"
        )
        for k, g in v.grads.items():
            print(f"  d{k} = {fmt_tensor(g)}")
    print(variants.why(session))
    return EXIT_OK


def cmd_gradcheck(a: argparse.Namespace) -> int:
    """Exit 0 when every element agrees within the tolerance, 1 otherwise."""
    import json

    from .experiments import gradcheck

    _, result = _compute(a, gradcheck.run)
    if a.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print(
            f"central differences, eps {result.eps:g}; an element agrees when |error| <= "
            f"{result.tolerance:g} x max(1, |gradient|)"
        )
        for k, p in result.params.items():
            print(
                f"  d{k}: {p.checked} elements, max abs error {p.max_abs_error:.3g}, "
                f"max rel error {p.max_rel_error:.3g}: {'ok' if p.ok else 'DISAGREES'}"
            )
    return EXIT_OK if result.ok else 1


def _snapshot(session):
    """The engine's values and gradients of every node at the initial parameters (MindSpore, in this process)."""
    from .engine.engine import Engine

    e = Engine(session)
    try:
        snap = e.node_snapshot()
    finally:
        e.close()
    return snap.values, snap.grads


def cmd_backprop(a: argparse.Namespace) -> int:
    """The stages of model/backprop.py on MindSpore's numbers: one line each, or JSON."""
    import json

    from .model.backprop import BackpropError, stages

    session, (values, grads) = _compute(a, _snapshot)
    element: dict[str, int] | int = 0
    for name, i in a.element or ():
        if name:
            if session.graph.get(name) is None:
                raise BadInput(f"--element {name}={i}: there is no node {name!r}")
            element = {**(element if isinstance(element, dict) else {}), name: i}
        elif isinstance(element, dict):
            raise BadInput("--element: give I for every node or NODE=I, not both")
        else:
            element = i
    try:
        found = stages(session.graph, session.options, values, grads, element)
    except BackpropError as e:
        raise BadInput(str(e)) from None
    if a.json:
        print(json.dumps({"stages": [st.to_json() for st in found]}, indent=1))
        return EXIT_OK
    from .model.formatting import fmt_number

    for st in found:
        print(f"{st.phase} {st.node} ({st.kind}): {st.formula.replace(chr(10), ': ')}")
        for t in st.terms:
            up = "" if t.upstream_at is None else f", upstream {fmt_number(t.upstream_at)}"
            cut = f" [cut: {t.note}]" if t.cut else ""
            print(f"  via {t.via}{'.' + t.port if t.port else ''}: {t.text()}{up}, share {fmt_number(t.share)}{cut}")
        print(f"  = {fmt_number(st.result)}")
    return EXIT_OK


def cmd_transform(a: argparse.Namespace) -> int:
    """One of experiments/transforms.py at the initial parameters: text, or JSON. Exit 0 when
    MindSpore agrees with the finite differences, 1 otherwise."""
    import json

    from .experiments import transforms

    if a.kind != "hessian" and a.element != 0:
        raise BadInput("--element is for hessian")
    if a.kind != "vjp" and (a.v is not None or a.u is not None):
        raise BadInput("--v and --u are for vjp")
    if a.kind == "vjp" and a.sample is not None:
        raise BadInput("--sample is for hessian and jacobian")
    if a.kind == "hessian" and a.node is not None:
        raise BadInput("--node is for jacobian and vjp")
    run = {
        "hessian": lambda s: transforms.higher_order(s, a.param, a.element, sample=a.sample),
        "jacobian": lambda s: transforms.jacobian(s, a.node, a.param, sample=a.sample),
        "vjp": lambda s: transforms.products(s, a.node, a.param, a.v, a.u),
    }[a.kind]
    _, r = _compute(a, run)
    if a.json:
        print(json.dumps(r.to_json(), indent=1))
    else:
        for line in transform_lines(r):
            print(line)
    return EXIT_OK if r.ok else 1


def transform_lines(r) -> list[str]:
    """A transform's result as text: what was called, MindSpore's numbers, the reference's."""
    from .experiments import transforms
    from .model.formatting import fmt_number

    def fmt_tensor(a) -> str:  # every number up to 64, else the shape and range
        import numpy as np

        from .model.formatting import fmt_tensor as summary

        a = np.asarray(a, np.float64)
        if a.size > 64:
            with np.errstate(all="ignore"):
                return summary(a) if np.isfinite(a).any() else f"{a.shape} not computed"
        text = np.array2string(a, precision=4, suppress_small=True, max_line_width=10_000, separator=", ")
        return text.replace("\n", " ")

    d = r.to_json()
    verdict = "agrees" if r.ok else "DISAGREES"
    out = [f"{c}" for c in r.calls]
    if isinstance(r, transforms.HigherOrder):
        out.append(f"d2L/d{r.label}^2 = {fmt_number(r.second)} (finite differences {fmt_number(r.second_ref)})")
        which = f"{len(r.elements)} sampled elements {list(map(int, r.elements))}" if r.sampled else "every element"
        out.append(f"Hessian of L over {r.param} ({which}):")
        out.append(f"  MindSpore  {fmt_tensor(r.hessian)}")
        out.append(f"  reference  {fmt_tensor(r.hessian_ref)}")
        if r.note():
            out.append(str(r.note()))
    elif isinstance(r, transforms.Jacobian):
        shown = f"{len(r.rows)} x {len(r.cols)} sampled" if r.sampled else f"{r.outputs} x {r.inputs}"
        out.append(f"d{r.node}/d{r.param} ({shown}):")
        out.append(f"  jacrev     {fmt_tensor(r.jacrev)}")
        out.append(f"  jacfwd     {fmt_tensor(r.jacfwd)}")
        out.append(f"  reference  {fmt_tensor(r.reference)}")
        out.append(str(r.cheaper()))
        out.append(f"chain rule: J^T . dL/d{r.node} = {fmt_tensor(r.chain)}")
        out.append(f"            dL/d{r.param} (grad) = {fmt_tensor(r.grad)}")
        if not r.all_paths:
            out.append(
                f"  ({r.param} also reaches L around {r.node}: J^T . dL/d{r.node} is the share through {r.node})"
            )
    else:
        out.append(f"v = {fmt_tensor(r.v)}, u = {fmt_tensor(r.u)}")
        out.append(f"vjp: J^T v = {fmt_tensor(r.vjp)} (reference {fmt_tensor(r.vjp_ref)})")
        out.append(f"jvp: J u = {fmt_tensor(r.jvp)} (reference {fmt_tensor(r.jvp_ref)})")
        out.append(f"grad(L) = {fmt_tensor(r.grad)}; vjp of L with 1.0 = {fmt_tensor(r.grad_vjp)}")
    if r.error and not isinstance(r, transforms.HigherOrder):  # whose note says it
        out.append(f"MindSpore could not compute it: {r.error}")
    for k in d["kinks"]:
        out.append(k["text"])
    out.append(f"against float64 central differences, tolerance {transforms.TOLERANCE:g}: {verdict}")
    return out


def cmd_export(a: argparse.Namespace) -> int:
    """A standalone script that trains like `gradviz run` with the same options."""
    from .engine.engine import cell_attributes
    from .model.ops import OPS
    from .model.scripts import script
    from .safe_io import FileProblem, WriteFailed, atomic_write_text

    session, _ = session_from_args(a)
    if a.out == "":
        raise BadInput("--out needs a value; an empty one is not allowed")
    g = session.graph
    layers = [n.name for n in g.nodes if OPS[n.kind].layer]
    attrs = cell_attributes([p.name for p in g.parameters()], layers) if session.options.api == "cell" else None
    try:
        atomic_write_text(a.out, script(session, a.framework, attrs), _inputs(a))
    except WriteFailed:
        raise  # a full disk: exit 4 (see _main)
    except FileProblem as e:
        raise BadInput(f"--out {e}") from None
    from .model.formatting import show_path

    print(f"wrote {show_path(a.out)}", file=sys.stderr)
    return EXIT_OK


def cmd_parity(a: argparse.Namespace) -> int:
    """Exit 0 when every difference is within the tolerance, 1 otherwise."""
    import json

    from .experiments import parity

    if not parity.torch_available():
        raise BadInput("PyTorch is not installed: install the optional extra with pip install -e '.[torch]'")
    _, result = _compute(a, parity.compare)
    if a.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print("step  loss        gradients   parameters   (largest |MindSpore - PyTorch| / max(1, |PyTorch|))")
        for i in range(len(result.steps)):
            print(f"{result.steps[i]:4d}  {result.loss[i]:.3e}   {result.grads[i]:.3e}   {result.params[i]:.3e}")
        print(
            f"MindSpore ended by {result.mindspore_end[0]} at step {result.mindspore_end[1]}, "
            f"PyTorch by {result.pytorch_end[0]} at step {result.pytorch_end[1]}; largest difference "
            f"{result.worst:.3g} (tolerance {parity.TOLERANCE:g}): {'agree' if result.ok else 'DIFFER'}"
        )
    return EXIT_OK if result.ok else 1


def _silence_stdout() -> None:
    """No second error when Python flushes standard output at exit."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or not a file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)


def cmd_screenshot(a: argparse.Namespace) -> int:
    """The window, trained for --steps steps, as a PNG or SVG picture or an animated GIF of the
    run (the time-travel cursor moved across it). Bad options are said before anything starts."""
    import os

    from .formats.frames import DEFAULT_FRAMES, MAX_FRAMES, MIN_FRAMES
    from .model.formatting import quote
    from .safe_io import FileProblem, probe_output

    steps = SCREENSHOT_STEPS if a.steps is None else a.steps
    if steps < 0:
        raise BadInput("--steps must be 0 or more")
    a.steps = max(steps, 1)
    session, _ = session_from_args(a)
    if a.until_loss is None:
        session.options.until_loss = None  # the picture shows the steps asked for
    fmt = os.path.splitext(a.out)[1].lower().lstrip(".")
    if fmt not in SCREENSHOT_FORMATS:
        raise BadInput(f"--out {quote(a.out)}: unknown extension; use .png, .svg or .gif (an animated GIF)")
    try:
        probe_output(a.out, _inputs(a))
    except FileProblem as e:
        raise BadInput(f"--out {e}") from None
    frames = DEFAULT_FRAMES if a.frames is None else a.frames
    if fmt != "gif" and a.frames is not None:
        raise BadInput("--frames is for an animated GIF: --out FILE.gif")
    if fmt == "gif" and not MIN_FRAMES <= frames <= MAX_FRAMES:
        raise BadInput(f"--frames must be from {MIN_FRAMES} to {MAX_FRAMES}")
    if fmt == "gif" and steps < MIN_FRAMES:
        raise BadInput(f"an animated GIF shows the run at {MIN_FRAMES} steps at least: --steps {MIN_FRAMES} or more")
    from .ui.screenshot import take_screenshot

    return take_screenshot(
        session,
        steps,
        a.out,
        fmt,
        size=a.size or DEFAULT_SIZE,
        lang=a.lang,
        presentation=a.presentation,
        frames=frames,
        tab=a.tab,
    )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    cmd = f"gradviz {argv[0]}" if argv and argv[0] in COMMANDS else "gradviz"
    if not (argv and argv[0] == "run"):
        return _main(argv, cmd)
    _Stop.signum = None
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)  # before any import starts a thread
    try:
        return _main(argv, cmd)
    finally:
        stop_requested()  # take a signal that came during the last step
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # as it was (main() also runs in tests)


# the commands that write their results (to standard output, or --out for run and export)
WRITERS = {
    "run": cmd_run,
    "variants": cmd_variants,
    "gradcheck": cmd_gradcheck,
    "backprop": cmd_backprop,
    "transform": cmd_transform,
    "export": cmd_export,
    "parity": cmd_parity,
    "import": cmd_import,
}


def _write_results(cmd: str, command, a: argparse.Namespace) -> int:
    """Run a command that writes results; a failed write is one line and exit 4 (141 when the
    reader of standard output went away), never a traceback."""
    try:
        code = command(a)
        if sys.stdout is None:  # print() writes nothing to a closed standard output, silently
            raise OSError(errno.EBADF, "it is closed")
        sys.stdout.flush()  # what is still buffered fails here, not at exit
        return code
    except BrokenPipeError:
        # the reader went away (`gradviz run | head`): stop quietly, as Unix tools do
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except _write_failed() as e:  # a file named by --out: left as it was
        print(f"{cmd}: error: {e}", file=sys.stderr)
        return EXIT_WRITE_FAILED
    except OSError as e:  # standard output failed: a full disk, /dev/full, an I/O error, closed
        from .safe_io import describe_os_error

        _silence_stdout()
        print(f"{cmd}: error: standard output could not be written ({describe_os_error(e)})", file=sys.stderr)
        return EXIT_WRITE_FAILED


def _main(argv: list[str], cmd: str) -> int:
    try:
        a = _build_parser().parse_args(argv)
        if a.command in WRITERS:
            return _write_results(cmd, WRITERS[a.command], a)
        if a.command == "screenshot":
            return cmd_screenshot(a)
    except BadInput as e:
        print(f"{cmd}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .app import launch

    return launch()


if __name__ == "__main__":
    sys.exit(main())
