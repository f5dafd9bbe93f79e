// NumPy .npy read/write (format versions 1.0, 2.0, 3.0), little-endian float32/float64, C order.
// Written files are byte-for-byte what `numpy.save` writes for the same array, so vector files
// (`data/embeddings/...npy`) move freely between RPA Vision and the Python system.
import { NpyFormatError, VectorError } from "./errors.js";

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const ARRAY_ALIGN = 64; // numpy >= 1.x aligns the data to 64 bytes
const GROWTH_AXIS_MAX_DIGITS = 21; // numpy pads so the shape can grow in place

export type NpyDtype = "<f4" | "<f8";

export interface NpyArray {
  dtype: NpyDtype;
  shape: number[];
  data: Float32Array | Float64Array;
}

function shapeRepr(shape: readonly number[]): string {
  if (shape.length === 0) return "()";
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(", ")})`;
}

/** Encodes an array exactly as `numpy.save` does (version 1.0, or 2.0 when the header needs it). */
export function encodeNpy(data: Float32Array | Float64Array, shape: readonly number[] = [data.length]): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) throw new NpyFormatError(`Invalid shape ${shapeRepr(shape)}: dimensions must be integers >= 0.`);
  if (count !== data.length) throw new NpyFormatError(`Shape ${shapeRepr(shape)} holds ${count} values but the data has ${data.length}.`);
  const dtype: NpyDtype = data instanceof Float64Array ? "<f8" : "<f4";
  let header = `{'descr': '${dtype}', 'fortran_order': False, 'shape': ${shapeRepr(shape)}, }`;
  if (shape.length > 0) header += " ".repeat(GROWTH_AXIS_MAX_DIGITS - String(shape[0]).length);
  let version = 1;
  let preamble = 10;
  let padded = pad(header, preamble);
  if (padded.length > 0xffff) {
    version = 2;
    preamble = 12;
    padded = pad(header, preamble);
  }
  const headerBytes = new TextEncoder().encode(padded);
  const out = new Uint8Array(preamble + headerBytes.length + data.byteLength);
  out.set(MAGIC, 0);
  out[6] = version;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (version === 1) dv.setUint16(8, headerBytes.length, true);
  else dv.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, preamble);
  const body = new DataView(out.buffer, preamble + headerBytes.length);
  const step = dtype === "<f8" ? 8 : 4;
  for (let i = 0; i < data.length; i++) {
    if (step === 8) body.setFloat64(i * 8, data[i] as number, true);
    else body.setFloat32(i * 4, data[i] as number, true);
  }
  return out;
}

function pad(header: string, preamble: number): string {
  const total = preamble + header.length + 1;
  return header + " ".repeat((ARRAY_ALIGN - (total % ARRAY_ALIGN)) % ARRAY_ALIGN) + "\n";
}

/**
 * Decodes a .npy buffer. `source` names the file in error messages. Errors say what is wrong,
 * where (byte offset) and how to fix it on the Python side.
 */
export function decodeNpy(bytes: Uint8Array, source = "<buffer>"): NpyArray {
  const fail = (msg: string, details: Record<string, unknown> = {}) => new NpyFormatError(`${source}: ${msg}`, { details: { source, ...details } });
  if (bytes.length < 10) throw fail(`truncated: ${bytes.length} bytes, a .npy file has at least 10 (magic, version, header length).`, { byteOffset: bytes.length });
  for (let i = 0; i < MAGIC.length; i++)
    if (bytes[i] !== MAGIC[i]) throw fail("not a .npy file (the magic string \\x93NUMPY is missing at byte 0).", { byteOffset: 0 });
  const major = bytes[6] as number;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen: number;
  let preamble: number;
  if (major === 1) {
    headerLen = dv.getUint16(8, true);
    preamble = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) throw fail(`truncated in the header length field (version ${major}.0 needs 12 bytes).`, { byteOffset: bytes.length });
    headerLen = dv.getUint32(8, true);
    preamble = 12;
  } else {
    throw fail(`format version ${major}.${bytes[7]} is not supported (1.0, 2.0 and 3.0 are).`, { byteOffset: 6 });
  }
  if (bytes.length < preamble + headerLen)
    throw fail(`truncated header: it declares ${headerLen} bytes but the file ends at byte ${bytes.length}.`, { byteOffset: bytes.length });
  const header = new TextDecoder(major === 3 ? "utf-8" : "latin1").decode(bytes.subarray(preamble, preamble + headerLen));
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(header)?.[1];
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined)
    throw fail(`malformed header (needs 'descr', 'fortran_order' and 'shape'): ${JSON.stringify(header.trim())}.`, { byteOffset: preamble });
  const dtype = normalizeDescr(descr);
  if (!dtype)
    throw fail(`unsupported dtype '${descr}': only little-endian float32 ('<f4') and float64 ('<f8') are read. In Python: np.save(path, arr.astype('<f4')).`, { dtype: descr });
  if (fortran === "True")
    throw fail("Fortran-ordered arrays are not read. In Python: np.save(path, np.ascontiguousarray(arr)).", { fortranOrder: true });
  const shape = shapeText
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => Number(s.replace(/L$/, "")));
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) throw fail(`malformed shape (${shapeText}).`);
  const count = shape.reduce((a, b) => a * b, 1);
  const itemSize = dtype === "<f8" ? 8 : 4;
  const start = preamble + headerLen;
  const need = start + count * itemSize;
  if (bytes.length < need)
    throw fail(`truncated data: shape ${shapeRepr(shape)} of ${dtype} needs ${need} bytes, the file has ${bytes.length}.`, { byteOffset: bytes.length, expectedBytes: need });
  if (bytes.length > need) throw fail(`${bytes.length - need} unexpected bytes after the data (byte ${need} onward).`, { byteOffset: need });
  const body = new DataView(bytes.buffer, bytes.byteOffset + start, count * itemSize);
  const data = dtype === "<f8" ? new Float64Array(count) : new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const v = itemSize === 8 ? body.getFloat64(i * 8, true) : body.getFloat32(i * 4, true);
    // Every .npy this project reads is embedding vectors: NaN or ±Infinity is never a usable value.
    if (!Number.isFinite(v))
      throw new VectorError(`${source}: value ${i} is ${v} (non-finite); embedding vectors must hold finite numbers. Recompute the vector, or in Python find it with np.flatnonzero(~np.isfinite(arr)).`, { details: { source, index: i, value: String(v) } });
    data[i] = v;
  }
  return { dtype, shape, data };
}

function normalizeDescr(descr: string): NpyDtype | undefined {
  // '=' is native order; every platform we run on is little-endian.
  if (descr === "<f4" || descr === "=f4") return "<f4";
  if (descr === "<f8" || descr === "=f8") return "<f8";
  return undefined;
}
