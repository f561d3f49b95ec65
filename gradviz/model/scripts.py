"""Standalone programs a student can take home: the session as a MindSpore script in the
tutorial's style, or as a PyTorch script with the seed's `loss.backward(); optimizer.step();
optimizer.zero_grad()` loop. Each trains the same steps with the same options, ends the same way
(stop-at-loss and a non-finite value included) and prints one line `step <k> loss <value>` per
step, so it reproduces `gradviz run` with those options.

Node names become the scripts' variables as they do in the training program (codegen); the
identifiers the scripts use for themselves are part of graph.RESERVED_NAMES."""

from __future__ import annotations

import numpy as np

from .codegen import differentiated_outputs, function_source, grad_call, plan
from .formatting import shorten
from .graph import INITIALIZERS, Graph, init_draw
from .optimizers import OPTIMIZERS
from .session import Session

_I = "    "
FRAMEWORKS = ("mindspore", "pytorch")


def _literal(values) -> str:
    """A nested list of float32 values, each written so it reads back to the same float32."""
    a = np.asarray(values, np.float32)
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(_literal(v) for v in a) + "]"


def _value(n, tensor: str, dtype: str) -> str:
    """The expression for a source node's initial value, drawn as GradViz draws it
    (graph.initial_values: numpy's global RandomState after np.random.seed, in graph order)."""
    shape = tuple(n.shape)
    if n.init == "randn":
        src = f"np.random.randn({', '.join(map(str, shape))})"
    elif n.init == "ones":
        src = f"np.ones({shape})"
    elif n.init == "zeros":
        src = f"np.zeros({shape})"
    elif n.init in INITIALIZERS:
        method, args = init_draw(n.init, shape)
        src = f"np.random.{method}({', '.join(map(repr, args))})"
    else:
        src = f"np.array({_literal(n.values)})"
    return f"{tensor}({src}, {dtype})"


def _header(session: Session, framework: str) -> list[str]:
    o = session.options
    lines = [
        f'"""{shorten(session.name, 60).replace(chr(34), chr(39))}: exported from GradViz as a standalone {framework} program.',
        "",
        f"Options: api={o.api}, optimizer={o.optimizer}, lr={o.lr:g}, seed={o.seed}, steps={o.steps}, "
        f"stop at loss={o.until_loss if o.until_loss is not None else 'off'}, mode={o.mode},",
        f"return auxiliary outputs={o.aux_output}, stop_gradient={o.stop_gradient}, has_aux={o.has_aux}.",
        'It prints one line "step <k> loss <value>" per step, as `gradviz run` records them."""',
    ]
    return lines


def _loop_end(session: Session, indent: str, finite: str) -> list[str]:
    """The seed's checks before the update: stop on a non-finite value, or once below the target."""
    out = [
        f"{indent}if not ({finite}):",
        f"{indent}{_I}break  # not finite: GradViz stops here too, without this step's update",
    ]
    if session.options.until_loss is not None:
        out += [
            f"{indent}if loss_value < {session.options.until_loss!r}:",
            f"{indent}{_I}break  # as the seed's `if loss < 0.001: break`, before the update",
        ]
    return out


