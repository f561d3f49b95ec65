"""Turn a graph into the MindSpore program that trains it, written like the tutorial's code.

The text is what runs (the engine imports it as a module) and what the app shows, so students
read the exact function, grad call and train step that MindSpore executes.

Two namespaces never meet in a generated program:
- node names, used as the function's arguments and locals and as the Parameters' module names;
- the generator's own identifiers: the tutorial's words (`function`, `grad_fn`, `grads`, ...)
  and, for GradViz's plumbing, names starting with `gv_`, a prefix no node name may take.
graph.RESERVED_NAMES declares the first group (tests/test_properties.py checks it is every
identifier of programs generated for probe graphs, less their node names), so validation refuses
exactly the names that would collide.
Values the program returns are held in locals named after computed nodes or Output nodes, never
after an Input or Parameter, which the train step reads as globals.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import Msg
from .graph import RESERVED_PREFIX as GV
from .graph import Graph, Node
from .layout import Layout
from .ops import LAYER_KINDS, OPS, owned_name
from .session import Options

_INDENT = "    "


def _tuple(items) -> str:
    """A tuple display of any length: (), (a,), (a, b)."""
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def batch_source(program: Program, steps: int, arguments: bool = False) -> str:
    """A module of one function, gv_recorded_steps: `steps` calls of the program's
    gv_recorded_step unrolled into one compiled call, returning one flat float32 vector: the
    outputs of Program.batch_outputs(steps) one after the other, each stacked across the steps,
    steps first. The engine sets gv_recorded_step and gv_inputs (the run's Input tensors) in
    the module's globals, and picks the steps per call by measuring (engine/engine.py,
    Engine._tune).

    With MindSpore 2.10 on the CPU a call's own costs are much of a small step
    (benchmarks/RESULTS.md, "Graph mode"):
    - one vector, not a tuple: each output of a call costs about as much as a few kernels (its
      output actor and a Python tensor);
    - no arguments: the Inputs do not change during a run, and read as globals they are
      compiled into the graph, where each argument of a call costs the jit wrapper's checks and
      the runtime's copy.
    One step has no stacks (a kernel each) and leaves the parameters out (Program.batch_outputs).
    `arguments`: the Inputs are the function's arguments instead (a Dataset's mini-batches,
    new each step)."""
    n_in = len(program.input_names)
    inputs = ", ".join(f"{GV}in{i}" for i in range(n_in))
    L = [
        f'"""GradViz: {steps} recorded steps in one compiled call (Graph mode)."""',
        "from mindspore import ops",
        "",
        f"{GV}recorded_step = globals()['{GV}recorded_step']",
        f"{GV}inputs = globals()['{GV}inputs']",
    ]
    if not arguments:
        L += [f"{GV}in{i} = {GV}inputs[{i}]" for i in range(n_in)]
    L += ["", "", f"def {GV}recorded_steps({inputs if arguments else ''}):"]
    L += [f"{_INDENT}{GV}r{i} = {GV}recorded_step({inputs})" for i in range(steps)]
    if steps == 1:
        parts = [f"{GV}r0[{k}].reshape((-1,))" for k in program.batch_outputs(1)]
    else:
        parts = [
            f"ops.stack({_tuple(f'{GV}r{i}[{k}]' for i in range(steps))}).reshape((-1,))"
            for k in program.batch_outputs(steps)
        ]
    L.append(f"{_INDENT}return ops.concat({_tuple(parts)})")
    return "\n".join(L) + "\n"


@dataclass(frozen=True)
class Program:
    source: str
    arg_names: list[str]  # function arguments: inputs, then parameters
    input_names: list[str]
    param_names: list[str]
    trainable_names: list[str]
    aux_names: list[str]  # keys of the auxiliary outputs, in return order
    node_names: list[str]  # nodes returned by gv_values(), in order (Outputs excluded)
    aux_sources: list[str]  # the node each auxiliary output returns
    part_names: tuple[str, ...] = ()  # Outputs whose own share of dL/d(node) gv_snapshot also returns

    @property
    def recorded_outputs(self) -> int:
        """Outputs of gv_recorded_step: the loss, each parameter, each gradient, each aux."""
        return 1 + len(self.param_names) + len(self.trainable_names) + len(self.aux_names)

    def batch_outputs(self, steps: int) -> list[int]:
        """Which outputs of gv_recorded_step a call of `steps` steps returns (batch_source), by
        index. All of them, except that one step leaves the parameters out: the engine reads
        them before the call. In one step MindSpore may read a Parameter for the returned
        vector after the update (with 2.10 the tutorial's b, concatenated, comes back updated); stacked across steps they are copied before it (tests/test_properties.py
        checks every row's parameters against the values before its update)."""
        everything = list(range(self.recorded_outputs))
        if steps > 1:
            return everything
        return [0] + everything[1 + len(self.param_names) :]


def expression(n: Node, template: str = "mindspore") -> str:
    """The node's expression in the given language of the op table."""
    k = OPS[n.kind]
    owned = {o.name: owned_name(n.name, o.name) for o in k.params}
    return k.expression(template, {**n.inputs, **owned}, n.attrs)


def aux_keys(graph: Graph) -> list[str]:
    """Names for the auxiliary outputs: the source's name (z), or the Output's when shared."""
    return returned_names(graph)[1:]


def returned_names(graph: Graph) -> list[str]:
    """The local name of each returned value (loss first): the computed node it returns, or the
    Output node's own name where that node is an Input or Parameter (the train step reads those as
    globals) or is returned twice. Node names are unique, so these are too."""
    out: list[str] = []
    for o in graph.outputs():
        src = graph.get(o.inputs.get("x", ""))
        use_src = src is not None and not src.is_source and src.name not in out
        out.append(src.name if use_src else o.name)
    return out


def run_layouts(program: Program, shapes: dict) -> tuple[Layout, Layout, Layout]:
    """What each step of a run of this program records: the parameters, the gradients (of the
    trainable parameters) and the auxiliary outputs, by name and shape (shapes: graph.check())."""
    return (
        Layout(program.param_names, [shapes[n] for n in program.param_names]),
        Layout(program.trainable_names, [shapes[n] for n in program.trainable_names]),
        Layout(program.aux_names, [shapes[s] for s in program.aux_sources]),
    )


def _grad_position(graph: Graph) -> str:
    """The grad_position argument: the trainable Parameters' places among function's arguments."""
    args = [n.name for n in graph.inputs()] + [n.name for n in graph.parameters()]
    pos = [args.index(t.name) for t in graph.trainable()]
    return str(pos[0]) if len(pos) == 1 else "(" + ", ".join(map(str, pos)) + ")"


def grad_request(graph: Graph, options: Options) -> str:
    """Which gradients grad_fn asks for, as the call writes it: `grad_position=(2, 3)`, or
    `weights=network.trainable_params()` (api "cell"). MindSpore returns no others."""
    if options.api == "cell":
        return "weights=network.trainable_params()"
    return f"grad_position={_grad_position(graph)}"


@dataclass(frozen=True)
class Plan:
    """What every program written from a graph needs to know, worked out once: the generated
    training program and the exported MindSpore and PyTorch scripts all start from it."""

    order: list[Node]  # every node but the Outputs, each after its inputs
    computed: list[Node]  # the nodes of `order` that compute (not Inputs or Parameters)
    inputs: list[str]
    params: list[str]
    trainable: list[str]
    aux_on: bool  # the auxiliary outputs are returned (and there are some)
    has_aux: bool
    stop: bool  # returned through ops.stop_gradient
    sources: list[str]  # the node each returned value comes from, the loss first
    local: list[str]  # the name each returned value is held in (returned_names)

    @property
    def args(self) -> list[str]:
        """The function's arguments: the inputs, then the parameters (the tutorial's order)."""
        return self.inputs + self.params


def plan(graph: Graph, options: Options) -> Plan:
    order = [n for n in graph.topo_order() if n.kind != "Output"]
    outs = graph.outputs()
    aux_on = options.aux_output and len(outs) > 1
    sources = [o.inputs.get("x", "") for o in outs][: len(outs) if aux_on else 1]
    return Plan(
        order,
        [n for n in order if not n.is_source],
        [n.name for n in graph.inputs()],
        [n.name for n in graph.parameters()],
        [n.name for n in graph.trainable()],
        aux_on,
        aux_on and options.has_aux,
        aux_on and options.stop_gradient,
        sources,
        returned_names(graph)[: len(sources)],
    )


@dataclass(frozen=True)
class LayerCell:
    """The Cell API's Network as MindSpore's course writes one: layers built in `__init__`
    (`self.flatten = nn.Flatten()`, an `nn.SequentialCell` of `nn.Dense` and activations, named
    by node) and called in `construct`, which returns what the loss needs; forward_fn computes the
    loss from it. Worked out by layer_cell for a graph with Dense nodes whose loss takes no
    Parameter and comes after the rest; the training program and the exported script write it
    (cell_source)."""

    params: list[str]  # the Network's own Parameters (self.w = w): the plain Parameter nodes
    blocks: list[tuple[str, list[Node]]]  # (attribute, its layers): one layer, or a SequentialCell of several
    inputs: list[str]  # construct's arguments
    model: list[Node]  # the nodes construct computes, in order
    returns: list[str]  # what construct returns (the nodes forward_fn reads)
    rest: list[Node]  # the nodes forward_fn computes after network(...): the loss

    def block_of(self, name: str) -> tuple[str, list[Node]] | None:
        return next((b for b in self.blocks if name in [n.name for n in b[1]]), None)

    @property
    def ordered_dict(self) -> bool:
        """Whether a SequentialCell of named layers (collections.OrderedDict) is written."""
        return any(len(nodes) > 1 for _, nodes in self.blocks)


def layer_cell(graph: Graph, options: Options, attr_names: dict[str, str] | None = None) -> LayerCell | None:
    """The Network of layers for the Cell API (LayerCell), or None where the graph is written as
    `function` called by construct: no Dense node, a loss that takes a Parameter or that is
    computed before a node that is not the loss's (the graph's order), a layer's name
    that would hide one of nn.SequentialCell's attributes (attr_names), or an order of the
    Parameters that network.trainable_params() would not keep (the recorded gradients' order)."""
    if options.api != "cell":
        return None
    pl = plan(graph, options)
    if not any(n.kind == "Dense" for n in pl.computed):
        return None
    attr = attr_names or {}
    rest_names: set[str] = set()
    for n in pl.computed:  # the loss and what is computed from it
        if OPS[n.kind].role == "loss" or any(v in rest_names for v in n.inputs.values()):
            rest_names.add(n.name)
    rest = [n for n in pl.computed if n.name in rest_names]
    params = set(pl.params)
    if not rest or any(OPS[n.kind].params or params & set(n.inputs.values()) for n in rest):
        return None
    model = [n for n in pl.computed if n.name not in rest_names]
    if pl.computed != model + rest:  # construct computes before forward_fn: the program's order
        return None
    returned = set(pl.sources)
    needed = [n.name for n in model if n.name in returned or any(n.name in r.inputs.values() for r in rest)]
    if not needed:
        return None
    uses: dict[str, int] = {}
    for n in pl.computed:
        for v in n.inputs.values():
            uses[v] = uses.get(v, 0) + 1
    runs: list[list[Node]] = []
    for n in model:  # a run of layers, each the only use of the one before: one SequentialCell
        if n.kind not in LAYER_KINDS:
            continue
        if attr.get(n.name, n.name) != n.name:
            return None
        x = n.inputs.get("x", "")
        run = next((r for r in runs if r[-1].name == x), None)
        joins = run is not None and uses.get(x) == 1 and x not in needed
        if joins and "Flatten" not in (n.kind, run[-1].kind):  # as the course: self.flatten on its own
            run.append(n)
        else:
            runs.append([n])
    plain = [p.name for p in graph.parameters() if graph.get(p.name) is not None]
    taken = {attr.get(p, p) for p in plain}
    blocks = []
    for run in runs:
        kinds = list(dict.fromkeys(n.kind.lower() for n in run))
        stem = kinds[0] if len(run) == 1 else "_".join(kinds) + "_sequential"
        name, i = stem, 1
        while name in taken:
            i += 1
            name = f"{stem}{i}"
        taken.add(name)
        blocks.append((name, run))
    # network.trainable_params(): the Network's own Parameters, then each layer's, in __init__ order
    order = [p for p in plain if graph[p].requires_grad]
    order += [owned_name(n.name, o.name) for _, run in blocks for n in run for o in OPS[n.kind].params]
    if order != pl.trainable:
        return None
    used = {v for n in model for v in n.inputs.values()}
    inputs = [i for i in pl.inputs if i in used]
    return LayerCell(plain, blocks, inputs, model, needed, rest)


def cell_source(graph: Graph, options: Options, lc: LayerCell, attr: dict[str, str], script: bool) -> list[str]:
    """The Network class of lc, `network = Network()` and forward_fn. In the exported script
    (`script`) each Dense starts from the tensors drawn above it (weight_init=fc1_weight); in the
    training program it is built with its initializers' names and then holds GradViz's own
    Parameters (drawn from the session's seed), which the engine reads and the optimizer updates."""
    I2, I3 = _INDENT * 2, _INDENT * 3
    L = ["class Network(nn.Cell):", f"{_INDENT}def __init__(self):", f"{I2}super().__init__()"]
    L += [f"{I2}self.{attr.get(p, p)} = {p}" for p in lc.params]

    def built(n: Node) -> str:
        own = {o.init_attr: owned_name(n.name, o.name) for o in OPS[n.kind].params} if script else {}
        return OPS[n.kind].layer_expression(n.attrs, own)

    given = []
    for name, nodes in lc.blocks:
        if len(nodes) == 1:
            L.append(f"{I2}self.{name} = {built(nodes[0])}")
        else:
            L.append(f"{I2}self.{name} = nn.SequentialCell(")
            L.append(f"{I3}OrderedDict(")
            L.append(f"{I3}{_INDENT}[")
            L += [f'{I3}{_INDENT * 2}("{n.name}", {built(n)}),' for n in nodes]
            L += [f"{I3}{_INDENT}]", f"{I3})", f"{I2})"]
        for n in nodes:
            path = f"self.{name}" + (f".{n.name}" if len(nodes) > 1 else "")
            given += [f"{I2}{path}.{o.name} = {owned_name(n.name, o.name)}" for o in OPS[n.kind].params]
    if given and not script:
        L.append(f"{I2}# GradViz's Parameters, drawn from the session's seed, in place of those the layers drew")
        L += given
    L += ["", f"{_INDENT}def construct(self{''.join(', ' + i for i in lc.inputs)}):"]
    params = set(lc.params)
    for n in lc.model:
        block = lc.block_of(n.name)
        if block is not None:
            name, nodes = block
            if n is nodes[-1]:
                L.append(f"{I2}{n.name} = self.{name}({nodes[0].inputs['x']})")
            continue
        ins = {p: (f"self.{attr.get(v, v)}" if v in params else v) for p, v in n.inputs.items()}
        L.append(f"{I2}{n.name} = {OPS[n.kind].expression('mindspore', ins, n.attrs)}")
    L += [f"{I2}return {', '.join(lc.returns)}", "", "", "network = Network()"]
    return L


def forward_source(
    graph: Graph, options: Options, lc: LayerCell, name: str = "forward_fn", returns=None, doc=""
) -> list[str]:
    """forward_fn of the Network of layers: network(...), then the loss from what it returns
    (`returns`, `name`, `doc`: the exported script's test forward)."""
    inputs = plan(graph, options).inputs
    L = [f"def {name}({', '.join(inputs)}):"]
    L += [f'{_INDENT}"""{doc}"""'] if doc else []
    L.append(f"{_INDENT}{', '.join(lc.returns)} = network({', '.join(lc.inputs)})")
    L += [f"{_INDENT}{n.name} = {expression(n)}" for n in lc.rest]
    values = returned_values(graph, options) if returns is None else returns
    L.append(f"{_INDENT}return {', '.join(values)}")
    return L


def grad_call(graph: Graph, options: Options) -> str:
    """The MindSpore call that makes grad_fn, exactly as the generated program writes it."""
    has_aux = plan(graph, options).has_aux
    if options.api == "cell":
        return f"mindspore.value_and_grad(forward_fn, None, weights=network.trainable_params(), has_aux={has_aux})"
    fn = "grad" if options.api == "grad" else "value_and_grad"
    return f"mindspore.{fn}(function, {_grad_position(graph)}, has_aux={has_aux})"


def returned_structure(graph: Graph, options: Options) -> str:
    """What grad_fn returns, written with the tutorial's names: `((dw, db), (z,))` for
    mindspore.grad with has_aux=True, `((loss, z), (dw, db))` for value_and_grad, and so on."""
    names = returned_names(graph)
    aux_on = options.aux_output and len(names) > 1
    has_aux = aux_on and options.has_aux
    grads = [f"d{t.name}" for t in graph.trainable()]
    g = (
        grads[0]
        if len(grads) == 1 and options.api != "cell"
        else "(" + ", ".join(grads) + ("," if len(grads) == 1 else "") + ")"
    )
    aux = names[1:] if aux_on else []
    if options.api == "grad":
        return f"({g}, ({', '.join(aux)},))" if has_aux else g
    value = f"({', '.join([names[0], *aux])})" if aux else names[0]
    return f"({value}, {g})"


def returned_values(graph: Graph, options: Options, template: str = "mindspore") -> list[str]:
    """What `function` returns, as written after `return`: `loss`, `loss, z` or
    `loss, ops.stop_gradient(z)` (the sources of the returned Outputs; the gradient stop spelled
    as the op table's StopGradient in `template`: `z.detach()` in PyTorch)."""
    p = plan(graph, options)
    stop = OPS["StopGradient"]
    return p.sources[:1] + [stop.expression(template, {"x": s}) if p.stop else s for s in p.sources[1:]]


def function_source(
    graph: Graph,
    options: Options,
    template: str = "mindspore",
    name: str = "function",
    returns: list[str] | None = None,
    doc: str = "",
) -> list[str]:
    """The lines of `def function(inputs, parameters)`, the graph's forward pass in the op table's
    `template` language: the one writer of it for the training program and both exported scripts
    (a script's test forward names itself and what it `returns`)."""
    p = plan(graph, options)
    lines = [f"def {name}({', '.join(p.args)}):"]
    lines += [f'{_INDENT}"""{doc}"""'] if doc else []
    lines += [f"{_INDENT}{n.name} = {expression(n, template)}" for n in p.computed]
    if template == "pytorch" and p.stop and returns is None:
        lines.append(f"{_INDENT}# ops.stop_gradient(z) in MindSpore is z.detach() in PyTorch")
    values = returned_values(graph, options, template) if returns is None else returns
    lines.append(f"{_INDENT}return {', '.join(values)}")
    return lines


def differentiated_outputs(graph: Graph, options: Options) -> list[Node]:
    """The Outputs whose sum MindSpore differentiates (L): the loss, plus each auxiliary output
    that is returned without ops.stop_gradient and without has_aux=True."""
    outs = graph.outputs()
    if options.aux_output and not options.has_aux and not options.stop_gradient:
        return outs
    return outs[:1]


def objective(graph: Graph, options: Options) -> str:
    """L written out: loss, or loss + sum(z) + ... for each differentiated auxiliary output."""
    names = returned_names(graph)
    diff = differentiated_outputs(graph, options)
    return " + ".join([names[0]] + [f"sum({names[i]})" for i in range(1, len(diff))])


def objective_caption(graph: Graph, options: Options) -> Msg:
    """What L is with these options, and why: the graph view's caption says it."""
    aux = returned_names(graph)[1:]
    if not (options.aux_output and aux and graph.loss_output() is not None):
        return Msg("Codegen", "L = loss")
    one, z = len(aux) == 1, ", ".join(aux)
    if options.stop_gradient:
        said = _ONE_STOPPED if one else _SEVERAL_STOPPED
    elif options.has_aux:
        said = _ONE_AUX_DATA if one else _SEVERAL_AUX_DATA
    else:
        said = _ONE_DIFFERENTIATED if one else _SEVERAL_DIFFERENTIATED
    return said.format(L=objective(graph, options), z=z)


_ONE_STOPPED = Msg("Codegen", "L = {L}: {z} is returned through ops.stop_gradient")
_SEVERAL_STOPPED = Msg("Codegen", "L = {L}: {z} are returned through ops.stop_gradient")
_ONE_AUX_DATA = Msg("Codegen", "L = {L}: {z} is returned as auxiliary data (has_aux=True)")
_SEVERAL_AUX_DATA = Msg("Codegen", "L = {L}: {z} are returned as auxiliary data (has_aux=True)")
_ONE_DIFFERENTIATED = Msg("Codegen", "L = {L}: {z} is returned and differentiated too")
_SEVERAL_DIFFERENTIATED = Msg("Codegen", "L = {L}: {z} are returned and differentiated too")


def generate(graph: Graph, options: Options, attr_names: dict[str, str] | None = None) -> Program:
    """The program for a valid graph (call graph.check() first).

    attr_names maps Parameters to the attributes of the nn.Cell (api "cell"); the engine renames
    those that would hide an nn.Cell attribute (e.g. `training`)."""
    pl = plan(graph, options)
    order, computed, inputs, params, trainable, args = (
        pl.order,
        pl.computed,
        pl.inputs,
        pl.params,
        pl.trainable,
        pl.args,
    )
    has_aux, srcs, local = pl.has_aux, pl.sources, pl.local
    attr = attr_names or {p: p for p in params}

    L: list[str] = []
    w = L.append
    w('"""Generated by GradViz: the graph as a MindSpore program (edit it and press Apply to change the graph)."""')
    lc = layer_cell(graph, options, attr_names)
    if lc is not None and lc.ordered_dict:
        w("from collections import OrderedDict")
        w("")
    w("import mindspore")
    w("from mindspore import nn, ops")
    w("")
    w("# Set by GradViz before this module runs: the Parameters and the optimizer factory.")
    w(f"{GV}parameters = globals()['{GV}parameters']")
    w(f"{GV}make_optimizer = globals()['{GV}make_optimizer']")
    for p in params:
        w(f"{p} = {GV}parameters['{p}']")
    w("")
    w("")
    rets = returned_values(graph, options)
    if lc is None:  # the Network of layers computes it itself
        L += function_source(graph, options)
        w("")
        w("")
    if lc is not None:
        L += cell_source(graph, options, lc, attr, script=False)
        w(f"optimizer = {GV}make_optimizer(network.trainable_params())")
        w("")
        w("")
        L += forward_source(graph, options, lc)
        w("")
        w("")
        w(f"grad_fn = {grad_call(graph, options)}")
    elif options.api == "cell":
        w("class Network(nn.Cell):")
        w(f"{_INDENT}def __init__(self, {', '.join(params)}):")
        w(f"{_INDENT * 2}super().__init__()")
        for p in params:
            w(f"{_INDENT * 2}self.{attr[p]} = {p}")
        w("")
        w(f"{_INDENT}def construct(self{''.join(', ' + i for i in inputs)}):")
        call_args = inputs + [f"self.{attr[p]}" for p in params]
        w(f"{_INDENT * 2}return function({', '.join(call_args)})")
        w("")
        w("")
        w("network = Network(" + ", ".join(params) + ")")
        w(f"optimizer = {GV}make_optimizer(network.trainable_params())")
        w("")
        w("")
        w(f"def forward_fn({', '.join(inputs)}):")
        w(f"{_INDENT}return network({', '.join(inputs)})")
        w("")
        w("")
        w(f"grad_fn = {grad_call(graph, options)}")
    else:
        w(f"optimizer = {GV}make_optimizer([{', '.join(trainable)}])")
        w(f"grad_fn = {grad_call(graph, options)}")
    w("")
    w("")
    # the train step: forward, backward, update; returns the loss, the aux values and the gradients
    step_args = inputs if options.api == "cell" else args
    w(f"def train_step({', '.join(inputs)}):")
    call = f"grad_fn({', '.join(step_args)})"
    values = local[0] if len(local) == 1 else f"({', '.join(local)})"
    single = len(trainable) == 1 and options.api != "cell"
    gname = "grad" if single else "grads"
    if options.api == "grad":
        w(f"{_INDENT}{values.strip('()')} = function({', '.join(args)})")
        w(f"{_INDENT}{gname}{', ' + GV + 'aux' if has_aux else ''} = {call}")
    else:
        w(f"{_INDENT}{values}, {gname} = {call}")
    if single:
        w(f"{_INDENT}grads = (grad,)")
    w(f"{_INDENT}optimizer(grads)")
    aux_tuple = "(" + "".join(f"{a}, " for a in local[1:]) + ")"
    w(f"{_INDENT}return {local[0]}, {aux_tuple}, grads")
    w("")
    w("")
    w("# --- GradViz instrumentation: every node's value and gradient, for the graph view ---")
    w(f"def {GV}values({', '.join(args)}):")
    for n in computed:
        w(f"{_INDENT}{n.name} = {expression(n)}")
    w(f"{_INDENT}return {', '.join(n.name for n in order)},")
    w("")
    w("")
    # probe: a zero tensor added to every node; d(outputs)/d(probe) = dL/d(node)
    dargs = [f"{GV}d_{n.name}" for n in order]
    w(f"def {GV}probe({', '.join(args + dargs)}):")
    w(f'{_INDENT}"""function with a zero added to every node: the gradient for each zero is dL/d(node)."""')
    for n in order:
        value = n.name if n.is_source else expression(n)
        w(f"{_INDENT}{n.name} = {value} + {GV}d_{n.name}")
    w(f"{_INDENT}return {', '.join(rets)}")
    w("")
    w("")
    # the snapshot: every node's value, then its gradient, in one flat vector (one copy to numpy;
    # compiled with mindspore.jit in Graph mode, so the live nodes cost little in either mode)
    pos = tuple(range(len(args), len(args) + len(order)))
    w(f"{GV}probe_grad = mindspore.grad({GV}probe, {pos if len(pos) > 1 else pos[0]}, has_aux={has_aux})")
    w("")
    w("")
    # with several differentiated outputs (z returned and differentiated), each one's own share of
    # dL/d(node) too: L is their sum, and these parts say where a gradient such as db's +1 comes from
    shares = [o.name for o in differentiated_outputs(graph, options)][: len(rets)]
    shares = shares if len(shares) > 1 else []
    for k in range(len(shares)):
        w(f"def {GV}probe_part{k}({', '.join(args + dargs)}):")
        w(f'{_INDENT}"""The returned value {k} of {GV}probe alone."""')
        w(f"{_INDENT}return {GV}probe({', '.join(args + dargs)})[{k}]")
        w("")
        w("")
        w(f"{GV}probe_part{k}_grad = mindspore.grad({GV}probe_part{k}, {pos if len(pos) > 1 else pos[0]})")
        w("")
        w("")
    w(f"def {GV}snapshot({', '.join(inputs)}):")
    w(f"{_INDENT}{GV}v = {GV}values({', '.join(args)})")
    zeros = ", ".join(f"ops.zeros_like({GV}v[{i}])" for i in range(len(order)))
    grads = [f"{GV}g"] + [f"{GV}p{k}" for k in range(len(shares))]
    w(f"{_INDENT}{GV}g = {GV}probe_grad({', '.join(args)}, {zeros})")
    for k in range(len(shares)):
        w(f"{_INDENT}{GV}p{k} = {GV}probe_part{k}_grad({', '.join(args)}, {zeros})")
    if has_aux:
        w(f"{_INDENT}{GV}g = {GV}g[0]")
    if len(order) == 1:
        for gname in grads:
            w(f"{_INDENT}{gname} = ({gname},)")
    flat = [f"{GV}v[{i}].reshape((-1,))" for i in range(len(order))] + [
        f"{gname}[{i}].reshape((-1,))" for gname in grads for i in range(len(order))
    ]
    w(f"{_INDENT}return ops.concat(({', '.join(flat)}))")
    w("")
    w("")
    w("# --- GradViz recording (Graph mode): each step's loss, parameters before the update,")
    w("# gradients and auxiliary outputs; the engine unrolls several steps per compiled call")
    w(f"def {GV}recorded_step({', '.join(inputs)}):")
    w(f"{_INDENT}{GV}before = {_tuple(f'{p}.value()' for p in params)}")
    w(f"{_INDENT}{GV}loss, {GV}aux, {GV}grads = train_step({', '.join(inputs)})")
    outs = (
        [f"{GV}loss"]
        + [f"{GV}before[{i}]" for i in range(len(params))]
        + [f"{GV}grads[{i}]" for i in range(len(trainable))]
        + [f"{GV}aux[{i}]" for i in range(len(local) - 1)]
    )
    w(f"{_INDENT}return {_tuple(outs)}")
    src = "\n".join(L) + "\n"
    return Program(src, args, inputs, params, trainable, local[1:], [n.name for n in order], srcs[1:], tuple(shares))
