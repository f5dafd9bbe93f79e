"""Initialise the torch Detector from an exported ONNX file (the committed models/ui-detector/ui-detector.onnx), so that
training continues from the committed model when its checkpoints are gone (a new machine).

torch.onnx.export (eval mode) folds each BatchNorm into the convolution before it: the file holds, per convolution,
W' = W·γ/√(σ²+ε) and b' = β − μ·γ/√(σ²+ε). The ONNX Conv nodes run in the order the network calls its convolutions,
so they are mapped to the torch convolutions by that order (shapes checked); a convolution followed by a BatchNorm gets
W', and the BatchNorm is set to pass y ↦ y + b' exactly in eval mode. To keep training mode (batch statistics) close to
that too, `recalibrate_bn` measures each such convolution's output mean μ and variance v on real crops and sets
running_mean μ, running_var v, γ = √(v+ε), β = b' + μ — eval mode is unchanged (γ(y−μ)/√(v+ε) + β = y + b'), and a
batch with statistics near (μ, v) gets nearly the same output in training mode.

`run_onnx` executes the ONNX graph itself (the handful of operators this network exports, with torch's functional
ops): the reference the mapped model is compared with (max abs difference printed by train.py --init-onnx).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def _attrs(node):
    import onnx
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def run_onnx(model_proto, x):
    """Outputs of the ONNX graph on x (N×3×H×W float tensor), as a list of tensors in the graph's output order."""
    from onnx import numpy_helper
    env = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model_proto.graph.initializer}
    env[model_proto.graph.input[0].name] = x
    for n in model_proto.graph.node:
        a = _attrs(n)
        ins = [env[i] if i else None for i in n.input]
        op = n.op_type
        if op == "Constant":
            out = torch.from_numpy(np.array(__import__("onnx").numpy_helper.to_array(a["value"])))
        elif op == "Conv":
            pads = a.get("pads", [0, 0, 0, 0])
            assert pads[0] == pads[2] and pads[1] == pads[3], "asymmetric pads"
            out = F.conv2d(ins[0], ins[1], ins[2] if len(ins) > 2 else None, stride=a.get("strides", [1, 1]), padding=pads[:2],
                           dilation=a.get("dilations", [1, 1]), groups=a.get("group", 1))
        elif op == "Relu":
            out = F.relu(ins[0])
        elif op in ("Add", "Sub", "Mul", "Div"):
            out = {"Add": torch.add, "Sub": torch.sub, "Mul": torch.mul, "Div": torch.div}[op](ins[0], ins[1])
        elif op == "Exp":
            out = torch.exp(ins[0])
        elif op == "Clip":
            lo = ins[1] if len(ins) > 1 and ins[1] is not None else None
            hi = ins[2] if len(ins) > 2 and ins[2] is not None else None
            out = torch.clamp(ins[0], min=None if lo is None else float(lo), max=None if hi is None else float(hi))
        elif op == "Resize":
            assert a.get("mode", b"nearest") in (b"nearest", "nearest"), "only nearest resize"
            scales = ins[2] if len(ins) > 2 and ins[2] is not None and ins[2].numel() else None
            if scales is not None:
                out = F.interpolate(ins[0], scale_factor=[float(s) for s in scales[2:]], mode="nearest")
            else:
                out = F.interpolate(ins[0], size=[int(s) for s in ins[3][2:]], mode="nearest")
        else:
            raise ValueError(f"operator {op} not supported by run_onnx")
        env[n.output[0]] = out
    return [env[o.name] for o in model_proto.graph.output]


def _call_order(model, x):
    """Conv2d and BatchNorm2d modules of `model` in the order forward() calls them, as (name, module)."""
    names = {m: n for n, m in model.named_modules()}
    seen, hooks = [], []
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.BatchNorm2d)):
            hooks.append(m.register_forward_hook(lambda mod, i, o: seen.append((names[mod], mod))))
    was = model.training
    model.eval()
    with torch.no_grad():
        model(x)
    model.train(was)
    for h in hooks:
        h.remove()
    return seen


