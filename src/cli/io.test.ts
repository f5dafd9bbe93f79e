import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { readInputFile } from "./io.js";

describe("readInputFile: every read bounded", () => {
  it("refuses devices, FIFOs (without blocking), folders and missing files; the limit holds through symlinks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-io-"));
    await expect(readInputFile("/dev/zero", 1024)).rejects.toThrow(/not a regular file/);
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    await expect(readInputFile(fifo, 1024)).rejects.toThrow(/not a regular file/);
    await expect(readInputFile(dir, 1024)).rejects.toThrow(/directory/);
    await expect(readInputFile(join(dir, "nope"), 1024)).rejects.toThrow(InvalidInputError);
    const big = join(dir, "big");
    writeFileSync(big, Buffer.alloc(4096));
    symlinkSync(big, join(dir, "link"));
    await expect(readInputFile(join(dir, "link"), 1024)).rejects.toThrow(/over the 1\.0 KiB limit/);
    symlinkSync("/dev/zero", join(dir, "zero"));
    await expect(readInputFile(join(dir, "zero"), 1024)).rejects.toThrow(/not a regular file/);
    expect((await readInputFile(big, 4096)).length).toBe(4096);
  });
});
