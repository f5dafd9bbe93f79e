import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./main.js";

function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return runCli(["node", "rpav", ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: {} }).then((code) => ({ code, out: out.join(""), err: err.join("") }));
}

describe("data at rest", () => {
  it("narrows an existing data directory to 0700, writes files 0600, and refuses a data dir that is a file", async () => {
    const root = mkdtempSync(join(tmpdir(), "rpav-rest-"));
    const data = join(root, "data");
    mkdirSync(data, { mode: 0o755 });
    const doc = join(root, "doc.json");
    writeFileSync(doc, "{}");
    const r = await cli(["--data-dir", data, "validate", doc]);
    expect(r.code).toBe(1);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    writeFileSync(join(data, "probe"), "x");
    expect(statSync(join(data, "probe")).mode & 0o777).toBe(0o600);
    const bad = await cli(["--data-dir", doc, "validate", doc]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/is not a folder/);
  });
});
