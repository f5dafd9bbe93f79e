// Exact algebraic folding of PP-OCR's exported graphs, done in memory when a model loads.
//
// The PP-LCNetV3 backbone of the PP-OCRv4 detector and recognizer was exported with every block
// written out element by element: Conv → ×a → +b (the re-parameterised branch's scale), then
// hard-swish as +3 → Clip(0, 6) → × → ÷6, then ×c → +d (the "learnable affine block"). On two
// cores these eight memory-bound passes cost as much as the convolutions (45 % of the
// recognizer's time, profiled with onnxruntime). Folded, the same block is Conv → HardSigmoid →
// × (→ +e before a padded convolution):
//   - Conv → ×a → +b with scalar a, b: weights × a, bias × a + b;
//   - x + 3 → Clip(0, 6) → x × · → ÷ 6: x × HardSigmoid(x; 1/6, 1/2);
//   - x × c + d into a following 1×1 convolution: weights × c, bias + d × Σ weights; before a
//     padded one, only × c (weights × c, then + d/c stays: zero padding of x + d/c, scaled by c,
//     is the zero padding of c·x + d), written as a 1×1 depthwise convolution so onnxruntime's
//     blocked layout runs on through it (a scalar Add converted out of it and back: 12 % of the
//     recognizer's time).
// Each rewrite matches only the exact shape it was written for (scalar constants, single
// consumers, the constants 3 and 6); anything else is left as exported. The results differ from
// the exported graph's by float rounding only (tested on real crops).

interface Field {
  readonly f: number;
  readonly t: number;
  /** Varint value (wire type 0). */
  readonly v?: number;
  /** Byte range of the payload (wire types 1, 2, 5). */
  readonly s?: number;
  readonly e?: number;
}

function readFields(buf: Uint8Array, start = 0, end = buf.length): Field[] {
  const out: Field[] = [];
  let p = start;
  const varint = (): number => {
    let r = 0;
    let m = 1;
    for (;;) {
      const b = buf[p++]!;
      r += (b & 0x7f) * m;
      if (!(b & 0x80)) return r;
      m *= 128;
    }
  };
  while (p < end) {
    const key = varint();
    const f = Math.floor(key / 8);
    const t = key & 7;
    if (t === 0) out.push({ f, t, v: varint() });
    else if (t === 2) {
      const len = varint();
      out.push({ f, t, s: p, e: p + len });
      p += len;
    } else if (t === 5 || t === 1) {
      const len = t === 5 ? 4 : 8;
      out.push({ f, t, s: p, e: p + len });
      p += len;
    } else throw new Error(`unsupported protobuf wire type ${t}`);
  }
  if (p !== end) throw new Error("truncated protobuf message");
  return out;
}

const utf8 = new TextDecoder();
const str = (buf: Uint8Array, x: Field): string => utf8.decode(buf.subarray(x.s, x.e));

class Writer {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private push(b: Uint8Array): void {
    this.parts.push(b);
    this.size += b.length;
  }
  varint(n: number): this {
    const bytes: number[] = [];
    do {
      let b = n % 128;
      n = Math.floor(n / 128);
      if (n > 0) b |= 0x80;
      bytes.push(b);
    } while (n > 0);
    this.push(Uint8Array.from(bytes));
    return this;
  }
  key(f: number, t: number): this {
    return this.varint(f * 8 + t);
  }
  bytes(f: number, b: Uint8Array): this {
    this.key(f, 2).varint(b.length);
    this.push(b);
    return this;
  }
  string(f: number, s: string): this {
    return this.bytes(f, new TextEncoder().encode(s));
  }
  float(f: number, x: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, x, true);
    this.key(f, 5).push(b);
    return this;
  }
  /** A field copied as it was read. */
  raw(buf: Uint8Array, x: Field): this {
    if (x.t === 0) return this.key(x.f, 0).varint(x.v!);
    if (x.t === 2) return this.bytes(x.f, buf.subarray(x.s, x.e));
    this.key(x.f, x.t).push(buf.subarray(x.s, x.e));
    return this;
  }
  done(): Uint8Array {
    const out = new Uint8Array(this.size);
    let p = 0;
    for (const b of this.parts) {
      out.set(b, p);
      p += b.length;
    }
    return out;
  }
}

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  /** The node as read, when unchanged (kept byte for byte). */
  raw?: Uint8Array;
  /** Attribute messages (raw AttributeProto bytes) and the name of each. */
  attrs: { name: string; bytes: Uint8Array }[];
  name: string;
}

