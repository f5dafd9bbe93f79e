import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { contentHash } from "../core/ids.js";
import { ContentFiles } from "./content-files.js";

const root = mkdtempSync(join(tmpdir(), "rpav-content-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("content-addressed files", () => {
  it("stores bytes once under their sha256 and reads them back", async () => {
    const files = new ContentFiles(root);
    const bytes = new TextEncoder().encode("fake png bytes");
    const a = await files.put(bytes);
    const b = await files.put(bytes);
    expect(a).toEqual(b);
    expect(a.hash).toBe(contentHash(bytes));
    expect(a.path).toBe(join(root, a.hash.slice(0, 2), `${a.hash}.png`));
    expect(new Uint8Array((await files.get(a.hash)) ?? [])).toEqual(bytes);
    expect(await files.get("0".repeat(64))).toBeUndefined();
    expect(() => files.pathOf("../../etc/passwd")).toThrow(InvalidInputError);
  });
});
