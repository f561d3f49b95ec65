<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AppStore</name>
    <message>
        <source>it holds serialized objects that GradViz never writes</source>
        <translation>其中含有 GradViz 从不写入的序列化对象</translation>
    </message>
    <message>
        <source>The settings file {path} was not used ({why}); it was kept as {kept}.</source>
        <translation>设置文件 {path} 未被使用（{why}），已保留为 {kept}。</translation>
    </message>
    <message>
        <source>The settings file {path} was not used ({why}) and could not be moved aside ({error}).</source>
        <translation>设置文件 {path} 未被使用（{why}），且无法移到一旁（{error}）。</translation>
    </message>
    <message>
        <source>The settings could not be saved to {path} (recent files and layout will be lost).</source>
        <translation>无法将设置保存到 {path}（最近文件和窗口布局将丢失）。</translation>
    </message>
    <message>
        <source>{path}: cannot be made ({error})</source>
        <translation>{path}：无法创建（{error}）</translation>
    </message>
</context>
<context>
    <name>Backprop</name>
    <message>
        <source>element {i} is outside {node}&apos;s shape {shape} ({n} elements: 0 to {last})</source>
        <translation>元素 {i} 超出 {node} 的形状 {shape}（共 {n} 个元素：0 到 {last}）</translation>
    </message>
    <message>
        <source>stepping through a layer that holds its own weight and bias ({node}) is not done yet</source>
        <translation>暂不支持逐步演示自带权重和偏置的层（{node}）</translation>
    </message>
    <message>
        <source>returned through ops.stop_gradient: not part of L</source>
        <translation>经 ops.stop_gradient 返回：不属于 L</translation>
    </message>
    <message>
        <source>returned as auxiliary data (has_aux=True): not part of L</source>
        <translation>作为辅助数据返回（has_aux=True）：不属于 L</translation>
    </message>
    <message>
        <source>ops.stop_gradient: no gradient flows back through {node}</source>
        <translation>ops.stop_gradient：梯度不会经 {node} 反向传回</translation>
    </message>
    <message>
        <source>{left} = 1
the backward pass starts here, at L = {total}</source>
        <translation>{left} = 1
反向传播从这里开始，L = {total}</translation>
    </message>
    <message>
        <source>{shown} + … ({n} terms in all)</source>
        <translation>{shown} + …（共 {n} 项）</translation>
    </message>
    <message>
        <source>{left} = {symbols} = {result}</source>
        <translation>{left} = {symbols} = {result}</translation>
    </message>
    <message>
        <source>{left} = {symbols} = {numbers} = {result}</source>
        <translation>{left} = {symbols} = {numbers} = {result}</translation>
    </message>
    <message>
        <source>{a} + {b}</source>
        <translation>{a} + {b}</translation>
    </message>
    <message>
        <source>Step through &amp;backprop</source>
        <translation>逐步查看反向传播(&amp;B)</translation>
    </message>
    <message>
        <source>Backprop: next stage</source>
        <translation>反向传播：下一步</translation>
    </message>
    <message>
        <source>Backprop: previous stage</source>
        <translation>反向传播：上一步</translation>
    </message>
    <message>
        <source>Train a step first: backprop needs the nodes&apos; numbers</source>
        <translation>请先训练一步：反向传播需要各节点的数值</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>not part of L</source>
        <translation>不属于 L</translation>
    </message>
</context>
<context>
    <name>CallView</name>
    <message>
        <source>@mindspore.jit  # Graph mode: train_step compiled</source>
        <translation>@mindspore.jit  # 静态图：train_step 经过编译</translation>
    </message>
    <message>
        <source># PyNative: no mindspore.jit</source>
        <translation># 动态图：不使用 mindspore.jit</translation>
    </message>
    <message>
        <source>grad_fn(...) returns {structure}</source>
        <translation>grad_fn(...) 返回 {structure}</translation>
    </message>
    <message>
        <source># No program yet: the graph is not finished (see Problems)</source>
        <translation># 还没有程序：计算图尚未完成（见“问题”）</translation>
    </message>
    <message>
        <source>The lines of the MindSpore program (the MindSpore program tab) that change with the options; the highlighted ones changed with the last change</source>
        <translation>MindSpore 程序（见“MindSpore 程序”标签页）中随选项变化的几行；高亮的行由最近一次修改改变</translation>
    </message>
</context>
<context>
    <name>CodeImport</name>
    <message>
        <source>{where}: {message}</source>
        <translation>{where}：{message}</translation>
    </message>
    <message>
        <source>{where}:{line}:{col}: {message}</source>
        <translation>{where}:{line}:{col}: {message}</translation>
    </message>
    <message>
        <source>train_loop must call forward_backward on the Inputs</source>
        <translation>train_loop 必须在这些 Input 上调用 forward_backward</translation>
    </message>
    <message>
        <source>train_loop over a data set GradViz does not know: it reads the pipeline its exported scripts write, over a Dataset node&apos;s sources ({sources})</source>
        <translation>train_loop 使用了 GradViz 不认识的数据集：它读取自己导出的脚本所写的数据管道，数据来自 Dataset 节点的来源（{sources}）</translation>
    </message>
    <message>
        <source>this line of the data pipeline is not the one GradViz writes for {source} with these settings; GradViz reads its exported scripts&apos; pipeline, here: {expected}</source>
        <translation>数据管道的这一行不是 GradViz 为 {source} 在这些设置下写出的那一行；GradViz 读取它导出的脚本的管道，此处应为：{expected}</translation>
    </message>
    <message>
        <source>the data pipeline ends early; GradViz writes next: {expected}</source>
        <translation>数据管道提前结束；GradViz 接下来会写：{expected}</translation>
    </message>
    <message>
        <source>{name} is not one of the session&apos;s {kind}s; make it with Tensor(...) at the top</source>
        <translation>{name} 不是会话中的 {kind}；请在程序开头用 Tensor(...) 创建它</translation>
    </message>
    <message>
        <source>the expression {code} does nothing GradViz reads</source>
        <translation>表达式 {code} 不做 GradViz 读取的任何事</translation>
    </message>
    <message>
        <source>return outside a function</source>
        <translation>return 在函数之外</translation>
    </message>
    <message>
        <source>a {what} statement here is not something GradViz reads; it reads straight-line functions, one training loop `for i in range(N)` with `if loss &lt; t: break`, and assignments</source>
        <translation>此处的 {what} 语句不是 GradViz 读取的内容；它读取不含分支的函数、一个训练循环 `for i in range(N)`（含 `if loss &lt; t: break`）以及赋值</translation>
    </message>
    <message>
        <source>a relative import: GradViz reads one file</source>
        <translation>相对导入：GradViz 只读取一个文件</translation>
    </message>
    <message>
        <source>this is PyTorch ({module}); GradViz reads MindSpore programs: nn.Cell, ops and mindspore.grad or value_and_grad</source>
        <translation>这是 PyTorch（{module}）；GradViz 读取的是 MindSpore 程序：nn.Cell、ops 以及 mindspore.grad 或 value_and_grad</translation>
    </message>
    <message>
        <source>import {module}: GradViz reads MindSpore programs and knows the modules mindspore and numpy only, and collections.OrderedDict (nothing is imported)</source>
        <translation>import {module}：GradViz 读取 MindSpore 程序，只认识 mindspore 和 numpy 模块，以及 collections.OrderedDict（不会导入任何东西）</translation>
    </message>
    <message>
        <source>import *: name what you import</source>
        <translation>import *：请写出导入的名字</translation>
    </message>
    <message>
        <source>the decorator @{code} is not run; GradViz reads only @mindspore.jit</source>
        <translation>装饰器 @{code} 不会运行；GradViz 只读取 @mindspore.jit</translation>
    </message>
    <message>
        <source>def {name}: GradViz reads plain arguments (no defaults, * or **)</source>
        <translation>def {name}：GradViz 只读取普通参数（不带默认值、* 或 **）</translation>
    </message>
    <message>
        <source>the decorator @{code} is not run; a class is read without decorators</source>
        <translation>装饰器 @{code} 不会运行；类按无装饰器读取</translation>
    </message>
    <message>
        <source>class {name}: GradViz reads classes of nn.Cell only</source>
        <translation>class {name}：GradViz 只读取 nn.Cell 的子类</translation>
    </message>
    <message>
        <source>the decorator @{code} is not run; methods are read without decorators</source>
        <translation>装饰器 @{code} 不会运行；方法按无装饰器读取</translation>
    </message>
    <message>
        <source>{name} in class {cls}: GradViz reads an nn.Cell&apos;s __init__ and construct only</source>
        <translation>类 {cls} 中的 {name}：GradViz 只读取 nn.Cell 的 __init__ 和 construct</translation>
    </message>
    <message>
        <source>a loop over {code}: GradViz reads one training loop, `for i in range(N)`</source>
        <translation>遍历 {code} 的循环：GradViz 只读取一个训练循环 `for i in range(N)`</translation>
    </message>
    <message>
        <source>a second training loop; GradViz trains one</source>
        <translation>第二个训练循环；GradViz 只训练一个</translation>
    </message>
    <message>
        <source>GradViz reads range(N) or range(start, stop) as the step limit</source>
        <translation>GradViz 把 range(N) 或 range(start, stop) 读作最大步数</translation>
    </message>
    <message>
        <source>GradViz reads an if in the training loop as `if loss &lt; t: break` (stop at loss), not {code}</source>
        <translation>GradViz 把训练循环中的 if 读作 `if loss &lt; t: break`（损失低于阈值时停止），而不是 {code}</translation>
    </message>
    <message>
        <source>{code} unpacks a single value</source>
        <translation>{code} 解包的是单个值</translation>
    </message>
    <message>
        <source>{code} unpacks {n} values from {m}</source>
        <translation>{code} 从 {m} 个值中解包 {n} 个</translation>
    </message>
    <message>
        <source>assigning to {code}: GradViz reads assignments to names (and self.name in __init__)</source>
        <translation>赋值给 {code}：GradViz 只读取对名字的赋值（以及 __init__ 中的 self.name）</translation>
    </message>
    <message>
        <source>{name} is not defined, or not something GradViz reads in a MindSpore program</source>
        <translation>{name} 未定义，或不是 GradViz 在 MindSpore 程序中读取的内容</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>{code} must be {want}</source>
        <translation>{code} 必须是{want}</translation>
    </message>
    <message>
        <source>this expression nests too deeply</source>
        <translation>此表达式嵌套太深</translation>
    </message>
    <message>
        <source>{code} is not something GradViz reads</source>
        <translation>{code} 不是 GradViz 读取的内容</translation>
    </message>
    <message>
        <source>{code}: the cell sets no attribute {attr} in __init__</source>
        <translation>{code}：该 Cell 的 __init__ 中没有设置属性 {attr}</translation>
    </message>
    <message>
        <source>the method {code}: GradViz reads the ops functions (ops.sum(x), not x.sum())</source>
        <translation>方法 {code}：GradViz 读取 ops 函数（ops.sum(x)，而不是 x.sum()）</translation>
    </message>
    <message>
        <source>the operator {op} in {code} is not an op GradViz knows; it knows: {known}</source>
        <translation>{code} 中的运算符 {op} 不是 GradViz 认识的算子；它认识：{known}</translation>
    </message>
    <message>
        <source>{code} is computed outside the function being read; GradViz&apos;s graph is the differentiated function&apos;s own computation</source>
        <translation>{code} 是在所读函数之外计算的；GradViz 的计算图是被求导函数自身的计算</translation>
    </message>
    <message>
        <source>the number {code} in an op: GradViz&apos;s graph holds tensors; make it a tensor, Tensor([{code}])</source>
        <translation>算子中的数字 {code}：GradViz 的计算图只含张量；请写成张量 Tensor([{code}])</translation>
    </message>
    <message>
        <source>{code} is not a tensor</source>
        <translation>{code} 不是张量</translation>
    </message>
    <message>
        <source>calls nest too deeply (a function that calls itself?)</source>
        <translation>调用嵌套太深（函数调用了自身？）</translation>
    </message>
    <message>
        <source>* and ** arguments are not read; write the arguments out</source>
        <translation>不读取 * 和 ** 参数；请把参数写出来</translation>
    </message>
    <message>
        <source>a loss cell takes two arguments: the prediction and the target</source>
        <translation>损失 Cell 接受两个参数：预测值和目标值</translation>
    </message>
    <message>
        <source>a layer takes one argument: its input</source>
        <translation>层只接受一个参数：它的输入</translation>
    </message>
    <message>
        <source>{code} cannot be called</source>
        <translation>{code} 不能被调用</translation>
    </message>
    <message>
        <source>{code} takes at most {n} arguments here</source>
        <translation>{code} 在此最多接受 {n} 个参数</translation>
    </message>
    <message>
        <source>{code} has no argument {name} GradViz reads; it reads: {known}</source>
        <translation>{code} 没有 GradViz 读取的参数 {name}；它读取：{known}</translation>
    </message>
    <message>
        <source>{code} needs {name}</source>
        <translation>{code} 需要 {name}</translation>
    </message>
    <message>
        <source>Parameter(...) takes a tensor: Tensor(np.random.randn(...))</source>
        <translation>Parameter(...) 接受一个张量：Tensor(np.random.randn(...))</translation>
    </message>
    <message>
        <source>requires_grad must be True or False</source>
        <translation>requires_grad 必须是 True 或 False</translation>
    </message>
    <message>
        <source>np.random.randn takes the sizes only</source>
        <translation>np.random.randn 只接受各维大小</translation>
    </message>
    <message>
        <source>GradViz draws {cls} with {settings} (weight_init=&apos;{name}&apos;)</source>
        <translation>GradViz 按 {settings} 抽取 {cls}（weight_init=&apos;{name}&apos;）</translation>
    </message>
    <message>
        <source>{code}: GradViz reads this loss with its defaults (no arguments)</source>
        <translation>{code}：GradViz 按默认设置读取此损失（不带参数）</translation>
    </message>
    <message>
        <source>{code} is not a cell GradViz knows; it knows: nn.Cell, {cells}, {optimizers}</source>
        <translation>{code} 不是 GradViz 认识的 Cell；它认识：nn.Cell、{cells}、{optimizers}</translation>
    </message>
    <message>
        <source>{code} is not something GradViz reads in a MindSpore program (it runs nothing)</source>
        <translation>{code} 不是 GradViz 在 MindSpore 程序中读取的内容（它不运行任何代码）</translation>
    </message>
    <message>
        <source>the dtype {code}: GradViz computes in float32 (mindspore.float32)</source>
        <translation>数据类型 {code}：GradViz 以 float32（mindspore.float32）计算</translation>
    </message>
    <message>
        <source>the shape {code} must be whole numbers</source>
        <translation>形状 {code} 必须是整数</translation>
    </message>
    <message>
        <source>a tensor has at most two axes</source>
        <translation>张量最多有两个维度</translation>
    </message>
    <message>
        <source>values must be finite numbers</source>
        <translation>数值必须是有限数</translation>
    </message>
    <message>
        <source>the rows of {code} differ in length</source>
        <translation>{code} 的各行长度不同</translation>
    </message>
    <message>
        <source>{code} must be a list of numbers</source>
        <translation>{code} 必须是数字列表</translation>
    </message>
    <message>
        <source>mode must be mindspore.GRAPH_MODE or mindspore.PYNATIVE_MODE</source>
        <translation>mode 必须是 mindspore.GRAPH_MODE 或 mindspore.PYNATIVE_MODE</translation>
    </message>
    <message>
        <source>GradViz&apos;s {cls} has {setting}={value}</source>
        <translation>GradViz 的 {cls} 使用 {setting}={value}</translation>
    </message>
    <message>
        <source>{code} is not an initializer GradViz draws; for shape {shape} it draws: {known} (or name it: nn.Dense(..., weight_init=&apos;he_uniform&apos;))</source>
        <translation>{code} 不是 GradViz 会抽取的初始化方式；对形状 {shape}，它抽取：{known}（或直接写名字：nn.Dense(..., weight_init=&apos;he_uniform&apos;)）</translation>
    </message>
    <message>
        <source>{code}: ops.dense&apos;s weight and bias are the layer&apos;s own Parameters, of shapes (out_channels, in_channels) and (out_channels,)</source>
        <translation>{code}：ops.dense 的 weight 和 bias 是该层自己的 Parameter，形状为 (out_channels, in_channels) 和 (out_channels,)</translation>
    </message>
    <message>
        <source>the bias has shape {b} but the weight {w}: the bias has out_channels {n}</source>
        <translation>bias 的形状是 {b}，而 weight 是 {w}：bias 应有 out_channels {n} 个元素</translation>
    </message>
    <message>
        <source>{code} is drawn as {init}; a Dense layer&apos;s {attr} is one of: {known}</source>
        <translation>{code} 按 {init} 抽取；Dense 层的 {attr} 只能是以下之一：{known}</translation>
    </message>
    <message>
        <source>{name} is already the weight or bias of another layer</source>
        <translation>{name} 已经是另一层的 weight 或 bias</translation>
    </message>
    <message>
        <source>{cls}: GradViz&apos;s layer has {key}={want}</source>
        <translation>{cls}：GradViz 的层固定为 {key}={want}</translation>
    </message>
    <message>
        <source>{cls} needs {attr}: MindSpore&apos;s default initializer is not one GradViz draws; name one of: {known}</source>
        <translation>{cls} 需要 {attr}：MindSpore 的默认初始化方式不是 GradViz 会抽取的；请写明以下之一：{known}</translation>
    </message>
    <message>
        <source>{code}: {attr} is an initializer&apos;s name ({known}) or a tensor</source>
        <translation>{code}：{attr} 应是初始化方式的名字（{known}）或一个张量</translation>
    </message>
    <message>
        <source>{code} has shape {shape}; the layer&apos;s {param} has shape {want}</source>
        <translation>{code} 的形状是 {shape}；该层的 {param} 形状是 {want}</translation>
    </message>
    <message>
        <source>{code} must be a Parameter of shape {shape}</source>
        <translation>{code} 必须是形状为 {shape} 的 Parameter</translation>
    </message>
    <message>
        <source>nn.SequentialCell takes its layers, not keywords</source>
        <translation>nn.SequentialCell 接受的是它的层，而不是关键字参数</translation>
    </message>
    <message>
        <source>{code}: nn.SequentialCell holds layers GradViz knows: {known}</source>
        <translation>{code}：nn.SequentialCell 只能包含 GradViz 认识的层：{known}</translation>
    </message>
    <message>
        <source>OrderedDict takes a list of (&quot;name&quot;, layer) pairs: the layers, named</source>
        <translation>OrderedDict 接受 (&quot;名字&quot;, 层) 对组成的列表：即带名字的各层</translation>
    </message>
    <message>
        <source>a layer called a second time: GradViz&apos;s layers are one node each, with their own weights</source>
        <translation>同一个层被调用了第二次：GradViz 中每个层是一个节点，拥有自己的权重</translation>
    </message>
    <message>
        <source>{code}: GradViz reads {template}</source>
        <translation>{code}：GradViz 读取的是 {template}</translation>
    </message>
    <message>
        <source>{code} is not an op GradViz knows; it knows: {known}</source>
        <translation>{code} 不是 GradViz 认识的算子；它认识：{known}</translation>
    </message>
    <message>
        <source>the function to differentiate must be a def or an nn.Cell</source>
        <translation>被求导的函数必须是 def 函数或 nn.Cell</translation>
    </message>
    <message>
        <source>grad_position must be a number, a tuple of numbers or None</source>
        <translation>grad_position 必须是数字、数字元组或 None</translation>
    </message>
    <message>
        <source>weights= must be a cell&apos;s trainable_params() or a list of Parameters</source>
        <translation>weights= 必须是 Cell 的 trainable_params() 或 Parameter 列表</translation>
    </message>
    <message>
        <source>has_aux must be True or False</source>
        <translation>has_aux 必须是 True 或 False</translation>
    </message>
    <message>
        <source>call grad_fn with positional arguments</source>
        <translation>请用位置参数调用 grad_fn</translation>
    </message>
    <message>
        <source>{code}: grad_fn&apos;s arguments must be tensors the program makes</source>
        <translation>{code}：grad_fn 的参数必须是程序创建的张量</translation>
    </message>
    <message>
        <source>{cls} has no construct: calling it computes nothing</source>
        <translation>{cls} 没有 construct：调用它什么也不计算</translation>
    </message>
    <message>
        <source>{cls} takes no arguments</source>
        <translation>{cls} 不接受参数</translation>
    </message>
    <message>
        <source>call {name} with positional arguments</source>
        <translation>请用位置参数调用 {name}</translation>
    </message>
    <message>
        <source>{name} takes {n} arguments, {m} given</source>
        <translation>{name} 接受 {n} 个参数，给了 {m} 个</translation>
    </message>
    <message>
        <source>no differentiation: GradViz reads the call of a function made by mindspore.grad or mindspore.value_and_grad (grads = grad_fn(x, y, w, b))</source>
        <translation>没有求导：GradViz 读取由 mindspore.grad 或 mindspore.value_and_grad 生成的函数的调用（grads = grad_fn(x, y, w, b)）</translation>
    </message>
    <message>
        <source>GradViz&apos;s nn.Cell path is mindspore.value_and_grad(forward_fn, None, weights=...)</source>
        <translation>GradViz 的 nn.Cell 方式是 mindspore.value_and_grad(forward_fn, None, weights=...)</translation>
    </message>
    <message>
        <source>with weights= grad_fn&apos;s arguments are the data; {name} is a Parameter</source>
        <translation>使用 weights= 时 grad_fn 的参数是数据；{name} 是 Parameter</translation>
    </message>
    <message>
        <source>grad_position {i} is not one of grad_fn&apos;s arguments</source>
        <translation>grad_position {i} 不是 grad_fn 的参数之一</translation>
    </message>
    <message>
        <source>grad_position {i} is {name}, a Tensor: GradViz differentiates with respect to Parameters; wrap it in Parameter(...)</source>
        <translation>grad_position {i} 是张量 {name}：GradViz 对 Parameter 求导；请用 Parameter(...) 包装</translation>
    </message>
    <message>
        <source>{name} has requires_grad=False but is differentiated</source>
        <translation>{name} 设置了 requires_grad=False，却被求导</translation>
    </message>
    <message>
        <source>the differentiated function returns nothing</source>
        <translation>被求导的函数没有返回值</translation>
    </message>
    <message>
        <source>the differentiated function returns a grad_fn&apos;s result</source>
        <translation>被求导的函数返回了 grad_fn 的结果</translation>
    </message>
    <message>
        <source>has_aux=True needs a second returned value (the auxiliary data)</source>
        <translation>has_aux=True 需要第二个返回值（辅助数据）</translation>
    </message>
    <message>
        <source>{name} is {layer}&apos;s own {param}; GradViz&apos;s layers hold theirs alone, not used by {users}</source>
        <translation>{name} 是 {layer} 自己的 {param}；GradViz 的层独自持有它们，不能被 {users} 使用</translation>
    </message>
    <message>
        <source>{name} is {layer}&apos;s own {param}, which GradViz trains: differentiate with respect to it (grad_position or weights=)</source>
        <translation>{name} 是 {layer} 自己的 {param}，GradViz 会训练它：请对它求导（grad_position 或 weights=）</translation>
    </message>
    <message>
        <source>the differentiated function must return tensors</source>
        <translation>被求导的函数必须返回张量</translation>
    </message>
    <message>
        <source>this np.random.randn tensor is drawn but not used by the differentiated function; GradViz draws its graph&apos;s tensors only, so the values after it would differ</source>
        <translation>这个 np.random.randn 张量被抽取了，但被求导的函数没有用到；GradViz 只为计算图中的张量抽取初值，因此其后的数值会不同</translation>
    </message>
    <message>
        <source>the program is over {n} MB; GradViz reads programs up to that size</source>
        <translation>程序超过 {n} MB；GradViz 只读取不超过此大小的程序</translation>
    </message>
    <message>
        <source>the line has {n} characters; at most {max} are read</source>
        <translation>此行有 {n} 个字符；最多读取 {max} 个</translation>
    </message>
    <message>
        <source>the program is empty</source>
        <translation>程序为空</translation>
    </message>
    <message>
        <source>syntax error: {error}</source>
        <translation>语法错误：{error}</translation>
    </message>
    <message>
        <source>the program nests too deeply to read</source>
        <translation>程序嵌套太深，无法读取</translation>
    </message>
    <message>
        <source>cannot be read: {error}</source>
        <translation>无法读取：{error}</translation>
    </message>
    <message>
        <source>GradViz could not read this program ({error})</source>
        <translation>GradViz 无法读取此程序（{error}）</translation>
    </message>