interface Tensor {
  readonly dims: number[];
  readonly data: Float32Array;
}

// ONNX field numbers (onnx.proto).
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_OUTPUT = 12;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_NAME = 3;
const NODE_OP = 4;
const NODE_ATTR = 5;
const ATTR_NAME = 1;
const ATTR_F = 2;
const ATTR_I = 3;
const ATTR_T = 5;
const ATTR_INTS = 8;
const ATTR_TYPE = 20;
const TENSOR_DIMS = 1;
const TENSOR_TYPE = 2;
const TENSOR_FLOATS = 4;
const TENSOR_RAW = 9;
const FLOAT = 1;
/** ONNX stores tensors little-endian; the typed-array shortcuts below assume the host is too. */
const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

function parseNode(buf: Uint8Array, x: Field): Node {
  const fs = readFields(buf, x.s, x.e);
  return {
    op: str(buf, fs.find((f) => f.f === NODE_OP)!),
    inputs: fs.filter((f) => f.f === NODE_INPUT).map((f) => str(buf, f)),
    outputs: fs.filter((f) => f.f === NODE_OUTPUT).map((f) => str(buf, f)),
    name: fs.some((f) => f.f === NODE_NAME) ? str(buf, fs.find((f) => f.f === NODE_NAME)!) : "",
    attrs: fs.filter((f) => f.f === NODE_ATTR).map((f) => {
      const bytes = buf.subarray(f.s, f.e);
      return { name: str(bytes, readFields(bytes).find((a) => a.f === ATTR_NAME)!), bytes };
    }),
    raw: buf.subarray(x.s, x.e),
  };
}

function encodeNode(n: Node): Uint8Array {
  if (n.raw) return n.raw;
  const w = new Writer();
  for (const i of n.inputs) w.string(NODE_INPUT, i);
  for (const o of n.outputs) w.string(NODE_OUTPUT, o);
  if (n.name) w.string(NODE_NAME, n.name);
  w.string(NODE_OP, n.op);
  for (const a of n.attrs) w.bytes(NODE_ATTR, a.bytes);
  return w.done();
}

function attr(n: Node, name: string): Field[] | undefined {
  const a = n.attrs.find((x) => x.name === name);
  return a && readFields(a.bytes);
}

function attrInts(n: Node, name: string): number[] | undefined {
  const a = n.attrs.find((x) => x.name === name)?.bytes;
  if (!a) return undefined;
  const out: number[] = [];
  for (const f of readFields(a)) {
    if (f.f !== ATTR_INTS) continue;
    if (f.t === 0) out.push(f.v!);
    // Packed: one length-delimited run of varints.
    else if (f.t === 2) for (const v of readFields(packedAsFields(a.subarray(f.s, f.e)))) out.push(v.v!);
  }
  return out;
}

/** Packed varints re-keyed as field 1 varints, so readFields can walk them. */
function packedAsFields(b: Uint8Array): Uint8Array {
  const out: number[] = [];
  let start = true;
  for (const byte of b) {
    if (start) out.push(8);
    out.push(byte);
    start = !(byte & 0x80);
  }
  return Uint8Array.from(out);
}

function attrFloat(n: Node, name: string): number | undefined {
  const a = n.attrs.find((x) => x.name === name);
  const f = a && readFields(a.bytes).find((x) => x.f === ATTR_F);
  return f ? new DataView(a.bytes.buffer, a.bytes.byteOffset + f.s!, 4).getFloat32(0, true) : undefined;
}

function readTensor(buf: Uint8Array): Tensor | undefined {
  const fs = readFields(buf);
  if ((fs.find((f) => f.f === TENSOR_TYPE)?.v ?? 0) !== FLOAT) return undefined;
  const dims: number[] = [];
  for (const f of fs.filter((x) => x.f === TENSOR_DIMS)) {
    if (f.t === 0) dims.push(f.v!);
    else return undefined;
  }
  const n = dims.reduce((a, b) => a * b, 1);
  // raw_data, else packed float_data: little-endian float32 either way (copied: the bytes may
  // not be 4-aligned).
  const bytes = fs.find((f) => f.f === TENSOR_RAW) ?? fs.find((f) => f.f === TENSOR_FLOATS && f.t === 2);
  if (!bytes || bytes.e! - bytes.s! !== n * 4 || !LITTLE_ENDIAN) return undefined;
  return { dims, data: new Float32Array(new Uint8Array(buf.subarray(bytes.s, bytes.e)).buffer) };
}

