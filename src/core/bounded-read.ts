// Bounded reads of input files: regular files only (devices, FIFOs and sockets refused before any
// read; a FIFO is opened without blocking), and a size limit that holds while reading, not only
// from stat (0 for a device; a file may grow). Symbolic links are followed under the same rules.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { InvalidInputError } from "./errors.js";

export function formatBytes(n: number): string {
  if (n >= 1048576) return `${(n / 1048576).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

function openError(path: string, e: unknown): InvalidInputError {
  const code = (e as NodeJS.ErrnoException).code;
  return new InvalidInputError(`${path}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "is a directory; give a file" : code === "ELOOP" ? "too many symbolic links" : code === "ENOTDIR" ? "a part of the path is not a folder" : `cannot read (${code ?? String(e)})`}.`, {
    cause: e,
    details: { source: path },
  });
}

function tooBig(path: string, size: number, known: boolean, maxBytes: number): InvalidInputError {
  return new InvalidInputError(`${path}: ${known ? formatBytes(size) : `more than ${formatBytes(maxBytes)}`} is over the ${formatBytes(maxBytes)} limit for one document. If the file is really meant to be this big, pass --max-size ${Math.ceil(Math.max(size, maxBytes + 1) / 1048576)}M.`, {
    details: { source: path, size, maxBytes },
  });
}

function checkKind(path: string, st: { isDirectory(): boolean; isFile(): boolean; size: number }, maxBytes: number): void {
  if (st.isDirectory()) throw new InvalidInputError(`${path}: is a directory; give a file.`, { details: { source: path } });
  if (!st.isFile()) throw new InvalidInputError(`${path}: is not a regular file (a device, FIFO or socket); give a file.`, { details: { source: path } });
  if (st.size > maxBytes) throw tooBig(path, st.size, true, maxBytes);
}

/** Reads a whole regular file of at most `maxBytes`; typed errors otherwise. */
export async function readBoundedFile(path: string, maxBytes: number): Promise<Buffer> {
  let fh: FileHandle;
  try {
    fh = await open(path, FLAGS);
  } catch (e) {
    throw openError(path, e);
  }
  try {
    checkKind(path, await fh.stat(), maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooBig(path, total, false, maxBytes);
    }
    return Buffer.concat(chunks, total);
  } finally {
    await fh.close();
  }
}

/** The same, synchronously. */
export function readBoundedFileSync(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    throw openError(path, e);
  }
  try {
    checkKind(path, fstatSync(fd), maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > maxBytes) throw tooBig(path, total, false, maxBytes);
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/**
 * Decodes UTF-8 text the way every reader of this project does: invalid UTF-8 is a typed error,
 * and a leading byte-order mark (written by some Windows editors) is dropped.
 */
export function decodeUtf8Text(bytes: Uint8Array, source: string): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    throw new InvalidInputError(`${source}: not UTF-8 text; save it as UTF-8.`, { cause: e, details: { source } });
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A bounded read of a UTF-8 text file (see decodeUtf8Text). */
export async function readBoundedText(path: string, maxBytes: number): Promise<string> {
  return decodeUtf8Text(await readBoundedFile(path, maxBytes), path);
}