</context>
<context>
    <name>CodeIn</name>
    <message>
        <source>line {line}, column {col}: {message}</source>
        <translation>第 {line} 行，第 {col} 列：{message}</translation>
    </message>
    <message>
        <source>Open &amp;Python code…</source>
        <translation>打开 &amp;Python 代码…</translation>
    </message>
    <message>
        <source>&amp;Paste code…</source>
        <translation>粘贴代码(&amp;P)…</translation>
    </message>
    <message>
        <source>Open Python code</source>
        <translation>打开 Python 代码</translation>
    </message>
    <message>
        <source>Python programs (*.py);;All files (*)</source>
        <translation>Python 程序 (*.py);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Could not import the code: {problem}</source>
        <translation>无法导入代码：{problem}</translation>
    </message>
    <message>
        <source>Could not import the code {path}: not enough memory</source>
        <translation>无法导入代码 {path}：内存不足</translation>
    </message>
    <message>
        <source>Could not import the code {path}: {error}</source>
        <translation>无法导入代码 {path}：{error}</translation>
    </message>
    <message>
        <source>Reading the code {path}…</source>
        <translation>正在读取代码 {path}…</translation>
    </message>
</context>
<context>
    <name>Codegen</name>
    <message>
        <source>L = loss</source>
        <translation>L = loss</translation>
    </message>
    <message>
        <source>L = {L}: {z} is returned through ops.stop_gradient</source>
        <translation>L = {L}：{z} 经 ops.stop_gradient 返回</translation>
    </message>
    <message>
        <source>L = {L}: {z} are returned through ops.stop_gradient</source>
        <translation>L = {L}：{z} 经 ops.stop_gradient 返回</translation>
    </message>
    <message>
        <source>L = {L}: {z} is returned as auxiliary data (has_aux=True)</source>
        <translation>L = {L}：{z} 作为辅助数据返回（has_aux=True）</translation>
    </message>
    <message>
        <source>L = {L}: {z} are returned as auxiliary data (has_aux=True)</source>
        <translation>L = {L}：{z} 作为辅助数据返回（has_aux=True）</translation>
    </message>
    <message>
        <source>L = {L}: {z} is returned and differentiated too</source>
        <translation>L = {L}：{z} 被返回，并且同样参与求导</translation>
    </message>
    <message>
        <source>L = {L}: {z} are returned and differentiated too</source>
        <translation>L = {L}：{z} 被返回，并且同样参与求导</translation>
    </message>
</context>
<context>
    <name>ConfusionMatrix</name>
    <message>
        <source>The confusion matrix comes after the first epoch</source>
        <translation>混淆矩阵在第一个 epoch 结束后出现</translation>
    </message>
    <message>
        <source>predicted →</source>
        <translation>预测 →</translation>
    </message>
    <message>
        <source>true →</source>
        <translation>真实 →</translation>
    </message>
    <message>
        <source>right</source>
        <translation>正确率</translation>
    </message>
</context>
<context>
    <name>ControlPanel</name>
    <message>
        <source>PyNative</source>
        <translation>动态图模式 (PyNative)</translation>
    </message>
    <message>
        <source>Graph (mindspore.jit)</source>
        <translation>静态图模式 (mindspore.jit)</translation>
    </message>
    <message>
        <source>function_with_logits: the function returns the auxiliary outputs after the loss.
MindSpore then differentiates every output: the gradients include sum(z).</source>
        <translation>function_with_logits：函数在 loss 之后还返回辅助输出。
MindSpore 会对每个输出求导：梯度中包含 sum(z) 的梯度。</translation>
    </message>
    <message>
        <source>Load a ready-made graph (replaces the current one)</source>
        <translation>载入一个现成的计算图（替换当前计算图）</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>What MindSpore differentiates</source>
        <translation>MindSpore 对什么求导</translation>
    </message>
    <message>
        <source>Return z too</source>
        <translation>同时返回 z</translation>
    </message>
    <message>
        <source>Learning rate; can change while training</source>
        <translation>学习率；训练中可以修改</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Stop once the loss is below this (like the seed&apos;s `if loss &lt; 0.001: break`)</source>
        <translation>损失低于此值时停止（如示例中的 `if loss &lt; 0.001: break`）</translation>
    </message>
    <message>
        <source>as fast as possible</source>
        <translation>尽可能快</translation>
    </message>
    <message>
        <source> steps/s</source>
        <translation> 步/秒</translation>
    </message>
    <message>
        <source>Slow training down to watch it; 0 = as fast as possible</source>
        <translation>放慢训练以便观察；0 = 尽可能快</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Stop at loss</source>
        <translation>损失阈值停止</translation>
    </message>
    <message>
        <source>Max steps</source>
        <translation>最大步数</translation>
    </message>
    <message>
        <source>The memory the run&apos;s history may take; past it, old steps are thinned out. Can change at any time.</source>
        <translation>运行的历史最多可用的内存；超过后，之前的步会每隔一步删除一步。随时可以更改。</translation>
    </message>
    <message>
        <source>History budget</source>
        <translation>历史内存上限</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Exactly one training step</source>
        <translation>只训练一步</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Re-initialise from the seed and clear the history</source>
        <translation>按随机种子重新初始化并清空历史</translation>
    </message>
    <message>
        <source>Cancel compiling</source>
        <translation>取消编译</translation>
    </message>
    <message>
        <source>This graph has a single Output: add a second Output to return z too</source>
        <translation>此计算图只有一个 Output：添加第二个 Output 才能同时返回 z</translation>
    </message>
    <message>
        <source>Only meaningful when z is returned too: tick &apos;Return z too&apos; first.</source>
        <translation>仅在同时返回 z 时有意义：请先勾选“同时返回 z”。</translation>
    </message>
    <message>
        <source>Return ops.stop_gradient(z): z&apos;s gradient is cut, so only the loss is differentiated.</source>
        <translation>返回 ops.stop_gradient(z)：z 的梯度被截断，因此只对 loss 求导。</translation>
    </message>
    <message>
        <source>grad(..., has_aux=True): only the first output is differentiated; z is returned as auxiliary data.</source>
        <translation>grad(..., has_aux=True)：只对第一个输出求导；z 作为辅助数据返回。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{device} (not available)</source>
        <translation>{device}（不可用）</translation>
    </message>
    <message>
        <source>Restart the engine</source>
        <translation>重启引擎</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Start a fresh engine process; the session and the history are kept</source>
        <translation>启动新的引擎进程；会话和历史都会保留</translation>
    </message>
    <message>
        <source>Stop the engine process and start a fresh one; the session is kept</source>
        <translation>停止引擎进程并启动新的进程；会话会保留</translation>
    </message>