function constantNode(name: string, t: Tensor): Node {
  const tw = new Writer();
  for (const d of t.dims) tw.key(TENSOR_DIMS, 0).varint(d);
  tw.key(TENSOR_TYPE, 0).varint(FLOAT);
  tw.bytes(TENSOR_RAW, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  const aw = new Writer().string(ATTR_NAME, "value").bytes(ATTR_T, tw.done()).key(ATTR_TYPE, 0).varint(4);
  return { op: "Constant", inputs: [], outputs: [name], attrs: [{ name: "value", bytes: aw.done() }], name: "" };
}

function intAttr(name: string, x: number): { name: string; bytes: Uint8Array } {
  return { name, bytes: new Writer().string(ATTR_NAME, name).key(ATTR_I, 0).varint(x).key(ATTR_TYPE, 0).varint(2).done() };
}

function attrIntOf(n: Node, name: string): number | undefined {
  const a = n.attrs.find((x) => x.name === name)?.bytes;
  return a && readFields(a).find((f) => f.f === ATTR_I && f.t === 0)?.v;
}

function floatAttr(name: string, x: number): { name: string; bytes: Uint8Array } {
  return { name, bytes: new Writer().string(ATTR_NAME, name).float(ATTR_F, x).key(ATTR_TYPE, 0).varint(1).done() };
}

export interface FoldReport {
  /** Conv → ×a → +b folded into the convolution. */
  readonly convAffine: number;
  /** Hard-swish written as x × HardSigmoid(x). */
  readonly hardSwish: number;
  /** x × c + d folded into the next convolution (whole, or the scale only). */
  readonly affineIntoConv: number;
  readonly nodesBefore: number;
  readonly nodesAfter: number;
}

/** Folds a PP-OCR ONNX model (bytes) as described above; returns the new model's bytes. */
export function foldPpOcrModel(model: Uint8Array): { model: Uint8Array; report: FoldReport } {
  const top = readFields(model);
  const g = top.find((f) => f.f === MODEL_GRAPH && f.t === 2);
  if (!g) throw new Error("no graph in the ONNX model");
  const gFields = readFields(model, g.s, g.e);
  const nodes: (Node | undefined)[] = gFields.filter((f) => f.f === GRAPH_NODE).map((f) => parseNode(model, f));
  const nodesBefore = nodes.length;
  const graphOutputs = new Set(
    gFields.filter((f) => f.f === GRAPH_OUTPUT).map((f) => str(model, readFields(model, f.s, f.e).find((x) => x.f === 1)!)),
  );
  const consts = new Map<string, Tensor>();
  const constNode = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (n?.op !== "Constant" || n.attrs.length !== 1 || n.attrs[0]!.name !== "value") return;
    const t = readFields(n.attrs[0]!.bytes).find((f) => f.f === ATTR_T);
    const tensor = t && readTensor(n.attrs[0]!.bytes.subarray(t.s, t.e));
    if (tensor) {
      consts.set(n.outputs[0]!, tensor);
      constNode.set(n.outputs[0]!, i);
    }
  });
  // Consumers of each value, kept up to date as nodes are rewritten.
  const users = new Map<string, Set<number>>();
  const use = (name: string, i: number) => {
    let s = users.get(name);
    if (!s) users.set(name, (s = new Set()));
    s.add(i);
  };
  nodes.forEach((n, i) => n!.inputs.forEach((x) => use(x, i)));
  const only = (value: string): number | undefined => {
    if (graphOutputs.has(value)) return undefined;
    const s = users.get(value);
    return s?.size === 1 ? [...s][0] : undefined;
  };
  const scalar = (name: string): number | undefined => {
    const t = consts.get(name);
    return t && t.data.length === 1 ? t.data[0] : undefined;
  };
  /** The other input of a binary node with a scalar constant, and the scalar. */
  const withScalar = (n: Node | undefined, op: string, x: string): number | undefined => {
    if (n?.op !== op || n.inputs.length !== 2) return undefined;
    const other = n.inputs[0] === x ? n.inputs[1]! : n.inputs[1] === x ? n.inputs[0]! : undefined;
    return other === undefined || other === x ? undefined : scalar(other);
  };
  let fresh = 0;
  const extra: Node[] = [];
  const newConst = (base: string, t: Tensor): string => {
    const name = `${base}.folded${fresh++}`;
    consts.set(name, t);
    extra.push(constantNode(name, t));
    return name;
  };
  const remove = (i: number) => {
    const n = nodes[i]!;
    n.inputs.forEach((x) => users.get(x)?.delete(i));
    nodes[i] = undefined;
  };
  const setInputs = (i: number, inputs: string[]) => {
    const n = nodes[i]!;
    n.inputs.forEach((x) => users.get(x)?.delete(i));
    n.inputs = inputs;
    inputs.forEach((x) => use(x, i));
    n.raw = undefined;
  };
  const convWeights = (n: Node): { w: Tensor; b: Float32Array } | undefined => {
    const w = consts.get(n.inputs[1] ?? "");
    if (!w || w.dims.length !== 4) return undefined;
    const b = n.inputs[2] !== undefined ? consts.get(n.inputs[2]) : undefined;
    if (n.inputs[2] !== undefined && (!b || b.data.length !== w.dims[0])) return undefined;
    return { w, b: b ? b.data : new Float32Array(w.dims[0]!) };
  };
  const report = { convAffine: 0, hardSwish: 0, affineIntoConv: 0 };

  // 1. Conv → ×a → +b.
  nodes.forEach((n, i) => {
    if (n?.op !== "Conv" || n.outputs.length !== 1) return;
    const cw = convWeights(n);
    if (!cw) return;
    const y = n.outputs[0]!;
    const mi = only(y);
    const a = mi === undefined ? undefined : withScalar(nodes[mi], "Mul", y);
    if (a === undefined) return;
    const m = nodes[mi!]!;
    const ai = only(m.outputs[0]!);
    const b = ai === undefined ? undefined : withScalar(nodes[ai], "Add", m.outputs[0]!);
    if (b === undefined) return;
    const out = nodes[ai!]!.outputs[0]!;
    const w = new Float32Array(cw.w.data.length);
    cw.w.data.forEach((v, k) => (w[k] = v * a));
    const bias = cw.b.map((v) => v * a + b);
    setInputs(i, [n.inputs[0]!, newConst(n.inputs[1]!, { dims: cw.w.dims, data: w }), newConst(`${n.inputs[1]!}.bias`, { dims: [bias.length], data: bias })]);
    n.outputs = [out];
    remove(mi!);
    remove(ai!);
    report.convAffine++;
  });

  // 2. x + 3 → Clip(0, 6) → x × · → ÷ 6.
  const clipBounds = (n: Node): [number, number] | undefined => {
    if (n.inputs.length === 1) {
      const lo = attrFloat(n, "min");
      const hi = attrFloat(n, "max");
      return lo === undefined || hi === undefined ? undefined : [lo, hi];
    }
    if (n.inputs.length !== 3) return undefined;
    const lo = scalar(n.inputs[1]!);
    const hi = scalar(n.inputs[2]!);
    return lo === undefined || hi === undefined ? undefined : [lo, hi];
  };
  nodes.forEach((n, i) => {
    if (n?.op !== "Add" || n.inputs.length !== 2) return;
    const x = scalar(n.inputs[1]!) === 3 ? n.inputs[0]! : scalar(n.inputs[0]!) === 3 ? n.inputs[1]! : undefined;
    if (x === undefined || consts.has(x)) return;
    const ci = only(n.outputs[0]!);
    const c = ci === undefined ? undefined : nodes[ci];
    if (c?.op !== "Clip" || c.inputs[0] !== n.outputs[0]) return;
    const bounds = clipBounds(c);
    if (!bounds || bounds[0] !== 0 || bounds[1] !== 6) return;
    const mi = only(c.outputs[0]!);
    const m = mi === undefined ? undefined : nodes[mi];
    if (m?.op !== "Mul" || !m.inputs.includes(x) || !m.inputs.includes(c.outputs[0]!)) return;
    const di = only(m.outputs[0]!);
    const d = di === undefined ? undefined : nodes[di];
    if (d?.op !== "Div" || d.inputs[0] !== m.outputs[0] || scalar(d.inputs[1]!) !== 6) return;
    // The Add becomes the HardSigmoid, the Mul takes the Div's output; Clip and Div go.
    const hs = `${d.outputs[0]!}.hardsigmoid`;
    n.op = "HardSigmoid";
    setInputs(i, [x]);
    n.outputs = [hs];
    n.attrs = [floatAttr("alpha", 1 / 6), floatAttr("beta", 0.5)];
    setInputs(mi!, [x, hs]);
    m.outputs = [d.outputs[0]!];
    remove(ci!);
    remove(di!);
    report.hardSwish++;
  });

  // 3. x × c + d → Conv.
  nodes.forEach((n, i) => {
    if (n?.op !== "Mul" || n.inputs.length !== 2) return;
    const x = scalar(n.inputs[0]!) !== undefined ? n.inputs[1]! : n.inputs[0]!;
    const c = withScalar(n, "Mul", x);
    if (c === undefined || c === 0 || consts.has(x)) return;
    const ai = only(n.outputs[0]!);
    const d = ai === undefined ? undefined : withScalar(nodes[ai], "Add", n.outputs[0]!);
    if (d === undefined) return;
    const add = nodes[ai!]!;
    const ki = only(add.outputs[0]!);
    const conv = ki === undefined ? undefined : nodes[ki];
    if (conv?.op !== "Conv" || conv.inputs[0] !== add.outputs[0]) return;
    const cw = convWeights(conv);
    if (!cw) return;
    const [O, I, kh, kw] = cw.w.dims as [number, number, number, number];
    const padded = (attrInts(conv, "pads") ?? []).some((p) => p !== 0) || (attr(conv, "auto_pad") !== undefined && kh * kw > 1);
    const per = I * kh * kw;
    const w = new Float32Array(cw.w.data.length);
    cw.w.data.forEach((v, k) => (w[k] = v * c));
    const wName = newConst(conv.inputs[1]!, { dims: cw.w.dims, data: w });
    if (!padded || (kh === 1 && kw === 1)) {
      // The whole affine: bias + d × Σ weights of each output channel.
      const bias = cw.b.map((v, o) => {
        let s = 0;
        for (let k = 0; k < per; k++) s += cw.w.data[o * per + k]!;
        return v + d * s;
      });
      setInputs(ki!, [x, wName, newConst(`${conv.inputs[1]!}.bias`, { dims: [O], data: bias })]);
      remove(ai!);
    } else {
      // Only the scale: the Add keeps d / c (zero padding commutes with the scale c).
      const keep = cw.b.slice();
      setInputs(ki!, [add.outputs[0]!, wName, newConst(`${conv.inputs[1]!}.bias`, { dims: [O], data: keep })]);
      // The shift is written as a 1×1 depthwise convolution (weights 1, bias d / c: the same
      // sums), which onnxruntime keeps in its blocked convolution layout; an Add of a scalar
      // made it convert the tensor out of that layout and back.
      const channels = I * (attrIntOf(conv, "group") ?? 1);
      const add2 = nodes[ai!]!;
      add2.op = "Conv";
      add2.attrs = [intAttr("group", channels)];
      setInputs(ai!, [
        x,
        newConst(`${add.outputs[0]!}.ones`, { dims: [channels, 1, 1, 1], data: new Float32Array(channels).fill(1) }),
        newConst(`${add.outputs[0]!}.shift`, { dims: [channels], data: new Float32Array(channels).fill(d / c) }),
      ]);
    }
    remove(i);
    report.affineIntoConv++;
  });

  // Constants nobody reads any more go; new constants come first (before their users).
  const kept = nodes.filter((n, i): n is Node => {
    if (!n) return false;
    if (n.op === "Constant" && constNode.get(n.outputs[0]!) === i) return (users.get(n.outputs[0]!)?.size ?? 0) > 0 || graphOutputs.has(n.outputs[0]!);
    return true;
  });
  const all = [...extra.filter((n) => (users.get(n.outputs[0]!)?.size ?? 0) > 0), ...kept];
  const gw = new Writer();
  for (const f of gFields) {
    if (f.f === GRAPH_NODE) continue;
    gw.raw(model, f);
  }
  for (const n of all) gw.bytes(GRAPH_NODE, encodeNode(n));
  const mw = new Writer();
  for (const f of top) {
    if (f === g) mw.bytes(MODEL_GRAPH, gw.done());
    else mw.raw(model, f);
  }
  return { model: mw.done(), report: { ...report, nodesBefore, nodesAfter: all.length } };
}
