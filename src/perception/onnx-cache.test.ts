import { mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readImageFile } from "../capture/png.js";
import { optimizedGraphFile } from "./onnx-cache.js";
import { PpOcr } from "./ppocr-ocr.js";

const SCREEN = join(import.meta.dirname, "..", "..", "test", "fixtures", "ui-detector", "screen.png");

describe("optimised graphs kept between runs", () => {
  it("are keyed by the model's bytes", () => {
    const dir = "/tmp/x";
    const a = optimizedGraphFile(dir, Uint8Array.from([1, 2, 3]), "m");
    expect(a).toBe(optimizedGraphFile(dir, Uint8Array.from([1, 2, 3]), "m"));
    expect(a).not.toBe(optimizedGraphFile(dir, Uint8Array.from([1, 2, 4]), "m"));
    expect(a.startsWith(join(dir, "m-"))).toBe(true);
  });

  it("PP-OCR writes them once, reads the same text through them, and optimises again over a damaged one", async () => {
    const frame = await readImageFile(SCREEN);
    const read = async (o: { cacheDir?: string; workers?: number }) => {
      const pp = await PpOcr.create(o);
      try {
        return (await pp.recognize(frame)).lines.map((l) => `${l.text}@${l.bbox.join(",")}`);
      } finally {
        await pp.close();
      }
    };
    const cache = mkdtempSync(join(tmpdir(), "rpav-graphs-"));
    const plain = await read({});
    expect(plain.length).toBeGreaterThan(5);
    expect(await read({ cacheDir: cache })).toEqual(plain); // written
    const kept = readdirSync(cache).sort();
    expect(kept.map((f) => f.replace(/-[0-9a-f]+\.ort\.onnx$/, ""))).toEqual(["ppocr-det", "ppocr-rec"]);
    const inodes = kept.map((f) => statSync(join(cache, f)).ino);
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    for (const f of kept) utimesSync(join(cache, f), monthAgo, monthAgo);
    expect(await read({ cacheDir: cache })).toEqual(plain); // read back, not written again (the same files)…
    expect(kept.map((f) => statSync(join(cache, f)).ino)).toEqual(inodes);
    // …and dated by that use, so that rpav gc keeps them.
    for (const f of kept) expect(statSync(join(cache, f)).mtimeMs).toBeGreaterThan(Date.now() - 86_400_000);
    for (const f of kept) writeFileSync(join(cache, f), "not a graph");
    expect(await read({ cacheDir: cache })).toEqual(plain); // the damaged graphs are set aside
    expect(await read({ cacheDir: cache, workers: 0 })).toEqual(plain); // the recognizer on the calling thread too
    const again = readdirSync(cache).sort();
    expect(again.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    for (const f of again) expect(statSync(join(cache, f)).size).toBeGreaterThan(1000);
  }, 120_000);
});