def load_onnx(model, onnx_path, probe_hw=(64, 64)):
    """Copy the ONNX file's weights into `model` (a Detector). Returns the list of (conv name, bn name or None) mapped."""
    import onnx
    from onnx import numpy_helper
    proto = onnx.load(onnx_path)
    inits = {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}
    convs = [n for n in proto.graph.node if n.op_type == "Conv"]
    order = _call_order(model, torch.zeros(1, 3, *probe_hw))
    pairs = []
    for k, (name, mod) in enumerate(order):
        if isinstance(mod, nn.Conv2d):
            nxt = order[k + 1] if k + 1 < len(order) else None
            bn = nxt if nxt is not None and isinstance(nxt[1], nn.BatchNorm2d) else None
            pairs.append((name, mod, bn))
    if len(pairs) != len(convs):
        raise ValueError(f"{onnx_path}: {len(convs)} Conv nodes, the network has {len(pairs)} convolutions")
    mapped = []
    with torch.no_grad():
        for (name, conv, bn), node in zip(pairs, convs):
            w = inits[node.input[1]]
            b = inits[node.input[2]] if len(node.input) > 2 else np.zeros(w.shape[0], np.float32)
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{onnx_path}: Conv {node.name} has weights {w.shape}, {name} needs {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            if bn is None:
                if conv.bias is None:
                    raise ValueError(f"{name}: the ONNX conv has a bias, the torch one neither a bias nor a BatchNorm")
                conv.bias.copy_(torch.from_numpy(b.copy()))
                mapped.append((name, None))
            else:
                m = bn[1]
                m.running_mean.zero_()
                m.running_var.fill_(1.0 - m.eps)
                m.weight.fill_(1.0)
                m.bias.copy_(torch.from_numpy(b.copy()))
                mapped.append((name, bn[0]))
    return mapped


def recalibrate_bn(model, batches):
    """Set each BatchNorm's statistics to the mean / variance its input has on `batches` (N×3×H×W tensors), with γ, β
    adjusted so that eval-mode outputs do not change (see the module's docstring)."""
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    sums = {m: [0.0, 0.0, 0] for m in bns}

    def hook(mod, inp, out):
        y = inp[0].detach().double()
        s = sums[mod]
        s[0] = s[0] + y.sum(dim=(0, 2, 3))
        s[1] = s[1] + (y * y).sum(dim=(0, 2, 3))
        s[2] += y.shape[0] * y.shape[2] * y.shape[3]

    hooks = [m.register_forward_hook(hook) for m in bns]
    was = model.training
    model.eval()  # the layers before each BN run as they will in eval: the statistics of the function actually computed
    with torch.no_grad():
        for x in batches:
            model(x)
    for h in hooks:
        h.remove()
    with torch.no_grad():
        for m in bns:
            s0, s1, n = sums[m]
            if n == 0:
                continue
            mu = s0 / n
            var = (s1 / n - mu * mu).clamp(min=1e-6)
            # Current eval map: γ(y − μ0)/√(v0+ε) + β. Keep it: new γ' = γ·√(var+ε)/√(v0+ε), β' = β + γ(mu − μ0)/√(v0+ε).
            k = m.weight.double() / torch.sqrt(m.running_var.double() + m.eps)
            beta = m.bias.double() + k * (mu - m.running_mean.double())
            gamma = k * torch.sqrt(var + m.eps)
            m.running_mean.copy_(mu.float())
            m.running_var.copy_(var.float())
            m.weight.copy_(gamma.float())
            m.bias.copy_(beta.float())
    model.train(was)


def max_abs_diff(model, proto, x):
    """Largest absolute difference between the torch model (eval) and the ONNX graph on x, per output."""
    was = model.training
    model.eval()
    with torch.no_grad():
        ours = model(x)
        ref = run_onnx(proto, x)
    model.train(was)
    return [float((a - b).abs().max()) for a, b in zip(ours, ref)]
