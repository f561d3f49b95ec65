<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Lesson</name>
    <message>
        <source>The tutorial&apos;s code</source>
        <translation>教程中的代码</translation>
    </message>
    <message>
        <source>The function and its loss</source>
        <translation>函数与 loss 值</translation>
    </message>
    <message>
        <source>The graph is the tutorial&apos;s function: z = matmul(x, w) + b, and binary_cross_entropy_with_logits(z, y) gives the loss. x is the input (five ones), y the correct value (three zeros), and w and b, drawn with np.random.randn, are the parameters to optimise.</source>
        <translation>图中就是教程的计算函数：z = matmul(x, w) + b，再由 binary_cross_entropy_with_logits(z, y) 求得 loss。x 为输入（5 个 1），y 为正确值（3 个 0），w 和 b 由 np.random.randn 随机生成，是我们需要优化的参数。</translation>
    </message>
    <message>
        <source>Look at the loss node: loss = {loss}, the number print(loss) shows. Hover a node to see every value.</source>
        <translation>请看 loss 节点：loss = {loss}，即 print(loss) 打印的值。鼠标悬停在节点上可查看全部数值。</translation>
    </message>
    <message>
        <source>grad with grad_position=(2, 3)</source>
        <translation>grad 与 grad_position=(2, 3)</translation>
    </message>
    <message>
        <source>mindspore.grad(function, (2, 3)) is a function transformation: it returns a new function that computes the derivatives of the loss with respect to the inputs at positions 2 and 3 of function(x, y, w, b), that is w and b.</source>
        <translation>mindspore.grad(function, (2, 3)) 是一种函数变换：输入为函数，输出也为函数。得到的微分函数求 loss 对 function(x, y, w, b) 中位置 2 和 3 的入参（即 w 和 b）的导数。</translation>
    </message>
    <message>
        <source>The orange numbers are these gradients. On the b node, ∂loss/∂b = {db}; each row of ∂loss/∂w is the same, because x is all ones. The call above the graph is the call GradViz runs.</source>
        <translation>橙色数字就是这些梯度。b 节点上 ∂loss/∂b = {db}；因为 x 全为 1，∂loss/∂w 的每一行都与它相同。计算图上方显示的正是 GradViz 实际执行的调用。</translation>
    </message>
    <message>
        <source>Returning z: why the gradients change</source>
        <translation>同时返回 z：梯度为什么变了</translation>
    </message>
    <message>
        <source>function_with_logits returns loss, z. When a function has several outputs, grad differentiates all of them, as if their sum: L = loss + sum(z).</source>
        <translation>function_with_logits 返回 loss, z。当函数输出多项时，微分函数会求所有输出项对参数的导数，相当于对它们的和求导：L = loss + sum(z)。</translation>
    </message>
    <message>
        <source>So on the b node ∂L/∂b = {db}: {db_loss} from the loss plus {db_z} from z, because ∂sum(z)/∂b = 1. The gradient of w grows by x = 1 in every element too. The Four variants tab shows the four ways of returning z side by side.</source>
        <translation>所以 b 节点上 ∂L/∂b = {db}：其中 {db_loss} 来自 loss，{db_z} 来自 z，因为 ∂sum(z)/∂b = 1。w 的梯度的每个元素也都增加了 x = 1。“四种写法”标签页把返回 z 的四种方式并排列出。</translation>
    </message>
    <message>
        <source>Stop Gradient: ops.stop_gradient</source>
        <translation>Stop Gradient：用 ops.stop_gradient 截断梯度</translation>
    </message>
    <message>
        <source>function_stop_gradient returns loss, ops.stop_gradient(z): z is still returned, but the gradient is cut there, so only the loss is differentiated.</source>
        <translation>function_stop_gradient 返回 loss, ops.stop_gradient(z)：z 仍然返回，但梯度在此处截断，因此仍只求参数对 loss 的导数。</translation>
    </message>
    <message>
        <source>∂L/∂b = {db} is back to the value of step 2, the gradient of the loss alone, and the z output node says it returns ops.stop_gradient(z).</source>
        <translation>∂L/∂b = {db}，又回到第 2 步的值，即只对 loss 求导的梯度；z 的输出节点显示它返回 ops.stop_gradient(z)。</translation>
    </message>
    <message>
        <source>Auxiliary data: has_aux=True</source>
        <translation>Auxiliary data（辅助数据）：has_aux=True</translation>
    </message>
    <message>
        <source>Auxiliary data are the outputs after the first. With has_aux=True grad differentiates the first output only and returns the others as they are: the stop_gradient of step 4, done for you.</source>
        <translation>辅助数据是函数除第一个输出项外的其他输出。设置 has_aux=True 时，grad 只对第一个输出求导，其他输出原样返回：自动实现了第 4 步手动添加 stop_gradient 的功能。</translation>
    </message>
    <message>
        <source>The call above the graph says what grad_fn now returns: the gradients and (z,). ∂L/∂b = {db} as in step 2, and z = {z} is returned with it.</source>
        <translation>计算图上方的调用说明了 grad_fn 现在返回什么：梯度和 (z,)。∂L/∂b = {db}，与第 2 步相同；z = {z} 也一同返回。</translation>
    </message>
    <message>
        <source>nn.Cell and value_and_grad(..., weights=...)</source>
        <translation>nn.Cell 与 value_and_grad(..., weights=...)</translation>
    </message>
    <message>
        <source>The same model as an nn.Cell: w and b are the network&apos;s attributes, not inputs of the function, so grad_position is None and weights=...trainable_params() says what to differentiate.</source>
        <translation>用 nn.Cell 构造同样的神经网络：w 和 b 是网络的内部属性，而不是函数的入参，因此 grad_position 配置为 None，并用 weights=...trainable_params() 指定对哪些参数求导。</translation>
    </message>
    <message>
        <source>value_and_grad returns the loss, {loss}, together with the gradients: ∂loss/∂b = {db}, the same as with function in step 2. GradViz&apos;s Network calls the tutorial&apos;s function, loss included; the tutorial&apos;s forward_fn applies nn.BCEWithLogitsLoss to z instead, with the same result.</source>
        <translation>value_and_grad 同时返回 loss（{loss}）和梯度：∂loss/∂b = {db}，与第 2 步用 function 求得的梯度一致。GradViz 的 Network 直接调用教程的 function（含 loss）；教程的 forward_fn 则对 z 使用 nn.BCEWithLogitsLoss，结果相同。</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>The exported MindSpore program (File &gt; Export), from the optimizer on</source>
        <translation>导出的 MindSpore 程序（文件 &gt; 导出），从优化器开始</translation>
    </message>
    <message>
        <source>Training repeats one step: compute the loss and the gradients, then optimizer(grads) moves every parameter against its gradient (SGD, learning rate {lr}).</source>
        <translation>训练就是重复同一步：正向计算 loss，反向传播求梯度，再由 optimizer(grads) 沿梯度的反方向更新每个参数（SGD，学习率 {lr}）。</translation>
    </message>
    <message>
        <source>Step 1 had loss {first_loss}; step {last_step} has loss {last_loss}. Pause, then drag the History slider above the plots to see the graph at any earlier step.</source>
        <translation>第 1 步的 loss 为 {first_loss}；第 {last_step} 步的 loss 为 {last_loss}。暂停后拖动曲线图上方的“历史”滑块，即可查看之前任意一步的计算图。</translation>
    </message>
    <message>
        <source>Press Start (or Step) and watch the loss plot fall.</source>
        <translation>点击“开始”（或“单步”），观察 loss 曲线下降。</translation>
    </message>
    <message>
        <source>This loss cannot blow up: its gradients stay small, so even learning rate 100 only drives it towards 0. To watch a run diverge, go to the next step (the linreg_seed preset) and set the learning rate to 0.5.</source>
        <translation>这个损失不会爆炸：它的梯度始终很小，即使学习率为 100 也只会把它推向 0。要观察训练发散，请转到下一步（linreg_seed 预设），并把学习率设为 0.5。</translation>
    </message>
    <message>
        <source>The same training in PyTorch</source>
        <translation>用 PyTorch 做同样的训练</translation>
    </message>
    <message>
        <source>PyTorch, from the comparison (prints and comments left out)</source>
        <translation>PyTorch，摘自对照示例（略去打印和注释）</translation>
    </message>
    <message>
        <source>MindSpore, from the comparison (prints and comments left out)</source>
        <translation>MindSpore，摘自对照示例（略去打印和注释）</translation>
    </message>
    <message>
        <source>The comparison, a MindSpore tech blog, trains weight·x + bias with nn.MSELoss and SGD (learning rate {lr}) in both frameworks: PyTorch&apos;s loss.backward() and optimizer.step() are value_and_grad and optimizer(grads) in MindSpore.</source>
        <translation>对照示例（一篇 MindSpore 技术博客）在两个框架中用 nn.MSELoss 和 SGD（学习率 {lr}）训练 weight·x + bias：PyTorch 的 loss.backward() 和 optimizer.step()，在 MindSpore 中就是 value_and_grad 和 optimizer(grads)。</translation>
    </message>
    <message>
        <source>GradViz starts from the comparison&apos;s MindSpore values, and its step k is the comparison&apos;s loop:k-1: step 1 has loss {first_loss}; step {last_step} (loop:{last_loop}) has loss {last_loss}.</source>
        <translation>GradViz 从对照示例中 MindSpore 的初始值出发，它的第 k 步就是示例中的 loop:k-1：第 1 步的 loss 为 {first_loss}；第 {last_step} 步（loop:{last_loop}）的 loss 为 {last_loss}。</translation>
    </message>
    <message>
        <source>Press Start. GradViz starts from the comparison&apos;s MindSpore values, and its step k is the comparison&apos;s loop:k-1.</source>
        <translation>点击“开始”。GradViz 从对照示例中 MindSpore 的初始值出发，它的第 k 步就是示例中的 loop:k-1。</translation>
    </message>
    <message>
        <source>Once the loss is below {until_loss}, the run stops before that step&apos;s update, like the comparison&apos;s break. The PyTorch parity tab runs the same training in PyTorch and plots the differences.</source>
        <translation>loss 一旦低于 {until_loss}，训练就在该步更新之前停止，与示例中的 break 一样。“PyTorch 对照”标签页用 PyTorch 运行同样的训练，并画出两者的差异。</translation>
    </message>
    <message>
        <source>To see a run diverge, set the learning rate to 0.5 and press Start: the loss overflows within 60 steps, and the divergence coach above the plots says why and goes back with a smaller rate.</source>
        <translation>要观察训练发散，把学习率设为 0.5 再点击开始：损失在 60 步之内溢出，曲线图上方的发散教练会说明原因，并以更小的学习率回退。</translation>
    </message>
    <message>
        <source>The exported MindSpore program (File &gt; Export): the data set</source>
        <translation>导出的 MindSpore 程序（文件 &gt; 导出）：数据集</translation>
    </message>
    <message>
        <source>The exported MindSpore program: the network and its loss</source>
        <translation>导出的 MindSpore 程序：网络及其损失</translation>
    </message>
    <message>
        <source>Two moons: the data</source>
        <translation>两个月牙：数据</translation>
    </message>
    <message>
        <source>The Dataset node draws {samples} points with scikit-learn&apos;s make_moons: two interleaving half circles with noise, one class each. {test} of them are kept apart as the test set; the network trains on the other {train}.</source>
        <translation>Dataset 节点用 scikit-learn 的 make_moons 生成 {samples} 个点：两个带噪声、相互交错的半圆，各为一类。其中 {test} 个点留作测试集；网络用其余 {train} 个点训练。</translation>
    </message>
    <message>
        <source>Each step trains on one mini-batch of {batch} points: the x node holds their two coordinates, the y node their classes as one-hot rows. {spe} steps make an epoch, one pass over the training set, in a new order each epoch.</source>
        <translation>每一步用一个含 {batch} 个点的小批量训练：x 节点存放它们的两个坐标，y 节点以 one-hot 行存放它们的类别。{spe} 步构成一个 epoch，即把训练集完整过一遍，每个 epoch 的顺序都不同。</translation>
    </message>
    <message>
        <source>Why a hidden layer is needed</source>
        <translation>为什么需要隐藏层</translation>
    </message>
    <message>
        <source>Without hidden layers the network would be one Dense layer from the point to the two class scores. Each score is then a linear function of the point, so the points where the two are equal, the decision boundary, form a straight line, and no straight line separates the two moons.</source>
        <translation>没有隐藏层时，网络只是从点到两个类别得分的一个 Dense 层。每个得分都是点的线性函数，因此两个得分相等的点，即决策边界，构成一条直线，而没有任何直线能把两个月牙分开。</translation>
    </message>
    <message>
        <source>Here fc1 (Dense 2 → 8) and fc2 (Dense 8 → 8), each followed by tanh, come first. The last layer, logits, still draws a straight boundary, but in the space of the eight values of h2; because tanh bends, that boundary is a curve in the plane of the points.</source>
        <translation>这里先经过 fc1（Dense 2 → 8）和 fc2（Dense 8 → 8），每层之后都有 tanh。最后一层 logits 画出的仍是直线边界，但它位于 h2 的八个值所构成的空间里；由于 tanh 会弯曲空间，这条边界在点所在的平面上是一条曲线。</translation>
    </message>
    <message>
        <source>What each hidden unit computes</source>
        <translation>每个隐藏单元计算什么</translation>
    </message>
    <message>
        <source>Each of fc1&apos;s eight units computes w·x + b from a point&apos;s two coordinates, with its own row of fc1&apos;s weight (8, 2), and h1 applies tanh: the unit is near −1 on one side of a straight line across the plane, near +1 on the other, and changes smoothly in between.</source>
        <translation>fc1 的八个单元各用 fc1 权重 (8, 2) 中自己的一行，由点的两个坐标计算 w·x + b，h1 再对其取 tanh：在平面上一条直线的一侧，该单元接近 −1，另一侧接近 +1，中间平滑过渡。</translation>
    </message>
    <message>
        <source>Hover h1 to see its values for the batch: a row per point, a column per unit, each between −1 and 1. Each unit of h2 mixes all eight units of h1, so it responds to a curved region of the plane rather than to one side of a line.</source>
        <translation>把鼠标悬停在 h1 上可查看它对这个批次的值：每个点一行，每个单元一列，都在 −1 和 1 之间。h2 的每个单元混合了 h1 的全部八个单元，所以它对应平面上一块弯曲的区域，而不是一条直线的某一侧。</translation>
    </message>
    <message>
        <source>Under h1 and h2 each unit has a small map of the input plane, coloured by its value at every point (blue −1, red +1): h1&apos;s maps are split by straight lines, h2&apos;s by curves. Hover a map to enlarge it. The Data tab shows the points over what the whole network predicts there.</source>
        <translation>h1 和 h2 下方，每个单元都有一张输入平面的小图，按它在每一点上的取值着色（蓝色 −1，红色 +1）：h1 的小图被直线分开，h2 的被曲线分开。把鼠标停在小图上可放大。“数据”标签页显示这些点，以及整个网络在那里的预测。</translation>
    </message>
    <message>
        <source>Training: the loss and accuracy curves</source>
        <translation>训练：损失曲线和准确率曲线</translation>
    </message>
    <message>
        <source>Press Start. The loss plot shows each step&apos;s loss on its mini-batch: it jumps from batch to batch as it falls. After each epoch the network is evaluated on the whole training set and on the test set: the accuracy plot shows the share of points each gets right, and the loss plot gains the test loss.</source>
        <translation>点击“开始”。loss 曲线显示每一步在其小批量上的损失：它一边下降，一边随批次跳动。每个 epoch 结束后，网络在整个训练集和测试集上接受评估：准确率曲线显示各自分对的点所占的比例，loss 曲线图上还会加上测试损失。</translation>
    </message>
    <message>
        <source>After epoch {epoch}: training accuracy {train_acc}, test accuracy {test_acc}, test loss {test_loss}.</source>
        <translation>第 {epoch} 个 epoch 之后：训练准确率 {train_acc}，测试准确率 {test_acc}，测试损失 {test_loss}。</translation>
    </message>
    <message>
        <source>The first evaluation comes after epoch 1, at step {spe}.</source>
        <translation>第一次评估在第 1 个 epoch 之后，即第 {spe} 步。</translation>
    </message>
    <message>
        <source>The network never trains on the test points: a test accuracy close to the training accuracy says it has learned the shape of the moons, not the training points by heart.</source>
        <translation>网络从不用测试点训练：测试准确率接近训练准确率，说明它学到的是月牙的形状，而不是死记训练点。</translation>
    </message>
    <message>
        <source>In the Data tab the boundary between the two colours starts as a line and bends around the moons as training goes on; drag the History slider back to watch it unbend.</source>
        <translation>在“数据”标签页中，两种颜色之间的边界起初是一条直线，随着训练进行逐渐弯曲、绕开两个月牙；把“历史”滑块往回拖，可以看到它重新变直。</translation>
    </message>
    <message>
        <source>The digits and the course&apos;s Network</source>
        <translation>手写数字与课程中的 Network</translation>
    </message>
    <message>
        <source>The Dataset node holds scikit-learn&apos;s {samples} handwritten digits: 8x8 pixel images scaled to [0, 1], each with its class from 0 to 9. {test} are kept for the test set; the network trains on the other {train}.</source>
        <translation>Dataset 节点存放 scikit-learn 的 {samples} 张手写数字：8x8 像素的图像，缩放到 [0, 1]，每张带有 0 到 9 的类别。其中 {test} 张留作测试集；网络用其余 {train} 张训练。</translation>
    </message>
    <message>
        <source>The graph is the course&apos;s Network sized for 8x8 images: the x node holds each image as a row of its 64 pixels and Flatten keeps it so (the course&apos;s 28x28 images become rows of 784), then Dense(64, 64), ReLU, Dense(64, 64), ReLU and Dense(64, 10) give ten scores, one per class. The loss is their cross-entropy with the true class, as nn.CrossEntropyLoss computes it.</source>
        <translation>计算图是课程中的 Network，按 8x8 图像调整了尺寸：x 节点把每张图像存为一行 64 个像素，Flatten 保持不变（课程中 28x28 的图像会展平成一行 784 个数），接着 Dense(64, 64)、ReLU、Dense(64, 64)、ReLU 和 Dense(64, 10) 给出十个得分，每个类别一个。损失是这些得分与真实类别的交叉熵，与 nn.CrossEntropyLoss 的计算相同。</translation>
    </message>
    <message>
        <source>train_loop: mini-batches and epochs</source>
        <translation>train_loop：小批量与 epoch</translation>
    </message>
    <message>
        <source>The exported MindSpore program: train_loop</source>
        <translation>导出的 MindSpore 程序：train_loop</translation>
    </message>
    <message>
        <source>The course&apos;s train_loop goes over the training set in mini-batches: each step computes the loss of one batch of {batch} images and its gradients, then optimizer(grads) updates every weight and bias (SGD, learning rate {lr}).</source>
        <translation>课程中的 train_loop 按小批量遍历训练集：每一步计算一个含 {batch} 张图像的批次的损失及其梯度，然后 optimizer(grads) 更新每个权重和偏置（SGD，学习率 {lr}）。</translation>
    </message>
    <message>
        <source>One epoch is one pass over the {train} training images: {spe} steps, the last batch shorter when the images do not divide into whole batches. Each epoch visits them in a new order drawn from the Dataset node&apos;s seed.</source>
        <translation>一个 epoch 就是把 {train} 张训练图像完整过一遍：共 {spe} 步，图像数不能整除批大小时最后一批较小。每个 epoch 按由 Dataset 节点的种子生成的新顺序访问它们。</translation>
    </message>
    <message>
        <source>test_loop: accuracy and test loss</source>
        <translation>test_loop：准确率与测试损失</translation>
    </message>
    <message>
        <source>The exported MindSpore program: test_loop</source>
        <translation>导出的 MindSpore 程序：test_loop</translation>
    </message>
    <message>
        <source>After each epoch, test_loop runs the network on the {test} test images, which it never trains on. Its prediction for an image is the class with the largest score: the accuracy is the share of test images predicted right, and the test loss (Avg loss) is the cross-entropy averaged over them.</source>
        <translation>每个 epoch 之后，test_loop 在 {test} 张测试图像上运行网络，网络从不用它们训练。对一张图像的预测是得分最大的类别：准确率是预测正确的测试图像所占的比例，测试损失（Avg loss）是它们的平均交叉熵。</translation>
    </message>
    <message>
        <source>After epoch {epoch}: test accuracy {test_acc}, test loss {test_loss}; on the training images the accuracy is {train_acc}.</source>
        <translation>第 {epoch} 个 epoch 之后：测试准确率 {test_acc}，测试损失 {test_loss}；在训练图像上准确率为 {train_acc}。</translation>
    </message>
    <message>
        <source>Press Start: the first test comes after epoch 1, at step {spe}.</source>
        <translation>点击“开始”：第一次测试在第 1 个 epoch 之后，即第 {spe} 步。</translation>
    </message>
    <message>
        <source>A low training loss alone can mean the network has learned its training images by heart; the test accuracy says how well it does on digits it has not seen.</source>
        <translation>只看训练损失低，可能只是网络记住了训练图像；测试准确率说明它在没见过的数字上表现如何。</translation>
    </message>
    <message>
        <source>The Test images tab shows each test image with the class predicted for it (a wrong one framed in red, with its true class), and the confusion matrix: a row per true class, a column per predicted class, so every count off the diagonal is a mistake, such as an 8 read as a 1.</source>
        <translation>“测试图像”标签页显示每张测试图像及其预测类别（预测错误的用红框标出，并注明真实类别），以及混淆矩阵：每行是一个真实类别，每列是一个预测类别，因此对角线以外的每个计数都是一次错误，比如把 8 认成了 1。</translation>
    </message>
    <message>
        <source>Watching the network learn</source>
        <translation>观察网络学习</translation>
    </message>
    <message>
        <source>The run trains {steps} steps, that is {epochs} epochs. The loss plot falls step by step, and the accuracy plot gains a point after each epoch, for the training and the test images.</source>
        <translation>这次运行训练 {steps} 步，即 {epochs} 个 epoch。loss 曲线一步步下降，准确率曲线在每个 epoch 之后为训练图像和测试图像各增加一个点。</translation>
    </message>
    <message>
        <source>Step {last_step} has loss {last_loss}. Pause and drag the History slider: the nodes, the plots and the evaluations go back to that step.</source>
        <translation>第 {last_step} 步的 loss 为 {last_loss}。暂停后拖动“历史”滑块：节点、曲线和评估结果都会回到那一步。</translation>
    </message>
    <message>
        <source>File &gt; Export writes this session as a MindSpore program whose train_loop and test_loop print the course&apos;s lines: the loss of each step, then Accuracy and Avg loss after each epoch.</source>
        <translation>“文件 &gt; 导出”把这个会话写成 MindSpore 程序，其 train_loop 和 test_loop 打印课程中的那些行：每一步的损失，以及每个 epoch 之后的 Accuracy 和 Avg loss。</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Training was stopped: this step&apos;s set-up starts a new run from step 0.</source>
        <translation>训练已停止：本步的设置从第 0 步开始新的训练。</translation>
    </message>
    <message>
        <source>Training was paused for this step: press Start to go on.</source>
        <translation>训练已为本步暂停：点击“开始”继续。</translation>
    </message>
    <message>
        <source>Not set up: the current session was kept.</source>
        <translation>未设置：当前会话已保留。</translation>
    </message>
    <message>
        <source>The graph or the options now differ from this step: press ⟲ (Set up again) to put them back.</source>
        <translation>计算图或选项已与本步不同：点击 ⟲（重新设置）恢复。</translation>
    </message>
    <message>
        <source>Set up again: put the graph and the options back as this step sets them</source>
        <translation>重新设置：把计算图和选项恢复为本步的设置</translation>
    </message>
    <message>
        <source>Show the Data tab</source>
        <translation>显示“数据”标签页</translation>
    </message>
    <message>
        <source>Show the Test images tab</source>
        <translation>显示“测试图像”标签页</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>{step} / {total}</source>
        <translation>{step} / {total}</translation>
    </message>
    <message>
        <source>Show the Four variants tab</source>
        <translation>显示“四种写法”标签页</translation>
    </message>
    <message>
        <source>Show the PyTorch parity tab</source>
        <translation>显示“PyTorch 对照”标签页</translation>
    </message>
    <message>
        <source>Show the MindSpore program</source>
        <translation>显示 MindSpore 程序</translation>
    </message>
</context>
</TS>