</context>
<context>
    <name>Data</name>
    <message>
        <source>source must be one of {sources}, not {value}</source>
        <translation>source 必须是 {sources} 之一，而不是 {value}</translation>
    </message>
    <message>
        <source>size must be a whole number from {low} to {high}</source>
        <translation>size 必须是 {low} 到 {high} 之间的整数</translation>
    </message>
    <message>
        <source>noise must be a number from 0 to {high}</source>
        <translation>noise 必须是 0 到 {high} 之间的数</translation>
    </message>
    <message>
        <source>test_fraction must be above 0 and below 1</source>
        <translation>test_fraction 必须大于 0 且小于 1</translation>
    </message>
    <message>
        <source>test_fraction {f:g} of {n} samples leaves no test example</source>
        <translation>对 {n} 个样本取 test_fraction {f:g}，测试集中没有样本</translation>
    </message>
    <message>
        <source>test_fraction {f:g} of {n} samples leaves no training example</source>
        <translation>对 {n} 个样本取 test_fraction {f:g}，训练集中没有样本</translation>
    </message>
    <message>
        <source>batch_size must be a whole number from 1 to the training set&apos;s {n} samples, not {value}</source>
        <translation>batch_size 必须是 1 到训练集样本数 {n} 之间的整数，而不是 {value}</translation>
    </message>
    <message>
        <source>path is empty: choose the CSV file</source>
        <translation>path 为空：请选择 CSV 文件</translation>
    </message>
    <message>
        <source>path is empty: choose the folder of MNIST files</source>
        <translation>path 为空：请选择存放 MNIST 文件的文件夹</translation>
    </message>
    <message>
        <source>path {path}: no such file</source>
        <translation>path {path}：没有这个文件</translation>
    </message>
    <message>
        <source>{file} is {mb:.1f} MB; a CSV file may have at most {limit} MB</source>
        <translation>{file} 有 {mb:.1f} MB；CSV 文件最多 {limit} MB</translation>
    </message>
    <message>
        <source>{file} cannot be read: {error}</source>
        <translation>无法读取 {file}：{error}</translation>
    </message>
    <message>
        <source>{file} is not UTF-8 text</source>
        <translation>{file} 不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>{file} is empty: line 1 must name the columns</source>
        <translation>{file} 是空的：第 1 行必须写出各列的名称</translation>
    </message>
    <message>
        <source>{file}, line 1: the first line must be a header naming the columns, not numbers</source>
        <translation>{file}，第 1 行：第一行必须是写出各列名称的表头，而不是数字</translation>
    </message>
    <message>
        <source>{file}, line 1: needs at least two columns, the features and the label</source>
        <translation>{file}，第 1 行：至少需要两列，即特征和标签</translation>
    </message>
    <message>
        <source>{file}, line 1: {n} columns; at most {limit}</source>
        <translation>{file}，第 1 行：共 {n} 列；最多 {limit} 列</translation>
    </message>
    <message>
        <source>{file}, line {line}: more than {limit} rows of data (the limit)</source>
        <translation>{file}，第 {line} 行：数据超过 {limit} 行（上限）</translation>
    </message>
    <message>
        <source>{file}, line {line}: {n} cells, but the header names {m} columns</source>
        <translation>{file}，第 {line} 行：有 {n} 个单元格，但表头有 {m} 列</translation>
    </message>
    <message>
        <source>{file}, line {line}: column {column} is missing</source>
        <translation>{file}，第 {line} 行：缺少 {column} 列的值</translation>
    </message>
    <message>
        <source>{file}, line {line}: column {column} holds {cell}, not a number</source>
        <translation>{file}，第 {line} 行：{column} 列的值是 {cell}，不是数字</translation>
    </message>
    <message>
        <source>{file}, line {line}: column {column} holds {cell}, not a finite number</source>
        <translation>{file}，第 {line} 行：{column} 列的值是 {cell}，不是有限的数</translation>
    </message>
    <message>
        <source>{file}, line {line}: the label {cell} is not a whole number from 0 to {high}</source>
        <translation>{file}，第 {line} 行：标签 {cell} 不是 0 到 {high} 之间的整数</translation>
    </message>
    <message>
        <source>{file} holds no rows of data below its header</source>
        <translation>{file} 的表头下面没有数据行</translation>
    </message>
    <message>
        <source>{file}: every label is {label}; a classifier needs at least two classes</source>
        <translation>{file}：所有标签都是 {label}；分类器至少需要两个类别</translation>
    </message>
    <message>
        <source>path {path}: no such folder</source>
        <translation>path {path}：没有这个文件夹</translation>
    </message>
    <message>
        <source>the MNIST folder {folder} has {file}.gz: unpack it (gunzip) first</source>
        <translation>MNIST 文件夹 {folder} 中是 {file}.gz：请先解压（gunzip）</translation>
    </message>
    <message>
        <source>the MNIST folder {folder} has no file {file}</source>
        <translation>MNIST 文件夹 {folder} 中没有文件 {file}</translation>
    </message>
    <message>
        <source>{images} holds {n} images but {labels} {m} labels</source>
        <translation>{images} 有 {n} 张图像，但 {labels} 有 {m} 个标签</translation>
    </message>
    <message>
        <source>{file}: label {label} at item {item}; MNIST&apos;s labels are 0 to 9</source>
        <translation>{file}：第 {item} 项的标签是 {label}；MNIST 的标签是 0 到 9</translation>
    </message>
    <message>
        <source>the MNIST folder {folder} holds {n} images; at least {low} are needed</source>
        <translation>MNIST 文件夹 {folder} 只有 {n} 张图像；至少需要 {low} 张</translation>
    </message>
    <message>
        <source>{file} is truncated: it has no complete header</source>
        <translation>{file} 不完整：没有完整的文件头</translation>
    </message>
    <message>
        <source>{file} is not an MNIST IDX file (magic number {found}, expected {magic})</source>
        <translation>{file} 不是 MNIST IDX 文件（魔数为 {found}，应为 {magic}）</translation>
    </message>
    <message>
        <source>{file} holds {r}x{c} images; MNIST&apos;s are 28x28</source>
        <translation>{file} 中的图像是 {r}x{c}；MNIST 的图像是 28x28</translation>
    </message>
    <message>
        <source>{file} is truncated: its header says {n} items ({want} bytes), the file has {got} bytes</source>
        <translation>{file} 不完整：文件头写明 {n} 项（{want} 字节），文件只有 {got} 字节</translation>
    </message>
    <message>
        <source>MNIST images are read by the engine process (mindspore.dataset)</source>
        <translation>MNIST 图像由引擎进程读取（mindspore.dataset）</translation>
    </message>
    <message>
        <source>the MNIST folder {folder} gave {shape} images instead of {n}</source>
        <translation>MNIST 文件夹 {folder} 读出的图像形状为 {shape}，而不是 {n} 张</translation>
    </message>
</context>
<context>
    <name>DataPanel</name>
    <message>
        <source>The data view could not be computed: {why}</source>
        <translation>无法计算数据视图：{why}</translation>
    </message>
    <message>
        <source>class {k}</source>
        <translation>类别 {k}</translation>
    </message>
    <message>
        <source>{n} training points (filled)</source>
        <translation>{n} 个训练点（实心）</translation>
    </message>
    <message>
        <source>{n} test points (hollow)</source>
        <translation>{n} 个测试点（空心）</translation>
    </message>
    <message>
        <source>Background: the predicted class, deeper where its probability is higher</source>
        <translation>背景：预测的类别，概率越高颜色越深</translation>
    </message>
    <message>
        <source>On the graph: each hidden unit over the same plane (hover a map to enlarge it)</source>
        <translation>计算图上：每个隐藏单元在同一平面上的取值（悬停小图可放大）</translation>
    </message>
    <message>
        <source>The network&apos;s output over the input plane: computing…</source>
        <translation>网络在输入平面上的输出：计算中…</translation>
    </message>
    <message>
        <source>The network&apos;s output at {state}</source>
        <translation>网络在{state}的输出</translation>
    </message>
    <message>
        <source>Epoch {epoch}: train accuracy {train:.1%}, test accuracy {test:.1%}</source>
        <translation>第 {epoch} 个 epoch：训练准确率 {train:.1%}，测试准确率 {test:.1%}</translation>
    </message>
</context>
<context>
    <name>Devices</name>
    <message>
        <source>no CUDA GPU with a working driver was found on this machine</source>
        <translation>本机没有找到驱动可用的 CUDA GPU</translation>
    </message>
    <message>
        <source>no Ascend NPU with its CANN runtime was found on this machine</source>
        <translation>本机没有找到带 CANN 运行时的昇腾 NPU</translation>
    </message>
    <message>
        <source>MindSpore&apos;s CPU backend is not available</source>
        <translation>MindSpore 的 CPU 后端不可用</translation>
    </message>
    <message>
        <source>this process was set up for {was} on {was_device}; {mode} on {device} needs a new process</source>
        <translation>此进程已按 {was_device} 上的 {was} 设置；在 {device} 上使用 {mode} 需要新进程</translation>
    </message>
    <message>
        <source>probing {device} failed: {error}</source>
        <translation>检测 {device} 失败：{error}</translation>
    </message>
    <message>
        <source>unknown device &quot;{device}&quot;; use one of {devices}</source>
        <translation>未知设备“{device}”；请使用以下之一：{devices}</translation>
    </message>
    <message>
        <source>device {device} is not available: {why}</source>
        <translation>设备 {device} 不可用：{why}</translation>
    </message>
    <message>
        <source>this process already runs on {device}; MindSpore cannot switch to {new} without a new process</source>
        <translation>此进程已在 {device} 上运行；MindSpore 不启动新进程就无法切换到 {new}</translation>
    </message>
</context>
<context>
    <name>Divergence</name>
    <message>
        <source>the parameter {element} became {value} at step {step:,}</source>
        <translation>参数 {element} 在第 {step:,} 步变为 {value}</translation>
    </message>
    <message>
        <source>the {element} became {value} at step {step:,}</source>
        <translation>{element} 在第 {step:,} 步变为 {value}</translation>
    </message>
    <message>
        <source>the gradient {element} became {value} at step {step:,}</source>
        <translation>梯度 {element} 在第 {step:,} 步变为 {value}</translation>
    </message>
    <message>
        <source>First non-finite value: {bad}. The update-to-value ratio ‖lr·∂L/∂p‖/‖p‖ first passed {limit:g} at step {step:,} ({tensor}: {ratio}): each step changed it by more than its whole size.</source>
        <translation>第一个非有限值：{bad}。更新量与参数值之比 ‖lr·∂L/∂p‖/‖p‖ 在第 {step:,} 步首次超过 {limit:g}（{tensor}：{ratio}）：每一步的改变量都超过了参数本身的大小。</translation>
    </message>
    <message>
        <source>First non-finite value: {bad}. The update-to-value ratio ‖lr·∂L/∂p‖/‖p‖ stayed below {limit:g} until then.</source>
        <translation>第一个非有限值：{bad}。在此之前，更新量与参数值之比 ‖lr·∂L/∂p‖/‖p‖ 一直低于 {limit:g}。</translation>
    </message>
</context>
<context>
    <name>EdgeItem</name>
    <message>
        <source>{source} → {target} (select and press Delete to disconnect)</source>
        <translation>{source} → {target}（选中后按 Delete 断开）</translation>
    </message>
    <message>
        <source>ops.stop_gradient: no gradient flows back along this edge</source>
        <translation>ops.stop_gradient：没有梯度沿这条边回传</translation>
    </message>
    <message>
        <source>{why}: no gradient flows back</source>
        <translation>{why}：没有梯度回传</translation>
    </message>
    <message>
        <source>gradient flowing back to {source}:</source>
        <translation>回传到 {source} 的梯度：</translation>
    </message>
</context>
<context>
    <name>Engine</name>
    <message>
        <source>{error}: {message}</source>
        <translation>{error}：{message}</translation>
    </message>
    <message>
        <source>MindSpore could not be loaded: {error}</source>
        <translation>无法加载 MindSpore：{error}</translation>
    </message>
    <message>
        <source>The engine ran out of memory ({error}). This graph needs about {need} for one training step, and the training states kept for going back up to {kept} more (a quarter of the history budget). Use a smaller graph (fewer or smaller Parameters), or lower the history budget, then press Reset.</source>
        <translation>引擎内存不足（{error}）。这个图训练一步大约需要 {need}，为回退而保留的训练状态最多还要 {kept}（历史内存上限的四分之一）。请换一个更小的图（更少或更小的 Parameter），或调低历史内存上限，然后按“重置”。</translation>
    </message>
</context>
<context>
    <name>EngineClient</name>
    <message>
        <source>unreadable message from the engine: {error}</source>
        <translation>无法读取引擎发来的消息：{error}</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Details…</source>
        <translation>详情…</translation>
    </message>
    <message>
        <source>The engine&apos;s full traceback</source>
        <translation>引擎的完整错误回溯</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Keep waiting for the engine to answer</source>
        <translation>继续等待引擎响应</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>Start a fresh engine process; the session and the history are kept</source>
        <translation>启动新的引擎进程；会话和历史都会保留</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Error details</source>
        <translation>错误详情</translation>
    </message>
</context>
<context>
    <name>ExperimentsPanel</name>
    <message>
        <source>Four variants</source>
        <translation>四种写法</translation>
    </message>
    <message>
        <source>Gradient check</source>
        <translation>梯度检查</translation>
    </message>
    <message>
        <source>Mode cost</source>
        <translation>模式开销</translation>
    </message>
    <message>
        <source>Loss landscape</source>
        <translation>损失曲面</translation>
    </message>
    <message>
        <source>PyTorch parity</source>
        <translation>与 PyTorch 对比</translation>
    </message>
    <message>
        <source>Hessian</source>
        <translation>黑塞矩阵</translation>
    </message>
    <message>
        <source>Jacobian</source>
        <translation>雅可比矩阵</translation>
    </message>
    <message>
        <source>VJP and JVP</source>
        <translation>VJP 与 JVP</translation>
    </message>
    <message>
        <source>The run was rebuilt: ask again</source>
        <translation>训练已重新构建：请重新计算</translation>
    </message>
</context>
<context>
    <name>FileJob</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>Files</name>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>is a named pipe, not a regular file</source>
        <translation>是命名管道，不是普通文件</translation>
    </message>
    <message>
        <source>is a device, not a regular file</source>
        <translation>是设备，不是普通文件</translation>
    </message>
    <message>
        <source>is a socket, not a regular file</source>
        <translation>是套接字，不是普通文件</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>no space left on the device</source>
        <translation>设备空间不足</translation>
    </message>
    <message>
        <source>disk quota exceeded</source>
        <translation>超出磁盘配额</translation>
    </message>
    <message>
        <source>the file system is read-only</source>
        <translation>文件系统为只读</translation>
    </message>
    <message>
        <source>the name is too long</source>
        <translation>名称太长</translation>
    </message>
    <message>
        <source>a part of the path is not a folder</source>
        <translation>路径中有一部分不是文件夹</translation>
    </message>
    <message>
        <source>too many symbolic links</source>
        <translation>符号链接过多</translation>
    </message>
    <message>
        <source>no file name given</source>
        <translation>没有给出文件名</translation>
    </message>
    <message>
        <source>{where}: {error}</source>
        <translation>{where}：{error}</translation>
    </message>
    <message>
        <source>{where}: cannot be read ({error})</source>
        <translation>{where}：无法读取（{error}）</translation>
    </message>
    <message>
        <source>{where}: {why}</source>
        <translation>{where}：{why}</translation>
    </message>
    <message>
        <source>{where}: the file is {size:,} bytes; at most {max:,} can be opened</source>
        <translation>{where}：文件大小为 {size:,} 字节；最多只能打开 {max:,} 字节</translation>
    </message>
    <message>
        <source>{where}: the file grew past {max:,} bytes while it was read</source>
        <translation>{where}：读取过程中文件增长超过了 {max:,} 字节</translation>
    </message>
    <message>
        <source>{where}: not a text file (not UTF-8)</source>
        <translation>{where}：不是文本文件（不是 UTF-8 编码）</translation>
    </message>
    <message>
        <source>{where}: names a folder, not a file</source>
        <translation>{where}：指向文件夹，而不是文件</translation>
    </message>
    <message>
        <source>{where}: cannot be written ({error})</source>
        <translation>{where}：无法写入（{error}）</translation>
    </message>
    <message>
        <source>{where}: {why}; only regular files are written</source>
        <translation>{where}：{why}；只会写入普通文件</translation>
    </message>
    <message>
        <source>{where}: is {other}, which is being read; choose another file</source>
        <translation>{where}：就是正在读取的 {other}；请选择其他文件</translation>
    </message>
    <message>
        <source>{where}: cannot be written (permission denied)</source>
        <translation>{where}：无法写入（权限不足）</translation>
    </message>
    <message>
        <source>{where}: the folder {folder} does not exist</source>
        <translation>{where}：文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <source>{where}: the file name is {n} bytes; at most {max} are allowed</source>
        <translation>{where}：文件名有 {n} 字节；最多允许 {max} 字节</translation>
    </message>
    <message>
        <source>{where}: cannot be written in {folder} ({error})</source>
        <translation>{where}：无法在 {folder} 中写入（{error}）</translation>
    </message>
    <message>
        <source>{where}: no temporary file could be made</source>
        <translation>{where}：无法创建临时文件</translation>
    </message>
    <message>
        <source>{where}: could not be written ({error}); it was left as it was</source>
        <translation>{where}：无法写入（{error}）；文件保持原样</translation>
    </message>