def mindspore_script(session: Session, attr_names: dict[str, str] | None = None) -> str:
    """attr_names: the nn.Cell attribute of each Parameter (api "cell"), as the engine names them
    (engine.engine.cell_attributes: a name that would hide one of nn.Cell's own gets gv_)."""
    g: Graph = session.graph
    o = session.options
    pl = plan(g, o)
    inputs, params, trainable, args = pl.inputs, pl.params, pl.trainable, pl.args
    has_aux, local = pl.has_aux, pl.local
    L = _header(session, "MindSpore")
    L += [
        "import numpy as np",
        "import mindspore",
        "from mindspore import Parameter, Tensor, nn, ops",
        "",
        'mindspore.set_device("CPU")',
        f"np.random.seed({o.seed})  # the initial values, drawn in the graph's order",
    ]
    for n in g.sources():
        if n.kind == "Input":
            L.append(f"{n.name} = {_value(n, 'Tensor', 'mindspore.float32')}")
        elif n.kind == "Parameter":
            rg = "" if n.requires_grad else ", requires_grad=False"
            L.append(f"{n.name} = Parameter({_value(n, 'Tensor', 'mindspore.float32')}, name='{n.name}'{rg})")
    L += ["", "", *function_source(g, o), "", ""]
    opt = OPTIMIZERS[o.optimizer]
    if o.api == "cell":
        attr = attr_names or {p: p for p in params}
        L += ["class Network(nn.Cell):", f"{_I}def __init__(self):", f"{_I * 2}super().__init__()"]
        L += [f"{_I * 2}self.{attr[p]} = {p}" for p in params]
        L += [
            "",
            f"{_I}def construct(self{''.join(', ' + i for i in inputs)}):",
            f"{_I * 2}return function({', '.join(inputs + [f'self.{attr[p]}' for p in params])})",
            "",
            "",
            "network = Network()",
            f"optimizer = {opt.code('mindspore', 'network.trainable_params()', o.lr)}",
            "",
            "",
            f"def forward_fn({', '.join(inputs)}):",
            f"{_I}return network({', '.join(inputs)})",
            "",
            "",
        ]
        call_args = inputs
    else:
        L.append(f"optimizer = {opt.code('mindspore', '[' + ', '.join(trainable) + ']', o.lr)}")
        call_args = args
    L.append(f"grad_fn = {grad_call(g, o)}")
    single = len(trainable) == 1 and o.api != "cell"
    gname = "grad" if single else "grads"
    values = ", ".join(local)
    L += ["", ""]
    if o.mode == "graph":
        L.append("@mindspore.jit  # Graph mode: compiled on the first call")
    L.append(f"def forward_backward({', '.join(inputs)}):")
    if o.api == "grad":
        L.append(f"{_I}{values} = function({', '.join(args)})")
        L.append(f"{_I}{gname}{', _' if has_aux else ''} = grad_fn({', '.join(call_args)})")
    else:
        L.append(f"{_I}{'(' + values + ')' if len(local) > 1 else values}, {gname} = grad_fn({', '.join(call_args)})")
    if single:
        L.append(f"{_I}grads = (grad,)")
    L += [f"{_I}return {local[0]}, grads", "", ""]
    L += [
        f"for step in range(1, {o.steps} + 1):",
        f"{_I}step_loss, grads = forward_backward({', '.join(inputs)})",
        f"{_I}loss_value = float(step_loss.asnumpy())",
        f'{_I}print(f"step {{step}} loss {{loss_value!r}}")',
    ]
    L += _loop_end(
        session, _I, "np.isfinite(loss_value) and all(np.isfinite(gradient.asnumpy()).all() for gradient in grads)"
    )
    L += [f"{_I}optimizer(grads)"]
    return "\n".join(L) + "\n"


def pytorch_script(session: Session) -> str:
    defs, loop = pytorch_parts(session)
    return defs + loop


def pytorch_parts(session: Session) -> tuple[str, str]:
    """The PyTorch script as (definitions: imports, initial values, `function`, `optimizer`;
    the training loop): the parity check runs the definitions with a loop of its own."""
    g: Graph = session.graph
    o = session.options
    pl = plan(g, o)
    trainable, args = pl.trainable, pl.args
    aux_on, local = pl.aux_on, pl.local
    diff = len(differentiated_outputs(g, o))
    L = _header(session, "PyTorch")
    L += [
        "import numpy as np",
        "import torch",
        "",
        f"np.random.seed({o.seed})  # the initial values, drawn in the graph's order",
    ]
    for n in g.sources():
        if n.kind == "Input":
            L.append(f"{n.name} = {_value(n, 'torch.tensor', 'dtype=torch.float32')}")
        elif n.kind == "Parameter":
            L.append(f"{n.name} = {_value(n, 'torch.tensor', 'dtype=torch.float32')}.requires_grad_({n.requires_grad})")
    L += ["", "", *function_source(g, o, "pytorch"), "", ""]
    L.append(f"optimizer = {OPTIMIZERS[o.optimizer].code('pytorch', '[' + ', '.join(trainable) + ']', o.lr)}")
    defs = "\n".join(L) + "\n"
    L = [
        "",
        "",
        f"for step in range(1, {o.steps} + 1):",
        f"{_I}{', '.join(local)} = function({', '.join(args)})",
        f"{_I}loss_value = {local[0]}.item()",
        f'{_I}print(f"step {{step}} loss {{loss_value!r}}")',
    ]
    if diff > 1:
        total = " + ".join([local[0]] + [f"{a}.sum()" for a in local[1:diff]])
        L += [
            f"{_I}# MindSpore differentiates every output the function returns: with z returned (no",
            f"{_I}# stop_gradient, no has_aux) its gradients are those of loss + sum(z), so here too",
            f"{_I}({total}).backward()",
        ]
    else:
        if aux_on:
            why = "has_aux=True" if o.has_aux else "ops.stop_gradient"
            L.append(f"{_I}# with {why} MindSpore differentiates the loss alone")
        L.append(f"{_I}{local[0]}.backward()")
    L += _loop_end(
        session,
        _I,
        f"np.isfinite(loss_value) and all(torch.isfinite(param.grad).all() for param in [{', '.join(trainable)}])",
    )
    L += [f"{_I}optimizer.step()", f"{_I}optimizer.zero_grad()"]
    return defs, "\n".join(L) + "\n"


def script(session: Session, framework: str, attr_names: dict[str, str] | None = None) -> str:
    if framework == "mindspore":
        return mindspore_script(session, attr_names)
    if framework == "pytorch":
        return pytorch_script(session)
    raise ValueError(f"unknown framework {framework!r}; use one of {', '.join(FRAMEWORKS)}")
