// A minimal ONNX (protobuf) writer, enough for tests to build tiny models themselves: no model
// file is downloaded or committed. Field numbers from onnx.proto (ModelProto, GraphProto, ...).

class Pb {
  private bytes: number[] = [];
  private varint(v: number | bigint): void {
    let x = BigInt(v);
    if (x < 0n) x += 1n << 64n;
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x > 0n) b |= 0x80;
      this.bytes.push(b);
    } while (x > 0n);
  }
  int(field: number, v: number | bigint): this {
    this.varint((field << 3) | 0);
    this.varint(v);
    return this;
  }
  bytesField(field: number, data: Uint8Array): this {
    this.varint((field << 3) | 2);
    this.varint(data.length);
    for (const b of data) this.bytes.push(b);
    return this;
  }
  str(field: number, s: string): this {
    return this.bytesField(field, new TextEncoder().encode(s));
  }
  msg(field: number, m: Pb): this {
    return this.bytesField(field, m.done());
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const FLOAT = 1;

const INT64 = 7;

/** A tensor value; a string dimension is symbolic (dim_param), e.g. the sequence length. */
function valueInfo(name: string, dims: Array<number | string>, elemType = FLOAT): Pb {
  const shape = new Pb();
  for (const d of dims) shape.msg(1, typeof d === "number" ? new Pb().int(1, d) : new Pb().str(2, d));
  return new Pb().str(1, name).msg(2, new Pb().msg(1, new Pb().int(1, elemType).msg(2, shape)));
}

function floatTensor(name: string, dims: number[], values: Float32Array): Pb {
  const t = new Pb();
  for (const d of dims) t.int(1, d);
  t.int(2, FLOAT).str(8, name);
  const raw = new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
  return t.bytesField(9, raw);
}

/**
 * pixel_values [1, 3, size, size] → ReduceMean over H, W → [1, 3] → MatMul W [3, D] → image_embeds [1, D].
 * A stand-in for a CLIP vision encoder with the same input and output names.
 */
export function tinyVisionModel(size: number, weights: Float32Array, dim: number): Uint8Array {
  const reduce = new Pb().str(1, "pixel_values").str(2, "pooled").str(3, "pool").str(4, "ReduceMean").msg(5, new Pb().str(1, "axes").int(20, 7).int(8, 2).int(8, 3)).msg(5, new Pb().str(1, "keepdims").int(20, 2).int(3, 0));
  const matmul = new Pb().str(1, "pooled").str(1, "W").str(2, "image_embeds").str(3, "project").str(4, "MatMul");
  const graph = new Pb().msg(1, reduce).msg(1, matmul).str(2, "tiny_vision").msg(5, floatTensor("W", [3, dim], weights)).msg(11, valueInfo("pixel_values", [1, 3, size, size])).msg(12, valueInfo("image_embeds", [1, dim]));
  return new Pb().int(1, 8).str(2, "rpav-test").msg(7, graph).msg(8, new Pb().str(1, "").int(2, 13)).done();
}

/**
 * input_ids [1, L] (int64) → Gather rows of E [V, D] → ReduceMean over L → text_embeds [1, D].
 * A stand-in for a CLIP text encoder with the same input and output names.
 */
export function tinyTextModel(table: Float32Array, vocab: number, dim: number): Uint8Array {
  const gather = new Pb().str(1, "E").str(1, "input_ids").str(2, "tokens").str(3, "lookup").str(4, "Gather");
  const reduce = new Pb().str(1, "tokens").str(2, "text_embeds").str(3, "pool").str(4, "ReduceMean").msg(5, new Pb().str(1, "axes").int(20, 7).int(8, 1)).msg(5, new Pb().str(1, "keepdims").int(20, 2).int(3, 0));
  const graph = new Pb().msg(1, gather).msg(1, reduce).str(2, "tiny_text").msg(5, floatTensor("E", [vocab, dim], table)).msg(11, valueInfo("input_ids", [1, "L"], INT64)).msg(12, valueInfo("text_embeds", [1, dim]));
  return new Pb().int(1, 8).str(2, "rpav-test").msg(7, graph).msg(8, new Pb().str(1, "").int(2, 13)).done();
}