</context>
<context>
    <name>Form</name>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Automatically resize this axis whenever the displayed data is changed.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;显示的数据改变时自动调整此坐标轴的范围。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Enables mouse interaction (panning, scaling) for this axis.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;允许用鼠标操作此坐标轴（平移、缩放）。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Inverts the display of this axis. (+y points downward instead of upward)&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;反转此坐标轴的方向。（+y 朝下而不是朝上）&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Links this axis with another view. When linked, both views will display the same data range.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;将此坐标轴与另一个视图关联。关联后两个视图显示相同的数据范围。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Maximum value to display for this axis.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;此坐标轴显示的最大值。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Minimum value to display for this axis.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;此坐标轴显示的最小值。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Percent of data to be visible when auto-scaling. It may be useful to decrease this value for data with spiky noise.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;自动缩放时可见数据的百分比。数据有尖峰噪声时，调低此值可能有用。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Set the range for this axis manually. This disables automatic scaling. &lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;手动设置此坐标轴的范围。这会关闭自动缩放。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;When checked, the axis will automatically pan to center on the current data, but the scale along this axis will not change.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;勾选后，坐标轴会自动平移使当前数据居中，但此坐标轴的缩放比例不变。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;When checked, the axis will only auto-scale to data that is visible along the orthogonal axis.&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>
        <translation>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;勾选后，坐标轴只按另一坐标轴方向上可见的数据自动缩放。&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</translation>
    </message>
    <message>
        <source>Alpha</source>
        <translation>透明度</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Auto Pan Only</source>
        <translation>仅自动平移</translation>
    </message>
    <message>
        <source>Automatically downsample data based on the visible range. This assumes X values are uniformly spaced.</source>
        <translation>根据可见范围自动降采样。此项假定 X 值等间距。</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Clip to View</source>
        <translation>裁剪到视图</translation>
    </message>
    <message>
        <source>Display averages of the curves displayed in this plot. The parameter list allows you to choose parameters to average over (if any are available).</source>
        <translation>显示此图中各曲线的平均值。可在参数列表中选择求平均所依据的参数（如果有）。</translation>
    </message>
    <message>
        <source>Downsample</source>
        <translation>降采样</translation>
    </message>
    <message>
        <source>Downsample by drawing a saw wave that follows the min and max of the original data. This method produces the best visual representation of the data but is slower.</source>
        <translation>绘制跟随原始数据最小值和最大值的锯齿波来降采样。此方法显示效果最好，但较慢。</translation>
    </message>
    <message>
        <source>Downsample by taking the first of N samples. This method is fastest and least accurate.</source>
        <translation>取每 N 个样本中的第一个来降采样。此方法最快，但最不精确。</translation>
    </message>
    <message>
        <source>Downsample by taking the mean of N samples.</source>
        <translation>取每 N 个样本的平均值来降采样。</translation>
    </message>
    <message>
        <source>Downsample data before plotting. (plot every Nth sample)</source>
        <translation>绘图前对数据降采样。（每 N 个样本绘制一个）</translation>
    </message>
    <message>
        <source>Forget hidden traces</source>
        <translation>丢弃隐藏的曲线</translation>
    </message>
    <message>
        <source>If MaxTraces is checked, remove curves from memory after they are hidden (saves memory, but traces can not be un-hidden).</source>
        <translation>勾选“最多曲线数”时，曲线隐藏后即从内存中移除（节省内存，但无法再显示）。</translation>
    </message>
    <message>
        <source>If multiple curves are displayed in this plot, check &quot;Max Traces&quot; and set this value to limit the number of traces that are displayed.</source>
        <translation>此图显示多条曲线时，勾选“最多曲线数”并设置此值，以限制显示的曲线数量。</translation>
    </message>
    <message>
        <source>If multiple curves are displayed in this plot, check this box to limit the number of traces that are displayed.</source>
        <translation>此图显示多条曲线时，勾选此项以限制显示的曲线数量。</translation>
    </message>
    <message>
        <source>Invert Axis</source>
        <translation>反转坐标轴</translation>
    </message>
    <message>
        <source>Link Axis:</source>
        <translation>关联坐标轴：</translation>
    </message>
    <message>
        <source>Log X</source>
        <translation>X 对数坐标</translation>
    </message>
    <message>
        <source>Log Y</source>
        <translation>Y 对数坐标</translation>
    </message>
    <message>
        <source>Manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <source>Max Traces:</source>
        <translation>最多曲线数：</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Mouse Enabled</source>
        <translation>允许鼠标操作</translation>
    </message>
    <message>
        <source>Opacity</source>
        <translation>不透明度</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Plot only the portion of each curve that is visible. This assumes X values are uniformly spaced.</source>
        <translation>只绘制每条曲线的可见部分。此项假定 X 值等间距。</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>数据点</translation>
    </message>
    <message>
        <source>Power Spectrum (FFT)</source>
        <translation>功率谱（FFT）</translation>
    </message>
    <message>
        <source>Show X Grid</source>
        <translation>显示 X 网格</translation>
    </message>
    <message>
        <source>Show Y Grid</source>
        <translation>显示 Y 网格</translation>
    </message>
    <message>
        <source>Subsample</source>
        <translation>抽样</translation>
    </message>
    <message>
        <source>Subtract Mean</source>
        <translation>减去平均值</translation>
    </message>
    <message>
        <source>Visible Data Only</source>
        <translation>仅可见数据</translation>
    </message>
    <message>
        <source>Y vs. Y&apos;</source>
        <translation>Y 对 Y&apos;</translation>
    </message>
    <message>
        <source>dy/dx</source>
        <translation>dy/dx</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>GifRecorder</name>
    <message>
        <source>The window was closed while recording.</source>
        <translation>录制时窗口被关闭。</translation>
    </message>
    <message>
        <source>The run changed while recording.</source>
        <translation>录制时训练运行发生了变化。</translation>
    </message>
</context>
<context>
    <name>GradCheckTab</name>
    <message>
        <source>Check gradients</source>
        <translation>检查梯度</translation>
    </message>
    <message>
        <source>PASS: all {n} elements agree ({where})</source>
        <translation>通过：全部 {n} 个元素一致（{where}）</translation>
    </message>
    <message>
        <source>FAIL: {bad} of {n} elements disagree ({where})</source>
        <translation>未通过：{n} 个元素中有 {bad} 个不一致（{where}）</translation>
    </message>
    <message>
        <source>MindSpore against float64 central differences: eps = {eps:g}, tolerance {tolerance:g} (relative error = |error| / max(1, |difference|))</source>
        <translation>MindSpore 与 float64 中心差分对比：eps = {eps:g}，容差 {tolerance:g}（相对误差 = |误差| / max(1, |差分值|)）</translation>
    </message>
    <message>
        <source>✓ agrees</source>
        <translation>✓ 一致</translation>
    </message>
    <message>
        <source>✗ DISAGREES</source>
        <translation>✗ 不一致</translation>
    </message>
    <message>
        <source>max abs {abs}, max rel {rel}</source>
        <translation>最大绝对误差 {abs}，最大相对误差 {rel}</translation>
    </message>
    <message>
        <source>log₁₀ relative error</source>
        <translation>log₁₀ 相对误差</translation>
    </message>
</context>
<context>
    <name>GradFlow</name>
    <message>
        <source>not returned</source>
        <translation>未返回</translation>
    </message>
    <message>
        <source>L = loss + …</source>
        <translation>L = loss + …</translation>
    </message>
    <message>
        <source>the loss</source>
        <translation>即损失</translation>
    </message>
    <message>
        <source>differentiated too</source>
        <translation>同样参与求导</translation>
    </message>
    <message>
        <source>returned, not differentiated (has_aux)</source>
        <translation>返回但不求导（has_aux）</translation>
    </message>
    <message>
        <source>ops.stop_gradient: no gradient flows back</source>
        <translation>ops.stop_gradient：没有梯度回传</translation>
    </message>
    <message>
        <source>not requested by {call}</source>
        <translation>{call} 未要求此梯度</translation>
    </message>
</context>
<context>
    <name>Graph</name>
    <message>
        <source>{node}: the graph has a cycle: {cycle}</source>
        <translation>{node}：计算图中有环：{cycle}</translation>
    </message>
    <message>
        <source>{node}: the name {name} is used twice</source>
        <translation>{node}：名称 {name} 被使用了两次</translation>
    </message>
    <message>
        <source>node {name}: unknown kind {kind}</source>
        <translation>节点 {name}：未知类型 {kind}</translation>
    </message>
    <message>
        <source>{node}: its parameter {param} has the name of another node</source>
        <translation>{node}：它的参数 {param} 与另一个节点同名</translation>
    </message>
    <message>
        <source>{node}: is on a cycle: {cycle}</source>
        <translation>{node}：位于环上：{cycle}</translation>
    </message>
    <message>
        <source>{node}: input port &apos;{port}&apos; refers to {source}, which does not exist</source>
        <translation>{node}：输入端口 &apos;{port}&apos; 指向不存在的 {source}</translation>
    </message>
    <message>
        <source>{node}: input port &apos;{port}&apos; is fed by Output {source}; an Output only marks a result</source>
        <translation>{node}：输入端口 &apos;{port}&apos; 连接到 Output {source}；Output 只用来标记结果</translation>
    </message>
    <message>
        <source>{node}: unknown input port(s) {ports}</source>
        <translation>{node}：未知的输入端口 {ports}</translation>
    </message>
    <message>
        <source>init {init} takes its values from a Dataset node, and the graph has none</source>
        <translation>init {init} 的值来自 Dataset 节点，但图中没有 Dataset 节点</translation>
    </message>
    <message>
        <source>its Dataset node cannot be used</source>
        <translation>它的 Dataset 节点无法使用</translation>
    </message>
    <message>
        <source>a graph takes at most one Dataset node</source>
        <translation>一个图最多只能有一个 Dataset 节点</translation>
    </message>
    <message>
        <source>it feeds no Input: give an Input the init features, onehot or labels</source>
        <translation>它没有为任何 Input 提供数据：请把某个 Input 的 init 设为 features、onehot 或 labels</translation>
    </message>
    <message>
        <source>the graph has no Output node: add an Output and connect the loss to it</source>
        <translation>计算图没有 Output 节点：请添加一个 Output 并把损失连接到它</translation>
    </message>
    <message>
        <source>{node}: the loss (first output) must be a scalar, but &quot;{source}&quot; has shape {shape}</source>
        <translation>{node}：损失（第一个输出）必须是标量，但“{source}”的形状是 {shape}</translation>
    </message>
    <message>
        <source>the graph has no trainable Parameter: there is nothing to train</source>
        <translation>计算图中没有可训练的 Parameter：没有可训练的内容</translation>
    </message>
    <message>
        <source>attrs must map attribute names to numbers</source>
        <translation>attrs 必须把属性名映射到数</translation>
    </message>
    <message>
        <source>{kind} has no attribute {name}</source>
        <translation>{kind} 没有属性 {name}</translation>
    </message>
    <message>
        <source>{node}: {problem}</source>
        <translation>{node}：{problem}</translation>
    </message>
    <message>
        <source>{node}: input port &apos;{port}&apos; is not connected</source>
        <translation>{node}：输入端口 &apos;{port}&apos; 未连接</translation>
    </message>
    <message>
        <source>the graph has {n} nodes; at most {max} are supported</source>
        <translation>计算图有 {n} 个节点；最多支持 {max} 个</translation>
    </message>
    <message>
        <source>a node needs a name</source>
        <translation>节点需要一个名称</translation>
    </message>
    <message>
        <source>a name has at most 40 characters</source>
        <translation>名称最多 40 个字符</translation>
    </message>
    <message>
        <source>{name} is not a valid name: use letters, digits and _ and do not start with a digit</source>
        <translation>{name} 不是有效的名称：请使用字母、数字和 _，且不要以数字开头</translation>
    </message>
    <message>
        <source>{name} is reserved: names starting with {prefix} are used by GradViz</source>
        <translation>{name} 是保留名称：以 {prefix} 开头的名称由 GradViz 使用</translation>
    </message>
    <message>
        <source>{name} is reserved: names with double underscores on both sides belong to Python</source>
        <translation>{name} 是保留名称：两侧带双下划线的名称属于 Python</translation>
    </message>
    <message>
        <source>{name} is a Python keyword; choose another name</source>
        <translation>{name} 是 Python 关键字；请换一个名称</translation>
    </message>
    <message>
        <source>{name} is a name the generated program uses itself; choose another name</source>
        <translation>{name} 是生成的程序自身使用的名称；请换一个名称</translation>
    </message>
    <message>
        <source>shape must be a list of sizes, not {shape}</source>
        <translation>形状必须是由各维大小组成的列表，而不是 {shape}</translation>
    </message>
    <message>
        <source>shape has {n} axes; at most {max} are supported</source>
        <translation>形状有 {n} 个维度；最多支持 {max} 个</translation>
    </message>
    <message>
        <source>shape {shape} must hold whole numbers</source>
        <translation>形状 {shape} 必须由整数组成</translation>
    </message>
    <message>
        <source>shape {shape} has a size {size}; sizes must be at least 1</source>
        <translation>形状 {shape} 中有大小 {size}；各维大小至少为 1</translation>
    </message>
    <message>
        <source>shape {shape} is too large</source>
        <translation>形状 {shape} 太大</translation>
    </message>
    <message>
        <source>shape {shape} has {n:,} elements; at most {max:,} are allowed</source>
        <translation>形状 {shape} 有 {n:,} 个元素；最多允许 {max:,} 个</translation>
    </message>
    <message>
        <source>init {init} is for an Input fed by a Dataset node</source>
        <translation>init {init} 只用于由 Dataset 节点提供数据的 Input</translation>
    </message>
    <message>
        <source>values must be numbers</source>
        <translation>值必须是数字</translation>
    </message>
    <message>
        <source>values have shape {values} but the node&apos;s shape is {shape}</source>
        <translation>值的形状是 {values}，但节点的形状是 {shape}</translation>
    </message>
    <message>
        <source>values must be finite numbers (no NaN or infinity)</source>
        <translation>值必须是有限数（不能是 NaN 或无穷大）</translation>
    </message>
    <message>
        <source>values are too large for float32</source>
        <translation>值超出了 float32 的范围</translation>
    </message>
    <message>
        <source>init {init} is unknown; use one of {inits}</source>
        <translation>初始化方式 {init} 未知；请使用以下之一：{inits}</translation>
    </message>
</context>
<context>
    <name>GraphScene</name>
    <message>
        <source>returns {x}: the loss</source>
        <translation>返回 {x}：即损失</translation>
    </message>
    <message>
        <source>returns ops.stop_gradient({x}), aux</source>
        <translation>返回 ops.stop_gradient({x})，辅助数据</translation>
    </message>
    <message>
        <source>returns ops.stop_gradient({x})</source>
        <translation>返回 ops.stop_gradient({x})</translation>
    </message>
    <message>
        <source>returns {x} as aux (has_aux)</source>
        <translation>将 {x} 作为辅助数据返回（has_aux）</translation>
    </message>
    <message>
        <source>returns {x}: differentiated too!</source>
        <translation>返回 {x}：同样参与求导！</translation>
    </message>
    <message>
        <source>not returned (z output off)</source>
        <translation>未返回（未勾选返回 z）</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>断开连接</translation>
    </message>
</context>
<context>
    <name>GraphicsScene</name>
    <message>
        <source>Export...</source>
        <translation>导出…</translation>
    </message>
</context>
<context>
    <name>HessianTab</name>
    <message>
        <source>{k} elements of {param} at random (rows and columns)</source>
        <translation>随机选取 {param} 的 {k} 个元素（行与列）</translation>
    </message>
    <message>
        <source>every element of {param}</source>
        <translation>{param} 的全部元素</translation>
    </message>
    <message>
        <source>the reference (MindSpore gave none)</source>
        <translation>参考值（MindSpore 未给出）</translation>
    </message>
    <message>
        <source>(finite differences {ref})</source>
        <translation>（有限差分 {ref}）</translation>
    </message>
    <message>
        <source>The heat map shows {shown}; row i, column j is ∂²L/∂pᵢ∂pⱼ.</source>
        <translation>热力图显示{shown}；第 i 行第 j 列是 ∂²L/∂pᵢ∂pⱼ。</translation>
    </message>
</context>
<context>
    <name>ImageGrid</name>
    <message>
        <source>{pred}, not {true}</source>
        <translation>{pred}，不是 {true}</translation>
    </message>
    <message>
        <source>test example {i}: true {true}</source>
        <translation>测试样本 {i}：真实 {true}</translation>
    </message>
    <message>
        <source>test example {i}: predicted {pred} ({p:.0%}), true {true}</source>
        <translation>测试样本 {i}：预测 {pred}（{p:.0%}），真实 {true}</translation>
    </message>
</context>
<context>
    <name>ImagePanel</name>
    <message>
        <source>Only the wrong ones</source>
        <translation>只看错的</translation>
    </message>
    <message>
        <source>{n} test images: the predictions come after the first epoch</source>
        <translation>{n} 张测试图像：预测在第一个 epoch 结束后出现</translation>
    </message>
    <message>
        <source>Epoch {epoch} (step {step:,}): test accuracy {acc}</source>
        <translation>第 {epoch} 个 epoch（第 {step:,} 步）：测试准确率 {acc}</translation>
    </message>
    <message>
        <source>Epoch {epoch} (step {step:,}): {wrong} of {n} wrong, accuracy {acc}</source>
        <translation>第 {epoch} 个 epoch（第 {step:,} 步）：{n} 张中 {wrong} 张错，准确率 {acc}</translation>
    </message>
</context>
<context>
    <name>ImportCodeDialog</name>
    <message>
        <source>Paste MindSpore code</source>
        <translation>粘贴 MindSpore 代码</translation>
    </message>
    <message>
        <source>Paste a MindSpore program: GradViz reads it (it never runs it) and opens its graph.</source>
        <translation>粘贴一段 MindSpore 程序：GradViz 读取它（从不运行它）并打开它的计算图。</translation>
    </message>
    <message>
        <source>&amp;Import</source>
        <translation>导入(&amp;I)</translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <source>&apos;{text}&apos; is not a shape: write sizes separated by commas, like 5, 3</source>
        <translation>&apos;{text}&apos; 不是形状：请写出用逗号分隔的各维大小，例如 5, 3</translation>
    </message>
    <message>
        <source>Select a node to edit it</source>
        <translation>选择一个节点进行编辑</translation>
    </message>
    <message>
        <source>e.g. 5, 3</source>
        <translation>例如 5, 3</translation>
    </message>
    <message>
        <source>requires_grad (trainable)</source>
        <translation>requires_grad（可训练）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Init</source>
        <translation>初始化</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Pause training to edit the graph</source>
        <translation>暂停训练后才能编辑计算图</translation>
    </message>
    <message>
        <source>a CSV file or an MNIST folder</source>
        <translation>CSV 文件或 MNIST 文件夹</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Choose the CSV file (source csv) or the folder of MNIST files (source mnist)</source>
        <translation>选择 CSV 文件（source 为 csv）或存放 MNIST 文件的文件夹（source 为 mnist）</translation>
    </message>
    <message>
        <source>The folder of MNIST IDX files</source>
        <translation>存放 MNIST IDX 文件的文件夹</translation>
    </message>
    <message>
        <source>A CSV file of features and labels</source>
        <translation>含特征和标签的 CSV 文件</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>the name &quot;{name}&quot; is already used</source>
        <translation>名称“{name}”已被使用</translation>
    </message>
    <message>
        <source>values are not a list of numbers: {error}</source>
        <translation>值不是数字列表：{error}</translation>
    </message>
    <message>
        <source>Edit {name}</source>
        <translation>编辑 {name}</translation>
    </message>
