<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <source>CallView</source>
        <comment>@mindspore.jit  # Graph mode: train_step compiled</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CallView</source>
        <comment># PyNative: no mindspore.jit</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CallView</source>
        <comment>grad_fn(...) returns {structure}</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PortItem</source>
        <comment>input &apos;{port}&apos;: drag an output here</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PortItem</source>
        <comment>output: drag to an input port to connect</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EdgeItem</source>
        <comment>{source} → {target} (select and press Delete to disconnect)</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EdgeItem</source>
        <comment>ops.stop_gradient: no gradient flows back along this edge</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EdgeItem</source>
        <comment>{why}: no gradient flows back</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EdgeItem</source>
        <comment>gradient flowing back to {source}:</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PlotPanel</source>
        <comment>step</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PlotPanel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AppStore</name>
    <message>
        <source>it holds serialized objects that GradViz never writes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings file {path} was not used ({why}); it was kept as {kept}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings file {path} was not used ({why}) and could not be moved aside ({error}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings could not be saved to {path} (recent files and layout will be lost).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path}: cannot be made ({error})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CallView</name>
    <message>
        <source>The lines of the MindSpore program (the MindSpore program tab) that change with the options; the highlighted ones changed with the last change</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ControlPanel</name>
    <message>
        <source>PyNative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph (mindspore.jit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SGD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Momentum (0.9)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adam</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>function_with_logits: the function returns the auxiliary outputs after the loss.
MindSpore then differentiates every output: the gradients include sum(z).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a ready-made graph (replaces the current one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What MindSpore differentiates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Return z too  (return loss, z)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate; can change while training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop once the loss is below this (like the seed&apos;s `if loss &lt; 0.001: break`)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as fast as possible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> steps/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slow training down to watch it; 0 = as fast as possible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop at loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exactly one training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-initialise from the seed and clear the history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel compiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This graph has a single Output: add a second Output to return z too</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only meaningful when z is returned too: tick &apos;Return z too&apos; first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Return ops.stop_gradient(z): z&apos;s gradient is cut, so only the loss is differentiated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grad(..., has_aux=True): only the first output is differentiated; z is returned as auxiliary data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{device} (not available)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a fresh engine process; the session and the history are kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the engine process and start a fresh one; the session is kept</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Devices</name>
    <message>
        <source>no CUDA GPU with a working driver was found on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no Ascend NPU with its CANN runtime was found on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore&apos;s CPU backend is not available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this process was set up for {was} on {was_device}; {mode} on {device} needs a new process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>probing {device} failed: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown device &quot;{device}&quot;; use one of {devices}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>device {device} is not available: {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this process already runs on {device}; MindSpore cannot switch to {new} without a new process</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Divergence</name>
    <message>
        <source>the parameter {element} became {value} at step {step:,}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the {element} became {value} at step {step:,}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the gradient {element} became {value} at step {step:,}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First non-finite value: {bad}. The update-to-value ratio ‖lr·∂L/∂p‖/‖p‖ first passed {limit:g} at step {step:,} ({tensor}: {ratio}): each step changed it by more than its whole size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First non-finite value: {bad}. The update-to-value ratio ‖lr·∂L/∂p‖/‖p‖ stayed below {limit:g} until then.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Engine</name>
    <message>
        <source>{error}: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore could not be loaded: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EngineClient</name>
    <message>
        <source>unreadable message from the engine: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileJob</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GradCheckTab</name>
    <message>
        <source>Check gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after {n} update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after {n} updates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at the initial parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PASS: all {n} elements agree ({where})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAIL: {bad} of {n} elements disagree ({where})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore against float64 central differences: eps = {eps:g}, tolerance {tolerance:g} (relative error = |error| / max(1, |difference|))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max abs {abs}, max rel {rel}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log₁₀ relative error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GradFlow</name>
    <message>
        <source>not returned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L = loss + …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>differentiated too</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>returned, not differentiated (has_aux)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.stop_gradient: no gradient flows back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not requested by {call}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Graph</name>
    <message>
        <source>{node}: the graph has a cycle: {cycle}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: the name {name} is used twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node {name}: unknown kind {kind}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: is on a cycle: {cycle}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: input port &apos;{port}&apos; refers to {source}, which does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: input port &apos;{port}&apos; is fed by Output {source}; an Output only marks a result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: unknown input port(s) {ports}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the graph has no Output node: add an Output and connect the loss to it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: the loss (first output) must be a scalar, but &quot;{source}&quot; has shape {shape}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the graph has no trainable Parameter: there is nothing to train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{node}: input port &apos;{port}&apos; is not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the graph has {n} nodes; at most {max} are supported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a node needs a name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a name has at most 40 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is not a valid name: use letters, digits and _ and do not start with a digit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is reserved: names starting with {prefix} are used by GradViz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is reserved: names with double underscores on both sides belong to Python</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is a Python keyword; choose another name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is a name the generated program uses itself; choose another name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape must be a list of sizes, not {shape}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape has {n} axes; at most {max} are supported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape {shape} must hold whole numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape {shape} has a size {size}; sizes must be at least 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape {shape} is too large</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape {shape} has {n:,} elements; at most {max:,} are allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values must be numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values have shape {values} but the node&apos;s shape is {shape}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values must be finite numbers (no NaN or infinity)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values are too large for float32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>init {init} is unknown; use one of {inits}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GraphScene</name>
    <message>
        <source>returns {x}: the loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>returns ops.stop_gradient({x}), aux</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>returns ops.stop_gradient({x})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>returns {x} as aux (has_aux)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>returns {x}: differentiated too!</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not returned (z output off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <source>&apos;{text}&apos; is not a shape: write sizes separated by commas, like 5, 3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a node to edit it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 5, 3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>requires_grad (trainable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Init</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause training to edit the graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the name &quot;{name}&quot; is already used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values are not a list of numbers: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LandscapeTab</name>
    <message>
        <source>two parameter elements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>two random directions (filter-normalised)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>y axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was rebuilt: compute again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The graph or the options changed: compute the landscape again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose two different parameter elements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after {n} update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after {n} updates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at the initial parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L ({x}, {y}) through the parameters {at}: {lo} to {hi}. White: the optimizer&apos;s path, red: now.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LessonTask</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the engine: try again once the graph is built</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing in the engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LessonsPanel</name>
    <message>
        <source>Four variants</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss landscape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch parity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was rebuilt: ask again</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>The engine has not answered for {seconds:.0f} s (stopped, or frozen inside MindSpore). Wait for it, or Restart it: the session and the history are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GradViz: MindSpore autodiff, live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine&apos;s full traceback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep waiting for the engine to answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a fresh engine process; the session and the history are kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored the session autosaved before GradViz last stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save run with &amp;history (JSON Lines)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open run with h&amp;istory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as &amp;MindSpore script…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as &amp;PyTorch script…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fit graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operation ▾</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss ▾</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a {kind} node: {description}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an operation node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a loss node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed: training restarts from step 0 with the new settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems ({n})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix these to train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the run with every step, as JSON Lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{rate:,.0f} steps/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss —</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyNative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause training to undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: fix the problems to see values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: not computed for a saved run (press Reset to train it again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: values not computed yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L = loss: {z} is returned through ops.stop_gradient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L = loss: {z} is returned as auxiliary data (has_aux=True)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L = loss + sum({z}): {z} is returned and differentiated too</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModeCostTab</name>
    <message>
        <source>Measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> steps in each mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph mode saves {gain:.3f} ms a step: the compile pays for itself after {n} steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph mode is not faster per step on this graph.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyNative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{ms:.3f} ms/step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph (mindspore.jit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first Graph step (compiles)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{ms:.0f} ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest difference after {n} steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{abs:.3g} (relative {rel:.3g})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Medians over the steps after the first; the difference covers the loss, parameters and gradients of every step.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NodeItem</name>
    <message>
        <source>flows back: {values}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from {output}  {values}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape {shape}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{why}: grad_fn does not return it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameter (frozen)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= {sum} (hover)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from {output}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not computed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min {v}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Ops</name>
    <message>
        <source>{a} has shape {sa} but {b} has shape {sb}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{both}; these shapes do not broadcast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{both}; matmul needs vectors or matrices, not scalars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{both}; matmul needs the last axis of {a} ({m}) to equal the first axis of {b} ({n})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{both}; the prediction and the target must have the same shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{a} has shape {shape}; softmax cross-entropy needs class scores of shape (classes,) or (samples, classes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A constant tensor (data or target): no gradient is applied to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A trainable tensor, updated by the optimizer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.matmul(a, b): matrix (or vector-matrix) product.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a + b, with broadcasting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a - b, with broadcasting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a * b, element-wise with broadcasting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-x: the negation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.square(x): x * x, element-wise.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.exp(x): e to the x, element-wise.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.log(x): natural logarithm, element-wise (x must be above 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.relu(x): max(x, 0), element-wise.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.sigmoid(x): 1 / (1 + e^-x), element-wise.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.tanh(x): hyperbolic tangent, element-wise.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.sum(x): the sum of all elements, a scalar.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.mean(x): the mean of all elements, a scalar.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.t(x): a matrix&apos;s transpose (a vector stays as it is).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.stop_gradient(x): passes the value, blocks the gradient.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.binary_cross_entropy_with_logits(logits, target, ones, ones), mean.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.mse_loss(pred, target), mean of squared errors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ops.cross_entropy(logits, target): softmax cross-entropy with class probabilities (one-hot) as the target, mean over samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marks a returned value: the first Output is the loss, later ones are auxiliary.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ParityTab</name>
    <message>
        <source>Compare with PyTorch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>they agree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>they DIFFER</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore ended by {ms_end} at step {ms_step}, PyTorch by {pt_end} at step {pt_step}. Largest difference {worst:.2g} (each divided by its largest size in the run), tolerance {tolerance:g}: {verdict}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlotPanel</name>
    <message>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hover a plot to read values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>follow the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the whole run in view. Zooming or panning a plot turns this off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step {value:.0f}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not finite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} ({size} elements)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step {step}: loss {loss}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step {step}: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunState</name>
    <message>
        <source>engine not answering (was training)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting MindSpore…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>building…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compiling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped: not finite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engine not answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engine stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine is not answering: Wait for it, or Restart it (the session and history are kept).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause to change this: it needs a new run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the graph first: {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause first: Step does exactly one step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MindSpore is starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine is stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to cancel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to save yet: train at least one step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause first to save the run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine is answering.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause to look back through the run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No steps yet: train at least one step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing a saved run: press Reset to train it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run has finished (the loss fell below the target): press Reset to train again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached max steps: raise Max steps to go on, or Reset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the run…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: the loss or a gradient is not finite. Lower the learning rate and press Reset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine reported an error: press Reset to recover.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine process stopped: press Reset to start a fresh one.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <source>learning rate must be a number from {min:g} to 1000, not {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seed must be a whole number from 0 to {max}, not {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>steps must be a whole number from 1 to {max}, not {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stop-at-loss must be a number from {min:g} to 1000000, not {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>speed must be 0 (as fast as possible) or {min:g} to {max:g} steps per second, not {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{option} must be true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;return auxiliary outputs&apos; is on but the graph has only one Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>impossible content ({error})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not valid JSON ({error})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown {option} &quot;{value}&quot;; use one of {known}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected a JSON object, found {type}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a GradViz session (missing &quot;format&quot;: &quot;{format}&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the version must be a whole number, found {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>version {value} is not supported (this GradViz reads version {version})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name must be text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{a}; {b}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{problems} (and {n} more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;graph&quot; must be an object with a list of &quot;nodes&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where} must be an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a node needs a name (text)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where} {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown kind {kind}; known kinds are {kinds}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pos must be two numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>requires_grad must be true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inputs must map port names to node names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown input port(s) {ports} for {kind}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value {path} is {value}; values must be finite numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a list of {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values do not match shape {shape} (found {found} at {path})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>options</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;options&quot; must be an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown option(s) {options}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionDocument</name>
    <message>
        <source>Add {kind} {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {names}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect {source} -&gt; {target}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disconnect {target}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename {old} to {new}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>the autosave {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{problem} It was kept as {kept}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{problem} It could not be moved aside ({error}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore session?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GradViz did not close cleanly last time. Restore the session you were editing?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the last session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current session has unsaved changes. Save them first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open the session. {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the session. {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no history to export yet: train a few steps first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving cancelled: nothing was written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the run. {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the run: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved {n} steps to {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the run to {path}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening cancelled: nothing was changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open the run. {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open the run {path}: not enough memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open the run {path}: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening the run {path}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GradViz sessions (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GradViz sessions (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save run with history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export yet: wait until the engine has built this session, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export the script. {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote {path}: run it with python {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (PyTorch is not installed here: pip install -e &apos;.[torch]&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as {framework} script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open run with history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Steps</name>
    <message>
        <source>{n:,} update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n:,} updates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n:,} step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n:,} steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step {step:,} (parameters after {updates})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step {step:,} · {updates}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss at step {step:,}: {loss}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: {state}, the plots&apos; last step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: {state}, what the first step computes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: {state}, what the next step computes (the plots end at step {last:,})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{tensor}
{state}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished at step {step:,}: reached the maximum of {steps} ({kept} kept).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished at step {step:,}: the loss fell below the target, so that step&apos;s update was not kept ({kept} kept).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped at step {step:,}: the loss or a gradient is not finite, so that step&apos;s update was not kept ({kept} kept). The learning rate is probably too large: lower it and press Reset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ended at step {step:,} ({reason}; {kept} kept).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimeTravel</name>
    <message>
        <source>Drag back through the run: the plots, the nodes and the inspector show that step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go back to the state before the step shown and train on from there with the options now set (change the learning rate first to try another)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: {state}, from the history slider (computing…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: {state}, from the history slider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no steps yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step {step:,} of {last:,}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Went back to {state} with learning rate {lr}; the abandoned future is the faint curve on the loss plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rewind {steps} steps and lower the learning rate ×{factor:g}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: whole tensor (norms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} at {state}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value: not computed yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimeTravelBar</name>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue from here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many steps before the first non-finite one to go back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The learning rate is multiplied by this</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>steps, learning rate</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingController</name>
    <message>
        <source>Restarting the engine; the session and the history are kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the engine to answer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyNative mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting a new engine process for {what}...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: restarting the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine is not reading its commands</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine answers again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine process stopped unexpectedly (exit code {code}). Your session is kept: press Reset to start a fresh engine.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UpdateView</name>
    <message>
        <source>One element (signed values), or the whole tensor (norms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>g = ∂L/∂p at that step; ratio = |lr·g| / |p| (norms for the whole tensor)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Variants</name>
    <message>
        <source>Returning {z} as well makes MindSpore differentiate loss + {sums}, so every gradient gains the gradient of {sums}; ops.stop_gradient({first}) or has_aux=True leave only the loss&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VariantsTab</name>
    <message>
        <source>loss only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{z} returned too</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{z} behind stop_gradient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{z} as has_aux</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>∂L/∂ parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>differs from the loss-only column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same as the loss-only column</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
