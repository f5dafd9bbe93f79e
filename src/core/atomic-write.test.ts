import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFileAtomic, writeFileAtomicSync } from "./atomic-write.js";

const dir = mkdtempSync(join(tmpdir(), "rpav-atomic-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("atomic writes", () => {
  it("replace a file whole, with the mode asked even over another one, and leave no temporary file", async () => {
    const a = join(dir, "a.json");
    writeFileSync(a, "old", { mode: 0o644 });
    writeFileAtomicSync(a, "new", { mode: 0o600 });
    expect(readFileSync(a, "utf8")).toBe("new");
    expect(statSync(a).mode & 0o777).toBe(0o600);
    await writeFileAtomic(a, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(a)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(["a.json"]);
  });

  it("many writes of one file at once: one of them wins whole", async () => {
    const b = join(dir, "b.txt");
    const texts = Array.from({ length: 20 }, (_, i) => String(i).repeat(10_000));
    await Promise.all(texts.map((t) => writeFileAtomic(b, t)));
    expect(texts).toContain(readFileSync(b, "utf8"));
    expect(readdirSync(dir).filter((f) => f.startsWith("b.txt"))).toEqual(["b.txt"]);
  });

  it("a write that fails keeps the old content and leaves no temporary file", async () => {
    const sub = join(dir, "ro");
    mkdirSync(sub);
    const c = join(sub, "c.txt");
    writeFileSync(c, "kept");
    // A folder in the file's place: the rename fails after the temporary file was written.
    const d = join(sub, "d");
    mkdirSync(join(d, "x"), { recursive: true });
    expect(() => writeFileAtomicSync(d, "lost")).toThrow();
    await expect(writeFileAtomic(d, "lost")).rejects.toThrow();
    expect(readdirSync(sub).sort()).toEqual(["c.txt", "d"]);
    if (process.getuid?.() !== 0) {
      chmodSync(sub, 0o500);
      expect(() => writeFileAtomicSync(c, "new")).toThrow();
      chmodSync(sub, 0o700);
    }
    expect(readFileSync(c, "utf8")).toBe("kept");
  });
});