</context>
<context>
    <name>JacobianTab</name>
    <message>
        <source>{k} rows and {c} columns at random of {m} x {n}</source>
        <translation>从 {m} x {n} 中随机选取 {k} 行 {c} 列</translation>
    </message>
    <message>
        <source>Every path from {param} to L passes through {node}: the chain rule gives ∂L/∂{param}.</source>
        <translation>从 {param} 到 L 的每条路径都经过 {node}：链式法则给出 ∂L/∂{param}。</translation>
    </message>
    <message>
        <source>{param} also reaches L around {node}: Jᵀ · ∂L/∂{node} is only the share through {node}.</source>
        <translation>{param} 也绕过 {node} 到达 L：Jᵀ · ∂L/∂{node} 只是经过 {node} 的那一部分。</translation>
    </message>
    <message>
        <source>jacrev and jacfwd give the same matrix</source>
        <translation>jacrev 与 jacfwd 给出相同的矩阵</translation>
    </message>
    <message>
        <source>jacrev and jacfwd DIFFER</source>
        <translation>jacrev 与 jacfwd 不一致</translation>
    </message>
</context>
<context>
    <name>Landscape</name>
    <message>
        <source>the loss landscape is drawn around the run&apos;s parameters: build the graph first</source>
        <translation>损失地形图围绕本次运行的参数绘制：请先构建计算图</translation>
    </message>
    <message>
        <source>the range must be above 0 and the grid 2 to 201 points a side, not {span}, {resolution}</source>
        <translation>范围必须大于 0，网格每边 2 到 201 个点，而不是 {span}、{resolution}</translation>
    </message>
</context>
<context>
    <name>LandscapeTab</name>
    <message>
        <source>two parameter elements</source>
        <translation>两个参数元素</translation>
    </message>
    <message>
        <source>two random directions (filter-normalised)</source>
        <translation>两个随机方向（按滤波器归一化）</translation>
    </message>
    <message>
        <source> points</source>
        <translation> 个点</translation>
    </message>
    <message>
        <source>plane</source>
        <translation>平面</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x 轴</translation>
    </message>
    <message>
        <source>y axis</source>
        <translation>y 轴</translation>
    </message>
    <message>
        <source>grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>The run was rebuilt: compute again</source>
        <translation>训练已重新构建：请重新计算</translation>
    </message>
    <message>
        <source>The graph or the options changed: compute the landscape again</source>
        <translation>计算图或选项已改变：请重新计算损失曲面</translation>
    </message>
    <message>
        <source>Choose two different parameter elements</source>
        <translation>请选择两个不同的参数元素</translation>
    </message>
    <message>
        <source>L ({x}, {y}) through the parameters {at}: {lo} to {hi}. White: the optimizer&apos;s path, red: now.</source>
        <translation>L（{x}, {y}），经过{at}的参数：{lo} 到 {hi}。白色：优化器的路径，红色：当前位置。</translation>
    </message>
</context>
<context>
    <name>LessonTask</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Waiting for the engine: try again once the graph is built</source>
        <translation>正在等待引擎：计算图构建完成后请重试</translation>
    </message>
    <message>
        <source>Computing in the engine…</source>
        <translation>正在引擎中计算…</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>The engine has not answered for {seconds:.0f} s (stopped, or frozen inside MindSpore). Wait for it, or Restart it: the session and the history are kept.</source>
        <translation>引擎已 {seconds:.0f} 秒没有响应（已停止，或卡在 MindSpore 内部）。请等待，或重启引擎：会话和历史都会保留。</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>GradViz: MindSpore autodiff, live</source>
        <translation>GradViz：MindSpore 自动微分，实时呈现</translation>
    </message>
    <message>
        <source>Add node</source>
        <translation>添加节点</translation>
    </message>
    <message>
        <source>Add node:</source>
        <translation>添加节点：</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>MindSpore program</source>
        <translation>MindSpore 程序</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Test images</source>
        <translation>测试图像</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Restored the session autosaved before GradViz last stopped</source>
        <translation>已恢复 GradViz 上次停止前自动保存的会话</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New session</source>
        <translation>新建会话(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation>打开会话(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save run with &amp;history (JSON Lines)…</source>
        <translation>保存训练及历史(&amp;H)（JSON Lines）…</translation>
    </message>
    <message>
        <source>Open run with h&amp;istory…</source>
        <translation>打开训练及历史(&amp;I)…</translation>
    </message>
    <message>
        <source>Export as &amp;MindSpore script…</source>
        <translation>导出为 MindSpore 脚本(&amp;M)…</translation>
    </message>
    <message>
        <source>Export as &amp;PyTorch script…</source>
        <translation>导出为 PyTorch 脚本(&amp;P)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete selection</source>
        <translation>删除所选(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Fit graph</source>
        <translation>适应窗口显示计算图(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Operation ▾</source>
        <translation>运算 ▾</translation>
    </message>
    <message>
        <source>Loss ▾</source>
        <translation>损失函数 ▾</translation>
    </message>
    <message>
        <source>Add a {kind} node: {description}</source>
        <translation>添加 {kind} 节点：{description}</translation>
    </message>
    <message>
        <source>Add an operation node</source>
        <translation>添加运算节点</translation>
    </message>
    <message>
        <source>Add a loss node</source>
        <translation>添加损失函数节点</translation>
    </message>
    <message>
        <source>Changed: training restarts from step 0 with the new settings</source>
        <translation>已修改：训练将以新设置从第 0 步重新开始</translation>
    </message>
    <message>
        <source># No MindSpore program: it cannot be generated while the graph has problems.
# Fix them (they are listed under Problems) and the program appears here.
#
{problems}</source>
        <translation># 没有 MindSpore 程序：计算图有问题时无法生成程序。
# 修正这些问题（列在“问题”面板中）后，程序会显示在这里。
#
{problems}</translation>
    </message>
    <message>
        <source>Problems ({n})</source>
        <translation>问题（{n}）</translation>
    </message>
    <message>
        <source>Fix these to train</source>
        <translation>修正这些问题后才能训练</translation>
    </message>
    <message>
        <source>No problems</source>
        <translation>没有问题</translation>
    </message>
    <message>
        <source>Save the run with every step, as JSON Lines</source>
        <translation>将训练的每一步保存为 JSON Lines</translation>
    </message>
    <message>
        <source>{rate:,.0f} steps/s</source>
        <translation>{rate:,.0f} 步/秒</translation>
    </message>
    <message>
        <source>loss —</source>
        <translation>损失 —</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>静态图</translation>
    </message>
    <message>
        <source>PyNative</source>
        <translation>动态图</translation>
    </message>
    <message>
        <source>Pause training to undo</source>
        <translation>暂停训练后才能撤销</translation>
    </message>
    <message>
        <source>Nodes: fix the problems to see values</source>
        <translation>节点：修正问题后才能看到数值</translation>
    </message>
    <message>
        <source>Nodes: not computed for a saved run (press Reset to train it again)</source>
        <translation>节点：已保存的训练不计算节点值（按“重置”重新训练）</translation>
    </message>
    <message>
        <source>Nodes: values not computed yet</source>
        <translation>节点：尚未计算数值</translation>
    </message>
</context>
<context>
    <name>ModeCostTab</name>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source> steps in each mode</source>
        <translation> 步（每种模式）</translation>
    </message>
    <message>
        <source>Graph mode saves {gain:.3f} ms a step: the compile pays for itself after {n} steps.</source>
        <translation>静态图模式每步节省 {gain:.3f} 毫秒：编译开销在 {n} 步后收回。</translation>
    </message>
    <message>
        <source>Graph mode is not faster per step on this graph.</source>
        <translation>在此计算图上，静态图模式的每步耗时并不更短。</translation>
    </message>
    <message>
        <source>PyNative</source>
        <translation>动态图模式 (PyNative)</translation>
    </message>
    <message>
        <source>{ms:.3f} ms/step</source>
        <translation>{ms:.3f} 毫秒/步</translation>
    </message>
    <message>
        <source>Graph (mindspore.jit)</source>
        <translation>静态图模式 (mindspore.jit)</translation>
    </message>
    <message>
        <source>first Graph step (compiles)</source>
        <translation>静态图的第一步（含编译）</translation>
    </message>
    <message>
        <source>{ms:.0f} ms</source>
        <translation>{ms:.0f} 毫秒</translation>
    </message>
    <message>
        <source>largest difference after {n} steps</source>
        <translation>{n} 步后的最大差异</translation>
    </message>
    <message>
        <source>{abs:.3g} (relative {rel:.3g})</source>
        <translation>{abs:.3g}（相对 {rel:.3g}）</translation>
    </message>
    <message>
        <source>Medians over the steps after the first; the difference covers the loss, parameters and gradients of every step.</source>
        <translation>取第一步之后各步的中位数；差异涵盖每一步的损失、参数和梯度。</translation>
    </message>
</context>
<context>
    <name>NodeItem</name>
    <message>
        <source>from {output}  {values}</source>
        <translation>来自 {output}  {values}</translation>
    </message>
    <message>
        <source>shape {shape}</source>
        <translation>形状 {shape}</translation>
    </message>
    <message>
        <source>gradient flowing back in =</source>
        <translation>回传的梯度 =</translation>
    </message>
    <message>
        <source>value =</source>
        <translation>值 =</translation>
    </message>
    <message>
        <source>{why}: grad_fn does not return it</source>
        <translation>{why}：grad_fn 不返回它</translation>
    </message>
    <message>
        <source>from {output}:</source>
        <translation>来自 {output}：</translation>
    </message>
    <message>
        <source>Parameter (frozen)</source>
        <translation>Parameter（冻结）</translation>
    </message>
    <message>
        <source>(not connected)</source>
        <translation>（未连接）</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>= {sum} (hover)</source>
        <translation>= {sum}（悬停查看）</translation>
    </message>
    <message>
        <source>from {output}</source>
        <translation>来自 {output}</translation>
    </message>
    <message>
        <source>{train} train · {test} test · batch {batch}</source>
        <translation>{train} 训练 · {test} 测试 · 批大小 {batch}</translation>
    </message>
    <message>
        <source>gradient flowing back in</source>
        <translation>反向流入的梯度</translation>
    </message>
    <message>
        <source>not computed</source>
        <translation>未计算</translation>
    </message>
    <message>
        <source>max {v}</source>
        <translation>最大 {v}</translation>
    </message>
    <message>
        <source>min {v}</source>
        <translation>最小 {v}</translation>
    </message>
</context>
<context>
    <name>Ops</name>
    <message>
        <source>{attr} must be one of {choices}, not {value}</source>
        <translation>{attr} 必须是 {choices} 之一，而不是 {value}</translation>
    </message>
    <message>
        <source>{attr} must be a number from {low:g} to {high:g}, not {value}</source>
        <translation>{attr} 必须是 {low:g} 到 {high:g} 之间的数，而不是 {value}</translation>
    </message>
    <message>
        <source>{a} has shape {sa} but {b} has shape {sb}</source>
        <translation>{a} 的形状是 {sa}，而 {b} 的形状是 {sb}</translation>
    </message>
    <message>
        <source>{both}; these shapes do not broadcast</source>
        <translation>{both}；这两个形状无法广播</translation>
    </message>
    <message>
        <source>{both}; matmul needs vectors or matrices, not scalars</source>
        <translation>{both}；matmul 需要向量或矩阵，而不是标量</translation>
    </message>
    <message>
        <source>{both}; matmul needs the last axis of {a} ({m}) to equal the first axis of {b} ({n})</source>
        <translation>{both}；matmul 要求 {a} 的最后一维（{m}）等于 {b} 的第一维（{n}）</translation>
    </message>
    <message>
        <source>{both}; the prediction and the target must have the same shape</source>
        <translation>{both}；预测值和目标值的形状必须相同</translation>
    </message>
    <message>
        <source>{a} has shape {shape}; softmax cross-entropy needs class scores of shape (classes,) or (samples, classes)</source>
        <translation>{a} 的形状是 {shape}；softmax 交叉熵需要形状为 (类别数,) 或 (样本数, 类别数) 的类别得分</translation>
    </message>
    <message>
        <source>{a} has shape {shape}; Dense needs (samples, in_channels) or (in_channels,) with in_channels {n}</source>
        <translation>{a} 的形状为 {shape}；Dense 需要 (样本数, in_channels) 或 (in_channels,)，其中 in_channels 为 {n}</translation>
    </message>
    <message>
        <source>{a} has shape {shape}; Flatten needs (samples, ...)</source>
        <translation>{a} 的形状为 {shape}；Flatten 需要 (样本数, ...)</translation>
    </message>
    <message>
        <source>A constant tensor (data or target): no gradient is applied to it.</source>
        <translation>常量张量（数据或目标值）：不对它应用梯度。</translation>
    </message>
    <message>
        <source>A trainable tensor, updated by the optimizer.</source>
        <translation>可训练的张量，由优化器更新。</translation>
    </message>
    <message>
        <source>A data set in mini-batches: the Inputs whose init is features, onehot or labels take each batch from it; evaluated on its test set after each epoch.</source>
        <translation>按小批量提供的数据集：init 为 features、onehot 或 labels 的 Input 从中取得每个批次；每个 epoch 结束后在其测试集上评估。</translation>
    </message>
    <message>
        <source>{attr} must be a path of at most {n} characters, not {value}</source>
        <translation>{attr} 必须是不超过 {n} 个字符的路径，而不是 {value}</translation>
    </message>
    <message>
        <source>Where the samples come from: a 2-D generator, the bundled 8x8 digits, a CSV file or a folder of MNIST files (path).</source>
        <translation>样本的来源：二维生成器、自带的 8x8 手写数字、CSV 文件或存放 MNIST 文件的文件夹（path）。</translation>
    </message>
    <message>
        <source>The CSV file (source csv) or the folder of MNIST IDX files (source mnist).</source>
        <translation>CSV 文件（source 为 csv）或存放 MNIST IDX 文件的文件夹（source 为 mnist）。</translation>
    </message>
    <message>
        <source>How many samples a 2-D source draws, or how many of the MNIST folder&apos;s images are used.</source>
        <translation>二维数据源生成的样本数，或使用 MNIST 文件夹中的多少张图像。</translation>
    </message>
    <message>
        <source>The 2-D generator&apos;s noise.</source>
        <translation>二维生成器的噪声。</translation>
    </message>
    <message>
        <source>The share of the samples kept apart as the test set.</source>
        <translation>留作测试集的样本比例。</translation>
    </message>
    <message>
        <source>Training samples per step (the last batch of an epoch may be short).</source>
        <translation>每一步的训练样本数（每个 epoch 的最后一批可能较少）。</translation>
    </message>
    <message>
        <source>The seed of the samples, of the split and of each epoch&apos;s order.</source>
        <translation>样本、划分以及每个 epoch 顺序所用的随机种子。</translation>
    </message>
    <message>
        <source>ops.matmul(a, b): matrix (or vector-matrix) product.</source>
        <translation>ops.matmul(a, b)：矩阵（或向量与矩阵）乘法。</translation>
    </message>
    <message>
        <source>∂(a·b)/∂a = upstream · bᵀ</source>
        <translation>∂(a·b)/∂a = 上游梯度 · bᵀ</translation>
    </message>
    <message>
        <source>∂(a·b)/∂b = aᵀ · upstream</source>
        <translation>∂(a·b)/∂b = aᵀ · 上游梯度</translation>
    </message>
    <message>
        <source>a + b, with broadcasting.</source>
        <translation>a + b，支持广播。</translation>
    </message>
    <message>
        <source>∂(a+b)/∂a = 1</source>
        <translation>∂(a+b)/∂a = 1</translation>
    </message>
    <message>
        <source>∂(a+b)/∂b = 1</source>
        <translation>∂(a+b)/∂b = 1</translation>
    </message>
    <message>
        <source>a - b, with broadcasting.</source>
        <translation>a - b，支持广播。</translation>
    </message>
    <message>
        <source>∂(a−b)/∂a = 1</source>
        <translation>∂(a−b)/∂a = 1</translation>
    </message>
    <message>
        <source>∂(a−b)/∂b = −1</source>
        <translation>∂(a−b)/∂b = −1</translation>
    </message>
    <message>
        <source>a * b, element-wise with broadcasting.</source>
        <translation>a * b，逐元素相乘，支持广播。</translation>
    </message>
    <message>
        <source>∂(a*b)/∂a = b</source>
        <translation>∂(a*b)/∂a = b</translation>
    </message>
    <message>
        <source>∂(a*b)/∂b = a</source>
        <translation>∂(a*b)/∂b = a</translation>
    </message>
    <message>
        <source>-x: the negation.</source>
        <translation>-x：取负。</translation>
    </message>
    <message>
        <source>∂(−x)/∂x = −1</source>
        <translation>∂(−x)/∂x = −1</translation>
    </message>
    <message>
        <source>ops.square(x): x * x, element-wise.</source>
        <translation>ops.square(x)：x * x，逐元素计算。</translation>
    </message>
    <message>
        <source>∂x²/∂x = 2x</source>
        <translation>∂x²/∂x = 2x</translation>
    </message>
    <message>
        <source>ops.exp(x): e to the x, element-wise.</source>
        <translation>ops.exp(x)：e 的 x 次方，逐元素计算。</translation>
    </message>
    <message>
        <source>∂eˣ/∂x = eˣ</source>
        <translation>∂eˣ/∂x = eˣ</translation>
    </message>
    <message>
        <source>ops.log(x): natural logarithm, element-wise (x must be above 0).</source>
        <translation>ops.log(x)：自然对数，逐元素计算（x 必须大于 0）。</translation>
    </message>
    <message>
        <source>∂ln(x)/∂x = 1/x</source>
        <translation>∂ln(x)/∂x = 1/x</translation>
    </message>
    <message>
        <source>ops.relu(x): max(x, 0), element-wise.</source>
        <translation>ops.relu(x)：max(x, 0)，逐元素计算。</translation>
    </message>
    <message>
        <source>∂relu(x)/∂x = 1 where x &gt; 0, else 0</source>
        <translation>∂relu(x)/∂x = 1（x &gt; 0 处），否则为 0</translation>
    </message>
    <message>
        <source>ops.leaky_relu(x, alpha): x where x &gt; 0, else alpha * x, element-wise.</source>
        <translation>ops.leaky_relu(x, alpha)：x &gt; 0 处为 x，否则为 alpha * x，逐元素计算。</translation>
    </message>
    <message>
        <source>The slope where x is below 0.</source>
        <translation>x 小于 0 处的斜率。</translation>
    </message>
    <message>
        <source>∂leaky_relu(x)/∂x = 1 where x &gt; 0, else alpha</source>
        <translation>∂leaky_relu(x)/∂x = 1（x &gt; 0 处），否则为 alpha</translation>
    </message>
    <message>
        <source>ops.sigmoid(x): 1 / (1 + e^-x), element-wise.</source>
        <translation>ops.sigmoid(x)：1 / (1 + e^-x)，逐元素计算。</translation>
    </message>
    <message>
        <source>∂σ(x)/∂x = σ(x)·(1 − σ(x))</source>
        <translation>∂σ(x)/∂x = σ(x)·(1 − σ(x))</translation>
    </message>
    <message>
        <source>ops.tanh(x): hyperbolic tangent, element-wise.</source>
        <translation>ops.tanh(x)：双曲正切，逐元素计算。</translation>
    </message>
    <message>
        <source>∂tanh(x)/∂x = 1 − tanh²(x)</source>
        <translation>∂tanh(x)/∂x = 1 − tanh²(x)</translation>
    </message>
    <message>
        <source>nn.Dense(in_channels, out_channels): x @ weight.T + bias, with its own weight (out, in) and bias (ops.dense(x, weight, bias)).</source>
        <translation>nn.Dense(in_channels, out_channels)：x @ weight.T + bias，带有自己的权重 (out, in) 和偏置（ops.dense(x, weight, bias)）。</translation>
    </message>
    <message>
        <source>The size of each input sample.</source>
        <translation>每个输入样本的大小。</translation>
    </message>
    <message>
        <source>The size of each output sample.</source>
        <translation>每个输出样本的大小。</translation>
    </message>
    <message>
        <source>How the weight (out_channels, in_channels) is initialized, by MindSpore&apos;s name.</source>
        <translation>权重 (out_channels, in_channels) 的初始化方式，使用 MindSpore 的名称。</translation>
    </message>
    <message>
        <source>How the bias (out_channels) is initialized, by MindSpore&apos;s name.</source>
        <translation>偏置 (out_channels) 的初始化方式，使用 MindSpore 的名称。</translation>
    </message>
    <message>
        <source>∂(x·weightᵀ + bias)/∂x = upstream · weight</source>
        <translation>∂(x·weightᵀ + bias)/∂x = 上游梯度 · weight</translation>
    </message>
    <message>
        <source>∂(x·weightᵀ + bias)/∂weight = upstreamᵀ · x</source>
        <translation>∂(x·weightᵀ + bias)/∂weight = 上游梯度ᵀ · x</translation>
    </message>
    <message>
        <source>∂(x·weightᵀ + bias)/∂bias = 1 (summed over samples)</source>
        <translation>∂(x·weightᵀ + bias)/∂bias = 1（对样本求和）</translation>
    </message>
    <message>
        <source>ops.flatten(x): every axis after the first (samples) made one, as nn.Flatten.</source>
        <translation>ops.flatten(x)：把第一个轴（样本）之后的所有轴合并为一个，与 nn.Flatten 相同。</translation>
    </message>
    <message>
        <source>∂flatten(x)/∂x = 1 (the upstream reshaped back)</source>
        <translation>∂flatten(x)/∂x = 1（上游梯度变回原形状）</translation>
    </message>
    <message>
        <source>ops.softmax(x): e^x / sum(e^x) along the last axis (class scores to probabilities).</source>
        <translation>ops.softmax(x)：沿最后一个轴计算 e^x / sum(e^x)（把类别分数变成概率）。</translation>
    </message>
    <message>
        <source>∂softmax(x)/∂x = s · (upstream − Σ upstream · s), s = softmax(x)</source>
        <translation>∂softmax(x)/∂x = s · (上游梯度 − Σ 上游梯度 · s)，s = softmax(x)</translation>
    </message>
    <message>
        <source>ops.sum(x): the sum of all elements, a scalar.</source>
        <translation>ops.sum(x)：所有元素之和，结果为标量。</translation>
    </message>
    <message>
        <source>∂sum(x)/∂x = 1</source>
        <translation>∂sum(x)/∂x = 1</translation>
    </message>
    <message>
        <source>ops.mean(x): the mean of all elements, a scalar.</source>
        <translation>ops.mean(x)：所有元素的平均值，结果为标量。</translation>
    </message>
    <message>
        <source>∂mean(x)/∂x = 1/n</source>
        <translation>∂mean(x)/∂x = 1/n（n 为元素个数）</translation>
    </message>
    <message>
        <source>ops.t(x): a matrix&apos;s transpose (a vector stays as it is).</source>
        <translation>ops.t(x)：矩阵的转置（向量保持不变）。</translation>
    </message>
    <message>
        <source>∂xᵀ/∂x: the upstream gradient transposed</source>
        <translation>∂xᵀ/∂x：上游梯度的转置</translation>
    </message>
    <message>
        <source>ops.stop_gradient(x): passes the value, blocks the gradient.</source>
        <translation>ops.stop_gradient(x)：传递数值，截断梯度。</translation>
    </message>
    <message>
        <source>∂stop_gradient(x)/∂x = 0: the gradient stops here</source>
        <translation>∂stop_gradient(x)/∂x = 0：梯度在此截断</translation>
    </message>
    <message>
        <source>ops.binary_cross_entropy_with_logits(logits, target, ones, ones), mean.</source>
        <translation>ops.binary_cross_entropy_with_logits(logits, target, ones, ones)，取平均。</translation>
    </message>
    <message>
        <source>∂BCE/∂z = (σ(z) − y)/n</source>
        <translation>∂BCE/∂z = (σ(z) − y)/n</translation>
    </message>
    <message>
        <source>∂BCE/∂y = −z/n</source>
        <translation>∂BCE/∂y = −z/n</translation>
    </message>
    <message>
        <source>ops.mse_loss(pred, target), mean of squared errors.</source>
        <translation>ops.mse_loss(pred, target)，均方误差。</translation>
    </message>
    <message>
        <source>∂MSE/∂p = 2(p − t)/n</source>
        <translation>∂MSE/∂p = 2(p − t)/n</translation>
    </message>
    <message>
        <source>∂MSE/∂t = −2(p − t)/n</source>
        <translation>∂MSE/∂t = −2(p − t)/n</translation>
    </message>
    <message>
        <source>ops.cross_entropy(logits, target): softmax cross-entropy with class probabilities (one-hot) as the target, mean over samples.</source>
        <translation>ops.cross_entropy(logits, target)：以类别概率（one-hot）为目标的 softmax 交叉熵，对样本取平均。</translation>
    </message>
    <message>
        <source>∂CE/∂z = (softmax(z) − t)/rows</source>
        <translation>∂CE/∂z = (softmax(z) − t)/行数</translation>
    </message>
    <message>
        <source>∂CE/∂t = −log softmax(z)/rows</source>
        <translation>∂CE/∂t = −log softmax(z)/行数</translation>
    </message>
    <message>
        <source>Marks a returned value: the first Output is the loss, later ones are auxiliary.</source>
        <translation>标记一个返回值：第一个 Output 是损失，其后的是辅助输出。</translation>
    </message>
    <message>
        <source>∂x/∂x = 1: the returned value is x itself</source>
        <translation>∂x/∂x = 1：返回值就是 x 本身</translation>
    </message>
</context>
<context>
    <name>Optimizers</name>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>Momentum ({momentum})</source>
        <translation>Momentum（动量 {momentum}）</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
</context>
<context>
    <name>ParityTab</name>
    <message>
        <source>Compare with PyTorch</source>
        <translation>与 PyTorch 对比</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>they agree</source>
        <translation>两者一致</translation>
    </message>
    <message>
        <source>they DIFFER</source>
        <translation>两者不一致</translation>
    </message>
    <message>
        <source>MindSpore ended by {ms_end} at step {ms_step}, PyTorch by {pt_end} at step {pt_step}. Largest difference {worst:.2g} (each divided by its largest size in the run), tolerance {tolerance:g}: {verdict}.</source>
        <translation>MindSpore 因 {ms_end} 在第 {ms_step} 步结束，PyTorch 因 {pt_end} 在第 {pt_step} 步结束。最大差异 {worst:.2g}（各自除以其在训练中的最大值），容差 {tolerance:g}：{verdict}。</translation>
    </message>
</context>
<context>
    <name>PlotItem</name>
    <message>
        <source>Alpha</source>
        <translation>透明度</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Downsample</source>
        <translation>降采样</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Plot Options</source>
        <translation>绘图选项</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>数据点</translation>
    </message>
    <message>
        <source>Transforms</source>
        <translation>变换</translation>
    </message>
</context>
<context>
    <name>PlotPanel</name>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>dL/dp</source>
        <translation>dL/dp</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练集</translation>
    </message>
    <message>
        <source>test</source>
        <translation>测试集</translation>
    </message>
    <message>
        <source>{name} (summary: min, max, mean, quantiles; {samples} of {size} elements)</source>
        <translation>{name}（摘要：最小值、最大值、平均值、分位数；{size} 个元素中的 {samples} 个）</translation>
    </message>
    <message>
        <source>large tensors: summaries and sampled elements</source>
        <translation>大张量：摘要和抽样的元素</translation>
    </message>
    <message>
        <source>every {n}th step kept (history budget {mb} MB)</source>
        <translation>每 {n} 步保留一步（历史内存上限 {mb} MB）</translation>
    </message>
    <message>
        <source>Heat maps</source>
        <translation>热图</translation>
    </message>
    <message>
        <source>Also: {names} ▾</source>
        <translation>另有：{names} ▾</translation>
    </message>
    <message>
        <source>The row has no room for these plots: choose one to show it instead of another</source>
        <translation>这一行放不下这些图：选一个，用它替换另一个显示</translation>
    </message>
    <message>
        <source>Hover a plot to read values</source>
        <translation>将鼠标悬停在曲线上读取数值</translation>
    </message>
    <message>
        <source>follow the run</source>
        <translation>跟随训练</translation>
    </message>
    <message>
        <source>Keep the whole run in view. Zooming or panning a plot turns this off.</source>
        <translation>始终显示整个训练过程。缩放或平移曲线会关闭此项。</translation>
    </message>
    <message>
        <source>step {value:.0f}</source>
        <translation>第 {value:.0f} 步</translation>
    </message>
    <message>
        <source>not finite</source>
        <translation>非有限值</translation>
    </message>
    <message>
        <source>{name} ({size} elements)</source>
        <translation>{name}（{size} 个元素）</translation>
    </message>
    <message>
        <source>epoch {epoch}: test {test}, train {train}, test loss {loss}</source>
        <translation>第 {epoch} 个 epoch：测试集 {test}，训练集 {train}，测试损失 {loss}</translation>
    </message>
    <message>
        <source>abandoned: not finite</source>
        <translation>已放弃的分支：非有限值</translation>
    </message>
    <message>
        <source>step {step}: loss {loss}</source>
        <translation>第 {step} 步：损失 {loss}</translation>
    </message>
    <message>
        <source>step {step}: </source>
        <translation>第 {step} 步：</translation>
    </message>
</context>
<context>
    <name>PortItem</name>
    <message>
        <source>input &apos;{port}&apos;: drag an output here</source>
        <translation>输入 &apos;{port}&apos;：把输出拖到这里</translation>
    </message>
    <message>
        <source>output: drag to an input port to connect</source>
        <translation>输出：拖到输入端口以连接</translation>
    </message>
</context>
<context>
    <name>ProgramEditor</name>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Read the edited program into the graph and options (Ctrl+Enter)</source>
        <translation>把编辑后的程序读入计算图和选项（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Pause or reset training to apply the program</source>
        <translation>请先暂停或重置训练，再应用程序</translation>
    </message>
    <message>
        <source>Apply the program</source>
        <translation>应用程序</translation>
    </message>
</context>
<context>
    <name>RunState</name>
    <message>
        <source>engine not answering (was training)</source>
        <translation>引擎无响应（之前在训练）</translation>
    </message>
    <message>
        <source>{phase} (training starts when ready)</source>
        <translation>{phase}（就绪后开始训练）</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>starting MindSpore…</source>
        <translation>正在启动 MindSpore…</translation>
    </message>
    <message>
        <source>building…</source>
        <translation>正在构建…</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>compiling…</source>
        <translation>正在编译…</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped: not finite</source>
        <translation>已停止：出现非有限值</translation>
    </message>
    <message>
        <source>saved run</source>
        <translation>已保存的训练</translation>
    </message>
    <message>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>engine not answering</source>
        <translation>引擎无响应</translation>
    </message>
    <message>
        <source>engine stopped</source>
        <translation>引擎已停止</translation>
    </message>
    <message>
        <source>The engine is not answering: Wait for it, or Restart it (the session and history are kept).</source>
        <translation>引擎无响应：请等待，或重启引擎（会话和历史都会保留）。</translation>
    </message>
    <message>
        <source>Pause to change this: it needs a new run.</source>
        <translation>请先暂停再修改：修改后需要重新开始训练。</translation>
    </message>
    <message>
        <source>Fix the graph first: {problem}</source>
        <translation>请先修正计算图：{problem}</translation>
    </message>
    <message>
        <source>Already training.</source>
        <translation>正在训练。</translation>
    </message>
    <message>
        <source>1 step done</source>
        <translation>已完成 1 步</translation>
    </message>
    <message>
        <source>Pause first: Step does exactly one step.</source>
        <translation>请先暂停：“单步”只训练一步。</translation>
    </message>
    <message>
        <source>Not training.</source>
        <translation>未在训练。</translation>
    </message>
    <message>
        <source>MindSpore is starting…</source>
        <translation>MindSpore 正在启动…</translation>
    </message>
    <message>
        <source>The engine is stopped.</source>
        <translation>引擎已停止。</translation>
    </message>
    <message>
        <source>Nothing to cancel.</source>
        <translation>没有可取消的操作。</translation>
    </message>
    <message>
        <source>Nothing to save yet: train at least one step.</source>
        <translation>还没有可保存的内容：请至少训练一步。</translation>
    </message>
    <message>
        <source>Pause first to save the run.</source>
        <translation>请先暂停再保存训练。</translation>
    </message>
    <message>
        <source>The engine is answering.</source>
        <translation>引擎正在响应。</translation>
    </message>
    <message>
        <source>Pause to look back through the run.</source>
        <translation>暂停后才能回看训练过程。</translation>
    </message>
    <message>
        <source>No steps yet: train at least one step.</source>
        <translation>还没有步骤：请至少训练一步。</translation>
    </message>
    <message>
        <source>Showing a saved run: press Reset to train it again.</source>
        <translation>正在显示已保存的训练：按“重置”重新训练。</translation>
    </message>
    <message>
        <source>Start was pressed: training starts when the run is ready.</source>
        <translation>已按下“开始”：就绪后即开始训练。</translation>
    </message>
    <message>
        <source>The loss fell below Stop at loss: lower it or set it to off to train on, or press Reset.</source>
        <translation>损失已低于“损失低于此值时停止”：调低该值或将其关闭即可继续训练，或按“重置”。</translation>
    </message>
    <message>
        <source>The run has finished: press Reset to train again.</source>
        <translation>训练已结束：按“重置”重新训练。</translation>
    </message>
    <message>
        <source>Stopped: the loss or a gradient is not finite. Press Reset to train again, or go back with the coach above the plots.</source>
        <translation>已停止：损失或某个梯度不是有限值。按“重置”重新训练，或用曲线图上方的提示回退。</translation>
    </message>
    <message>
        <source>Reached max steps: raise Max steps to go on, or Reset.</source>
        <translation>已达到最大步数：调高“最大步数”以继续，或重置。</translation>
    </message>
    <message>
        <source>Building the run…</source>
        <translation>正在构建训练…</translation>
    </message>
    <message>
        <source>The engine reported an error: press Reset to recover.</source>
        <translation>引擎报告了错误：按“重置”恢复。</translation>
    </message>
    <message>
        <source>The engine process stopped: press Reset to start a fresh one.</source>
        <translation>引擎进程已停止：按“重置”启动新的引擎。</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <source>learning rate must be a number from {min:g} to 1000, not {value}</source>
        <translation>学习率必须是 {min:g} 到 1000 之间的数，而不是 {value}</translation>
    </message>
    <message>
        <source>seed must be a whole number from 0 to {max}, not {value}</source>
        <translation>随机种子必须是 0 到 {max} 之间的整数，而不是 {value}</translation>
    </message>
    <message>
        <source>steps must be a whole number from 1 to {max}, not {value}</source>
        <translation>步数必须是 1 到 {max} 之间的整数，而不是 {value}</translation>
    </message>
    <message>
        <source>stop-at-loss must be a number from {min:g} to 1000000, not {value}</source>
        <translation>损失阈值必须是 {min:g} 到 1000000 之间的数，而不是 {value}</translation>
    </message>
    <message>
        <source>speed must be 0 (as fast as possible) or {min:g} to {max:g} steps per second, not {value}</source>
        <translation>速度必须是 0（尽可能快）或每秒 {min:g} 到 {max:g} 步，而不是 {value}</translation>
    </message>
    <message>
        <source>{option} must be true or false</source>
        <translation>{option} 必须是 true 或 false</translation>
    </message>
    <message>
        <source>&apos;return auxiliary outputs&apos; is on but the graph has only one Output</source>
        <translation>已开启“返回辅助输出”，但计算图只有一个 Output</translation>
    </message>
    <message>
        <source>&apos;return auxiliary outputs&apos; needs every mini-batch full: the training set&apos;s {n} samples do not divide into batches of {b}</source>
        <translation>“返回辅助输出”要求每个小批量都是满的：训练集的 {n} 个样本不能整除为每批 {b} 个</translation>
    </message>
    <message>
        <source>session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>impossible content ({error})</source>
        <translation>内容无法解析（{error}）</translation>
    </message>
    <message>
        <source>not valid JSON ({error})</source>
        <translation>不是有效的 JSON（{error}）</translation>
    </message>
    <message>
        <source>{where}: {problem}</source>
        <translation>{where}：{problem}</translation>
    </message>
    <message>
        <source>unknown {option} &quot;{value}&quot;; use one of {known}</source>
        <translation>未知的 {option}“{value}”；请使用以下之一：{known}</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>expected a JSON object, found {type}</source>
        <translation>应为 JSON 对象，实际为 {type}</translation>
    </message>
    <message>
        <source>not a GradViz session (missing &quot;format&quot;: &quot;{format}&quot;)</source>
        <translation>不是 GradViz 会话（缺少 &quot;format&quot;: &quot;{format}&quot;）</translation>
    </message>
    <message>
        <source>the version must be a whole number, found {value}</source>
        <translation>版本号必须是整数，实际为 {value}</translation>
    </message>
    <message>
        <source>version {value} is not supported (this GradViz reads versions 1 to {version})</source>
        <translation>不支持版本 {value}（此 GradViz 读取版本 1 到 {version}）</translation>
    </message>
    <message>
        <source>name must be text</source>
        <translation>名称必须是文本</translation>
    </message>
    <message>
        <source>{a}; {b}</source>
        <translation>{a}；{b}</translation>
    </message>
    <message>
        <source>{problems} (and {n} more)</source>
        <translation>{problems}（另有 {n} 个问题）</translation>
    </message>
    <message>
        <source>&quot;graph&quot; must be an object with a list of &quot;nodes&quot;</source>
        <translation>&quot;graph&quot; 必须是包含 &quot;nodes&quot; 列表的对象</translation>
    </message>
    <message>
        <source>node {n}</source>
        <translation>节点 {n}</translation>
    </message>
    <message>
        <source>{where} must be an object</source>
        <translation>{where} 必须是对象</translation>
    </message>
    <message>
        <source>a node needs a name (text)</source>
        <translation>节点需要一个名称（文本）</translation>
    </message>
    <message>
        <source>{where} {name}</source>
        <translation>{where} {name}</translation>
    </message>
    <message>
        <source>unknown kind {kind}; known kinds are {kinds}</source>
        <translation>未知类型 {kind}；已知类型有 {kinds}</translation>
    </message>
    <message>
        <source>pos must be two numbers</source>
        <translation>pos 必须是两个数</translation>
    </message>
    <message>
        <source>requires_grad must be true or false</source>
        <translation>requires_grad 必须是 true 或 false</translation>
    </message>
    <message>
        <source>inputs must map port names to node names</source>
        <translation>inputs 必须把端口名映射到节点名</translation>
    </message>
    <message>
        <source>unknown input port(s) {ports} for {kind}</source>
        <translation>{kind} 没有输入端口 {ports}</translation>
    </message>
    <message>
        <source>value {path} is {value}; values must be finite numbers</source>
        <translation>值 {path} 是 {value}；值必须是有限数</translation>
    </message>
    <message>
        <source>a list of {n}</source>
        <translation>含 {n} 项的列表</translation>
    </message>
    <message>
        <source>values do not match shape {shape} (found {found} at {path})</source>
        <translation>值与形状 {shape} 不符（在 {path} 处为 {found}）</translation>
    </message>
    <message>
        <source>top level</source>
        <translation>顶层</translation>
    </message>
    <message>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>&quot;options&quot; must be an object</source>
        <translation>&quot;options&quot; 必须是对象</translation>
    </message>
    <message>
        <source>unknown option(s) {options}</source>
        <translation>未知选项 {options}</translation>
    </message>
</context>
<context>
    <name>SessionDocument</name>
    <message>
        <source>Add {kind} {name}</source>
        <translation>添加 {kind} {name}</translation>
    </message>
    <message>
        <source>Delete {names}</source>
        <translation>删除 {names}</translation>
    </message>
    <message>
        <source>Connect {source} -&gt; {target}</source>
        <translation>连接 {source} -&gt; {target}</translation>
    </message>
    <message>
        <source>Disconnect {target}</source>
        <translation>断开 {target}</translation>
    </message>
    <message>
        <source>Rename {old} to {new}</source>
        <translation>将 {old} 重命名为 {new}</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>the autosave {name}</source>
        <translation>自动保存文件 {name}</translation>
    </message>
    <message>
        <source>{problem} It was kept as {kept}.</source>
        <translation>{problem} 该文件已保留为 {kept}。</translation>
    </message>
    <message>
        <source>{problem} It could not be moved aside ({error}).</source>
        <translation>{problem} 该文件无法移到一旁（{error}）。</translation>
    </message>
    <message>
        <source>Restore session?</source>
        <translation>恢复会话？</translation>
    </message>
    <message>
        <source>GradViz did not close cleanly last time. Restore the session you were editing?</source>
        <translation>GradViz 上次没有正常关闭。要恢复当时正在编辑的会话吗？</translation>
    </message>
    <message>
        <source>the last session</source>
        <translation>上一次的会话</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <source>The current session has unsaved changes. Save them first?</source>
        <translation>当前会话有未保存的修改。要先保存吗？</translation>
    </message>
    <message>
        <source>Could not open the session. {problem}</source>
        <translation>无法打开会话。{problem}</translation>
    </message>
    <message>
        <source>Could not open the session {path}: not enough memory</source>
        <translation>无法打开会话 {path}：内存不足</translation>
    </message>
    <message>
        <source>Could not open the session {path}: {error}</source>
        <translation>无法打开会话 {path}：{error}</translation>
    </message>
    <message>
        <source>Opening the session {path}…</source>
        <translation>正在打开会话 {path}…</translation>
    </message>
    <message>
        <source>Could not save the session. {problem}</source>
        <translation>无法保存会话。{problem}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <source>Autosave failed: {problem}</source>
        <translation>自动保存失败：{problem}</translation>
    </message>
    <message>
        <source>There is no history to export yet: train a few steps first.</source>
        <translation>还没有可导出的历史：请先训练几步。</translation>
    </message>
    <message>
        <source>Saving cancelled: nothing was written</source>
        <translation>已取消保存：没有写入任何内容</translation>
    </message>
    <message>
        <source>Could not save the run. {problem}</source>
        <translation>无法保存训练。{problem}</translation>
    </message>
    <message>
        <source>Could not save the run: {error}</source>
        <translation>无法保存训练：{error}</translation>
    </message>
    <message>
        <source>Saved {n} steps to {path}</source>
        <translation>已将 {n} 步保存到 {path}</translation>
    </message>
    <message>
        <source>Saving the run to {path}…</source>
        <translation>正在将训练保存到 {path}…</translation>
    </message>
    <message>
        <source>Opening cancelled: nothing was changed</source>
        <translation>已取消打开：没有任何改变</translation>
    </message>
    <message>
        <source>Could not open the run. {problem}</source>
        <translation>无法打开训练。{problem}</translation>
    </message>
    <message>
        <source>Could not open the run {path}: not enough memory</source>
        <translation>无法打开训练 {path}：内存不足</translation>
    </message>
    <message>
        <source>Could not open the run {path}: {error}</source>
        <translation>无法打开训练 {path}：{error}</translation>
    </message>
    <message>
        <source>Opening the run {path}…</source>
        <translation>正在打开训练 {path}…</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>GradViz sessions (*.json);;All files (*)</source>
        <translation>GradViz 会话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>GradViz sessions (*.json)</source>
        <translation>GradViz 会话 (*.json)</translation>
    </message>
    <message>
        <source>Save run with history</source>
        <translation>保存训练及历史</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Could not export yet: wait until the engine has built this session, then try again.</source>
        <translation>暂时无法导出：请等待引擎构建完此会话后再试。</translation>
    </message>
    <message>
        <source>Could not export the script. {problem}</source>
        <translation>无法导出脚本。{problem}</translation>
    </message>
    <message>
        <source>Wrote {path}: run it with python {path}</source>
        <translation>已写入 {path}：用 python {path} 运行它</translation>
    </message>
    <message>
        <source> (PyTorch is not installed here: pip install -e &apos;.[torch]&apos;)</source>
        <translation>（此处未安装 PyTorch：pip install -e &apos;.[torch]&apos;）</translation>
    </message>
    <message>
        <source>Export as {framework} script</source>
        <translation>导出为 {framework} 脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
    <message>
        <source>Open run with history</source>
        <translation>打开训练及历史</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl);;All files (*)</source>
        <translation>JSON Lines (*.jsonl);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source>Start / Pause</source>
        <translation>开始 / 暂停</translation>
    </message>
    <message>
        <source>Step (one training step)</source>
        <translation>单步（训练一步）</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Larger text, thicker curves, more contrast; hides the editing docks. F5 again to leave.</source>
        <translation>更大的文字、更粗的曲线、更高的对比度；隐藏编辑面板。再按 F5 退出。</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation>键盘快捷键(&amp;K)…</translation>
    </message>
    <message>
        <source>{button} is not available now</source>
        <translation>“{button}”现在不可用</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Space, S and F work wherever the focus is, except in a text field, where they type; Enter or Escape there hands them back.</source>
        <translation>无论焦点在哪里，空格、S 和 F 键都有效；在文本框中则输入文字，按 Enter 或 Esc 键即可恢复。</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>StartScreen</name>
    <message>
        <source>Building the window…</source>
        <translation>正在构建窗口…</translation>
    </message>
    <message>
        <source>Starting MindSpore in the engine process…</source>
        <translation>正在引擎进程中启动 MindSpore…</translation>
    </message>
</context>
<context>
    <name>Steps</name>
    <message>
        <source>{n:,} update</source>
        <translation>{n:,} 次更新</translation>
    </message>
    <message>
        <source>{n:,} updates</source>
        <translation>{n:,} 次更新</translation>
    </message>
    <message>
        <source>{n:,} step</source>
        <translation>{n:,} 步</translation>
    </message>
    <message>
        <source>{n:,} steps</source>
        <translation>{n:,} 步</translation>
    </message>
    <message>
        <source>step {step:,} (parameters after {updates})</source>
        <translation>第 {step:,} 步（参数经过 {updates}）</translation>
    </message>
    <message>
        <source>no steps yet</source>
        <translation>还没有步骤</translation>
    </message>
    <message>
        <source>{updates} kept</source>
        <translation>已保留 {updates}</translation>
    </message>
    <message>
        <source>loss at step {step:,}: {loss}</source>
        <translation>第 {step:,} 步的损失：{loss}</translation>
    </message>
    <message>
        <source>Nodes: {state}, live</source>
        <translation>节点：{state}，实时</translation>
    </message>
    <message>
        <source>Nodes: {state}, the plots&apos; last step</source>
        <translation>节点：{state}，即曲线的最后一步</translation>
    </message>
    <message>
        <source>Nodes: {state}, what the first step computes</source>
        <translation>节点：{state}，即第一步计算的内容</translation>
    </message>
    <message>
        <source>Nodes: live, after step {last:,}&apos;s update (the plots&apos; last step)</source>
        <translation>节点：实时，第 {last:,} 步更新之后（即曲线的最后一步）</translation>
    </message>
    <message>
        <source>Nodes: {state}, what the next step computes (the plots end at step {last:,})</source>
        <translation>节点：{state}，即下一步计算的内容（曲线止于第 {last:,} 步）</translation>
    </message>
    <message>
        <source>{tensor}
{state}</source>
        <translation>{tensor}
{state}</translation>
    </message>
    <message>
        <source>at the initial parameters</source>
        <translation>在初始参数处</translation>
    </message>
    <message>
        <source>at the parameters after {updates}</source>
        <translation>在 {updates}后的参数处</translation>
    </message>
    <message>
        <source>Finished at step {step}: Max steps was set to {max}, below the steps already done ({kept} kept).</source>
        <translation>在第 {step} 步结束：最大步数被设为 {max}，少于已完成的步数（保留了 {kept}）。</translation>
    </message>
    <message>
        <source>Finished at step {step:,}: reached the maximum of {steps} ({kept} kept).</source>
        <translation>在第 {step:,} 步完成：已达到最大步数 {steps}（保留 {kept}）。</translation>
    </message>
    <message>
        <source>Finished at step {step:,}: the loss fell below the target, so that step&apos;s update was not kept ({kept} kept).</source>
        <translation>在第 {step:,} 步完成：损失已低于目标值，因此该步的更新未保留（保留 {kept}）。</translation>
    </message>
    <message>
        <source>Stopped at step {step:,}: the loss or a gradient is not finite, so that step&apos;s update was not kept ({kept} kept). The learning rate is probably too large: lower it and press Reset.</source>
        <translation>在第 {step:,} 步停止：损失或某个梯度不是有限值，因此该步的更新未保留（保留 {kept}）。学习率可能过大：请调低学习率并按“重置”。</translation>
    </message>
    <message>
        <source>Ended at step {step:,} ({reason}; {kept} kept).</source>
        <translation>在第 {step:,} 步结束（{reason}；保留 {kept}）。</translation>
    </message>
</context>
<context>
    <name>TimeTravel</name>
    <message>
        <source>Drag back through the run: the plots, the nodes and the inspector show that step</source>
        <translation>向回拖动以回看训练：曲线、节点和检查器都会显示那一步</translation>
    </message>
    <message>
        <source>Go back to the state before the step shown and train on from there with the options now set (change the learning rate first to try another)</source>
        <translation>回到所显示步骤之前的状态，并以当前选项从那里继续训练（可先修改学习率再试）</translation>
    </message>
    <message>
        <source>Nodes: {state}, from the history slider (computing…)</source>
        <translation>节点：{state}，来自历史滑块（计算中…）</translation>
    </message>
    <message>
        <source>Nodes: {state}, from the history slider</source>
        <translation>节点：{state}，来自历史滑块</translation>
    </message>
    <message>
        <source>no steps yet</source>
        <translation>还没有步骤</translation>
    </message>
    <message>
        <source>step {step:,} of {last:,}</source>
        <translation>第 {step:,} 步 / 共 {last:,} 步</translation>
    </message>
    <message>
        <source>Went back to {state} with learning rate {lr}; the abandoned future is the faint curve on the loss plot</source>
        <translation>已回到{state}，学习率为 {lr}；被放弃的后续训练显示为损失曲线上的浅色虚线</translation>
    </message>
    <message>
        <source>Rewind {steps} steps and lower the learning rate ×{factor:g}</source>
        <translation>回退 {steps} 步并将学习率乘以 {factor:g}</translation>
    </message>
    <message>
        <source>{name}: whole tensor (norms)</source>
        <translation>{name}：整个张量（范数）</translation>
    </message>
    <message>
        <source>{name} at {state}</source>
        <translation>{name}，{state}</translation>
    </message>
    <message>
        <source>value {value}</source>
        <translation>值 {value}</translation>
    </message>
    <message>
        <source>value: not computed yet</source>
        <translation>值：尚未计算</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>TimeTravelBar</name>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Continue from here</source>
        <translation>从这里继续</translation>
    </message>
    <message>
        <source>How many steps before the first non-finite one to go back</source>
        <translation>回退到第一个非有限值之前多少步</translation>
    </message>
    <message>
        <source>The learning rate is multiplied by this</source>
        <translation>学习率乘以此值</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>回退</translation>
    </message>
    <message>
        <source>steps, learning rate</source>
        <translation>步，学习率</translation>
    </message>
</context>
<context>
    <name>TrainingController</name>
    <message>
        <source>Restarting the engine; the session and the history are kept</source>
        <translation>正在重启引擎；会话和历史都会保留</translation>
    </message>
    <message>
        <source>Waiting for the engine to answer…</source>
        <translation>正在等待引擎响应…</translation>
    </message>
    <message>
        <source>Graph mode</source>
        <translation>静态图模式</translation>
    </message>
    <message>
        <source>PyNative mode</source>
        <translation>动态图模式</translation>
    </message>
    <message>
        <source>Starting a new engine process for {what}...</source>
        <translation>正在为 {what} 启动新的引擎进程…</translation>
    </message>
    <message>
        <source>Cancelled: restarting the engine</source>
        <translation>已取消：正在重启引擎</translation>
    </message>
    <message>
        <source>The engine is not reading its commands</source>
        <translation>引擎没有读取命令</translation>
    </message>
    <message>
        <source>The engine answers again</source>
        <translation>引擎恢复响应</translation>
    </message>
    <message>
        <source>The engine process stopped unexpectedly (exit code {code}). Your session is kept: press Reset to start a fresh engine.</source>
        <translation>引擎进程意外停止（退出码 {code}）。会话已保留：按“重置”启动新的引擎。</translation>
    </message>
</context>
<context>
    <name>Transforms</name>
    <message>
        <source>MindSpore could not differentiate twice: {error}</source>
        <translation>MindSpore 无法求二阶导数：{error}</translation>
    </message>
    <message>
        <source>MindSpore returned 0 where finite differences do not: an op of this graph has no second derivative in this MindSpore (the tutorial&apos;s binary_cross_entropy_with_logits has none), and grad of grad treats it as a constant</source>
        <translation>MindSpore 返回 0，而有限差分不是 0：此图中有一个算子在当前 MindSpore 中没有二阶导数（教程中的 binary_cross_entropy_with_logits 就没有），grad 的 grad 把它当作常数</translation>
    </message>
    <message>
        <source>jacrev builds the Jacobian a row at a time, one backward pass (a VJP) for each of the {m} elements of {node}; jacfwd a column at a time, one forward-mode pass (a JVP) for each of the {n} elements of {param}.</source>
        <translation>jacrev 一次构造雅可比矩阵的一行，{node} 的 {m} 个元素各需一次反向传播（一次 VJP）；jacfwd 一次构造一列，{param} 的 {n} 个元素各需一次前向模式传播（一次 JVP）。</translation>
    </message>
    <message>
        <source>Here {which} is cheaper: {few} passes instead of {many}.</source>
        <translation>这里 {which} 更省：{few} 次传播而不是 {many} 次。</translation>
    </message>
    <message>
        <source>Here both need {m} passes.</source>
        <translation>这里两者都需要 {m} 次传播。</translation>
    </message>
    <message>
        <source>{text} {more}</source>
        <translation>{text} {more}</translation>
    </message>
    <message>
        <source>{name} is not a Parameter of the graph; the Parameters are {names}</source>
        <translation>{name} 不是图中的 Parameter；Parameter 有 {names}</translation>
    </message>
    <message>
        <source>there is no node {name} in the graph</source>
        <translation>图中没有节点 {name}</translation>
    </message>
    <message>
        <source>element {i} is outside {node}&apos;s shape {shape} ({n} elements: 0 to {last})</source>
        <translation>元素 {i} 超出 {node} 的形状 {shape}（{n} 个元素：0 到 {last}）</translation>
    </message>
    <message>
        <source>the sample is 1 to {most} elements, not {k}</source>
        <translation>抽样应为 1 到 {most} 个元素，而不是 {k}</translation>
    </message>
    <message>
        <source>{what} must have {node}&apos;s {n} elements (shape {shape}) or be one number, not {k}</source>
        <translation>{what} 必须有 {node} 的 {n} 个元素（形状 {shape}）或是一个数，而不是 {k} 个</translation>
    </message>
    <message>
        <source>{node}: {count} elements of its input are exactly {at}, where {kind} has no derivative; MindSpore takes the slope of one side there and finite differences straddle the kink, so they may disagree at those elements</source>
        <translation>{node}：其输入有 {count} 个元素恰好等于 {at}，{kind} 在此处不可导；MindSpore 取一侧的斜率，而有限差分跨过折点，因此这些元素上两者可能不一致</translation>
    </message>
    <message>
        <source>{param} has {n} elements: its Hessian would be {n} x {n} = {entries} numbers (up to {most} elements here); ask for a sample of its elements instead</source>
        <translation>{param} 有 {n} 个元素：其黑塞矩阵将有 {n} x {n} = {entries} 个数（这里最多 {most} 个元素）；请改为抽样其元素</translation>
    </message>
    <message>
        <source>the Jacobian of {node} ({m} elements) with respect to {param} ({n} elements) has {entries} numbers (up to {most} here); ask for a sample of its rows and columns instead</source>
        <translation>{node}（{m} 个元素）对 {param}（{n} 个元素）的雅可比矩阵有 {entries} 个数（这里最多 {most} 个）；请改为抽样其行与列</translation>
    </message>
</context>
<context>
    <name>UnitMapsItem</name>
    <message>
        <source>each unit over the input plane, ±{s:g}</source>
        <translation>每个单元在输入平面上，±{s:g}</translation>
    </message>
    <message>
        <source>{node} unit {u}: {lo:.2f} to {hi:.2f}</source>
        <translation>{node} 单元 {u}：{lo:.2f} 到 {hi:.2f}</translation>
    </message>
</context>
<context>
    <name>UpdateView</name>
    <message>
        <source>One element (signed values), or the whole tensor (norms)</source>
        <translation>单个元素（带符号的值），或整个张量（范数）</translation>
    </message>
    <message>
        <source>g = ∂L/∂p at that step; ratio = |lr·g| / |p| (norms for the whole tensor)</source>
        <translation>g = 该步的 ∂L/∂p；比值 = |lr·g| / |p|（整个张量时取范数）</translation>
    </message>
</context>
<context>
    <name>Variants</name>
    <message>
        <source>the variants compare returning a second output (the tutorial&apos;s z) with the loss: the graph has only one Output; add one</source>
        <translation>四种写法比较的是在损失之外再返回第二个输出（教程中的 z）：计算图只有一个 Output，请再添加一个</translation>
    </message>
    <message>
        <source>Returning {z} as well makes MindSpore differentiate loss + {sums}, so every gradient gains the gradient of {sums}; ops.stop_gradient({first}) or has_aux=True leave only the loss&apos;s.</source>
        <translation>同时返回 {z} 会让 MindSpore 对 loss + {sums} 求导，因此每个梯度都多出 {sums} 的梯度；ops.stop_gradient({first}) 或 has_aux=True 只保留 loss 的梯度。</translation>
    </message>
</context>
<context>
    <name>VariantsTab</name>
    <message>
        <source>loss only</source>
        <translation>只返回 loss</translation>
    </message>
    <message>
        <source>{z} returned too</source>
        <translation>同时返回 {z}</translation>
    </message>
    <message>
        <source>{z} behind stop_gradient</source>
        <translation>{z} 经 stop_gradient</translation>
    </message>
    <message>
        <source>{z} as has_aux</source>
        <translation>{z} 作为 has_aux</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>∂L/∂ parameter</source>
        <translation>∂L/∂ 参数</translation>
    </message>
    <message>
        <source>differs from the loss-only column</source>
        <translation>与“只返回 loss”一列不同</translation>
    </message>
    <message>
        <source>same as the loss-only column</source>
        <translation>与“只返回 loss”一列相同</translation>
    </message>
</context>
<context>
    <name>ViewBox</name>
    <message>
        <source>1 button</source>
        <translation>单键</translation>
    </message>
    <message>
        <source>3 button</source>
        <translation>三键</translation>
    </message>
    <message>
        <source>Mouse Mode</source>
        <translation>鼠标模式</translation>
    </message>
    <message>
        <source>View All</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>ViewBox options</source>
        <translation>视图选项</translation>
    </message>
    <message>
        <source>axis</source>
        <translation>轴</translation>
    </message>
</context>
<context>
    <name>WindowExports</name>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Loss plot</source>
        <translation>损失曲线图</translation>
    </message>
    <message>
        <source>Parameters plot</source>
        <translation>参数曲线图</translation>
    </message>
    <message>
        <source>Gradients plot</source>
        <translation>梯度曲线图</translation>
    </message>
    <message>
        <source>Test images</source>
        <translation>测试图像</translation>
    </message>
    <message>
        <source>Data view</source>
        <translation>数据视图</translation>
    </message>
    <message>
        <source>E&amp;xport</source>
        <translation>导出(&amp;X)</translation>
    </message>
    <message>
        <source>Pictures, the history and an animated GIF, for slides</source>
        <translation>图片、训练历史和 GIF 动画，用于幻灯片</translation>
    </message>
    <message>
        <source>Window as PNG…</source>
        <translation>窗口导出为 PNG…</translation>
    </message>
    <message>
        <source>Window as SVG…</source>
        <translation>窗口导出为 SVG…</translation>
    </message>
    <message>
        <source>Graph as PNG…</source>
        <translation>计算图导出为 PNG…</translation>
    </message>
    <message>
        <source>Graph as SVG…</source>
        <translation>计算图导出为 SVG…</translation>
    </message>
    <message>
        <source>Loss plot as PNG…</source>
        <translation>损失曲线图导出为 PNG…</translation>
    </message>
    <message>
        <source>Loss plot as SVG…</source>
        <translation>损失曲线图导出为 SVG…</translation>
    </message>
    <message>
        <source>Parameters plot as PNG…</source>
        <translation>参数曲线图导出为 PNG…</translation>
    </message>
    <message>
        <source>Parameters plot as SVG…</source>
        <translation>参数曲线图导出为 SVG…</translation>
    </message>
    <message>
        <source>Gradients plot as PNG…</source>
        <translation>梯度曲线图导出为 PNG…</translation>
    </message>
    <message>
        <source>Gradients plot as SVG…</source>
        <translation>梯度曲线图导出为 SVG…</translation>
    </message>
    <message>
        <source>Test images as PNG…</source>
        <translation>测试图像导出为 PNG…</translation>
    </message>
    <message>
        <source>Test images as SVG…</source>
        <translation>测试图像导出为 SVG…</translation>
    </message>
    <message>
        <source>Data view as PNG…</source>
        <translation>数据视图导出为 PNG…</translation>
    </message>
    <message>
        <source>Data view as SVG…</source>
        <translation>数据视图导出为 SVG…</translation>
    </message>
    <message>
        <source>History as CSV (one column per element)…</source>
        <translation>训练历史导出为 CSV（每个元素一列）…</translation>
    </message>
    <message>
        <source>History as JSON Lines (as gradviz run writes)…</source>
        <translation>训练历史导出为 JSON Lines（与 gradviz run 的输出相同）…</translation>
    </message>
    <message>
        <source>Animated GIF of the run…</source>
        <translation>训练过程的 GIF 动画…</translation>
    </message>
    <message>
        <source>Export this plot as PNG…</source>
        <translation>将此图导出为 PNG…</translation>
    </message>
    <message>
        <source>Export this plot as SVG…</source>
        <translation>将此图导出为 SVG…</translation>
    </message>
    <message>
        <source>Export the history as CSV…</source>
        <translation>将训练历史导出为 CSV…</translation>
    </message>
    <message>
        <source>Only for a run over a data set of images (digits)</source>
        <translation>仅用于在图像数据集（digits）上的训练</translation>
    </message>
    <message>
        <source>Only for a run over a 2-D data set (moons)</source>
        <translation>仅用于在二维数据集（moons）上的训练</translation>
    </message>
    <message>
        <source>Every step, one column per element, for a spreadsheet</source>
        <translation>每一步一行、每个元素一列，可用电子表格打开</translation>
    </message>
    <message>
        <source>Every step, in the format of gradviz run</source>
        <translation>每一步，格式与 gradviz run 相同</translation>
    </message>
    <message>
        <source>The graph and the plots at steps across the run</source>
        <translation>训练过程中各个步骤的计算图和曲线图</translation>
    </message>
    <message>
        <source>Wrote {what} to {path}</source>
        <translation>已将{what}写入 {path}</translation>
    </message>
    <message>
        <source>Could not export {what}. {problem}</source>
        <translation>无法导出{what}。{problem}</translation>
    </message>
    <message>
        <source>{path}: a picture is written as .png or .svg</source>
        <translation>{path}：图片只能保存为 .png 或 .svg</translation>
    </message>
    <message>
        <source>{what} ({w}x{h})</source>
        <translation>{what}（{w}x{h}）</translation>
    </message>
    <message>
        <source>PNG picture (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>the history as CSV</source>
        <translation>CSV 格式的训练历史</translation>
    </message>
    <message>
        <source>There is no history yet: train a few steps first.</source>
        <translation>还没有训练历史：请先训练几步。</translation>
    </message>
    <message>
        <source>Export cancelled: nothing was written</source>
        <translation>已取消导出：未写入任何文件</translation>
    </message>
    <message>
        <source>{n} steps as CSV</source>
        <translation>CSV 格式的 {n} 步</translation>
    </message>
    <message>
        <source>Writing the history to {path}…</source>
        <translation>正在将训练历史写入 {path}…</translation>
    </message>
    <message>
        <source>Export the history as CSV</source>
        <translation>将训练历史导出为 CSV</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>the animated GIF</source>
        <translation>GIF 动画</translation>
    </message>
    <message>
        <source>A GIF is being recorded already.</source>
        <translation>已有一个 GIF 正在录制。</translation>
    </message>
    <message>
        <source>{path}: an animated GIF is written as .gif</source>
        <translation>{path}：GIF 动画只能保存为 .gif</translation>
    </message>
    <message>
        <source>an animated GIF of {n} frames ({w}x{h})</source>
        <translation>{n} 帧的 GIF 动画（{w}x{h}）</translation>
    </message>
    <message>
        <source>Writing the GIF to {path}…</source>
        <translation>正在将 GIF 写入 {path}…</translation>
    </message>
    <message>
        <source>Export an animated GIF of the run</source>
        <translation>导出训练过程的 GIF 动画</translation>
    </message>
    <message>
        <source>GIF animation (*.gif)</source>
        <translation>GIF 动画 (*.gif)</translation>
    </message>
</context>
<context>
    <name>_TransformTab</name>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>element</source>
        <translation>元素</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source> random elements</source>
        <translation> 个随机元素</translation>
    </message>
    <message>
        <source>Where the transform is too large: this many elements at random</source>
        <translation>变换太大时：随机选取这么多个元素</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>抽样</translation>
    </message>
    <message>
        <source>ones (or numbers separated by commas)</source>
        <translation>全为 1（或用逗号分隔的数）</translation>
    </message>
    <message>
        <source>v (node-shaped)</source>
        <translation>v（与节点同形）</translation>
    </message>
    <message>
        <source>u (Parameter-shaped)</source>
        <translation>u（与 Parameter 同形）</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>The run was rebuilt: compute again</source>
        <translation>训练已重建：请重新计算</translation>
    </message>
    <message>
        <source>{name}: give numbers separated by commas</source>
        <translation>{name}：请输入用逗号分隔的数</translation>
    </message>
    <message>
        <source>MindSpore agrees with float64 finite differences ({where})</source>
        <translation>MindSpore 与 float64 有限差分一致（{where}）</translation>
    </message>
    <message>
        <source>MindSpore DISAGREES with float64 finite differences ({where})</source>
        <translation>MindSpore 与 float64 有限差分不一致（{where}）</translation>
    </message>
    <message>
        <source>MindSpore could not compute it: {error}</source>
        <translation>MindSpore 无法计算：{error}</translation>
    </message>
</context>
</TS>
