import { mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, ftruncateSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, rpav } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const examples = join(ROOT, "examples/design");
const uiExample = join(examples, "uielement-example.json");
const stateExample = join(examples, "screenstate-complete-example.json");
const write = (name: string, content: string | Uint8Array) => {
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
};
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);

describe("rpav CLI", () => {
  it("prints its version", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const r = rpav(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it("start --no-desktop: the health check and the bundled sample documents, found wherever the command's code lives", () => {
    const r = rpav(["start", "--no-desktop"], { RPAV_HOME: join(tmp, "start-home") });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`ok       ${uiExample} (uielement_v1: button`);
    expect(r.stdout).toContain(`ok       ${stateExample} (screenstate_v1: mode complete`);
  });

  it("validate passes both design examples", () => {
    const r = rpav(["validate", uiExample, stateExample]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ok       " + uiExample + " (uielement_v1: button");
    expect(r.stdout).toContain("(screenstate_v1: mode complete, 1 element(s))");
  });

  it("validate fails a broken variant with exit 1 and every problem by JSON path", () => {
    const el = JSON.parse(readFileSync(uiExample, "utf8"));
    el.bbox = [10, 10, 5];
    el.properties.is_clickable = "yes";
    const bad = write("bad-element.json", JSON.stringify(el));
    const r = rpav(["validate", bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`invalid  ${bad} (uielement_v1, 2 problems):`);
    expect(r.stdout).toMatch(/\$\.bbox: .*/);
    expect(r.stdout).toMatch(/\$\.properties\.is_clickable: Invalid input: expected boolean/);
    noStack(r.stdout + r.stderr);
  });

  it("validate reports JSON output with --json, and keeps going past a bad file", () => {
    const r = rpav(["validate", "--json", write("empty.json", ""), stateExample]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ ok: false, code: "invalid_input" });
    expect(out[0].message).toMatch(/the file is empty/);
    expect(out[1]).toMatchObject({ ok: true, kind: "screenstate_v1" });
  });

  it.each([
    ["malformed JSON", () => write("malformed.json", '{\n "schema_version": "uielement_v1",\n "type": \n}'), /malformed JSON at line 4, column 1/],
    ["a newer version", () => write("newer.json", JSON.stringify({ schema_version: "screenstate_v2" })), /\[schema_version\].*"screenstate_v2" is not one this build reads \(uielement_v1, screenstate_v1, workflow_v1, trace_v1\)/],
    ["a missing file", () => join(tmp, "nope.json"), /nope.json: no such file/],
    ["a directory", () => tmp, /is a directory/],
    ["a non-UTF-8 file", () => write("latin1.json", Uint8Array.from([0x7b, 0xe9, 0x7d])), /not UTF-8 text/],
    ["a truncated .npy", () => write("trunc.npy", readFileSync(join(ROOT, "test/fixtures/npy/truncated.npy"))), /\[npy_format\].*truncated data.*needs 2176 bytes, the file has 1000/],
    ["a .npy of unsupported dtype", () => write("i4.npy", readFileSync(join(ROOT, "test/fixtures/npy/i4.npy"))), /unsupported dtype '<i4'/],
  ])("validate refuses %s with a readable message and exit 1", (_what, file, message) => {
    const r = rpav(["validate", file()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(message);
    noStack(r.stdout + r.stderr);
  });

  it("validate refuses a 50 MB file before reading it, and says how to raise the limit", () => {
    const big = join(tmp, "big.json");
    const fd = openSync(big, "w");
    ftruncateSync(fd, 50 * 1024 * 1024);
    closeSync(fd);
    const r = rpav(["validate", big]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/50\.0 MiB is over the 16\.0 MiB limit.*--max-size 50M/);
    const raised = rpav(["validate", "--max-size", "60M", big]);
    expect(raised.code).toBe(1);
    expect(raised.stdout).toMatch(/malformed JSON|not UTF-8|empty/);
  });

  it("validate reads a .npy written by numpy", () => {
    const r = rpav(["validate", join(ROOT, "test/fixtures/npy/f4-512.npy")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("(npy: <f4, shape (512))");
  });

  it("usage errors exit 2 without a stack trace", () => {
    const r = rpav(["validate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument 'files'/);
    const bad = rpav(["validate", "--max-size", "lots", uiExample]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/error \[invalid_input\]: "lots" is not a size/);
    noStack(bad.stderr);
  });

  it("doctor reports components as JSON and honours RPAV_HOME / --data-dir", () => {
    const home = join(tmp, "home");
    const r = rpav(["doctor", "--json"], { RPAV_HOME: home, DISPLAY: "" });
    expect(r.code).toBe(0);
    const checks = JSON.parse(r.stdout) as Array<{ name: string; status: string; detail: string }>;
    expect(checks.map((c) => c.name)).toEqual(["node", "display", "data directory", "ocr models", "ocr data", "french words", "english words", "sqlite", "postgresql", "models", "element detector", "icon classifier", "vlm grounding", "vlm understanding", "vlm decision", "secrets"]);
    expect(checks.find((c) => c.name === "data directory")?.detail).toContain(home);
    expect(checks.find((c) => c.name === "element detector")).toMatchObject({ status: "ok" });
    expect(checks.find((c) => c.name === "display")).toMatchObject({ status: "missing" });
    expect(checks.find((c) => c.name === "display")?.detail).toMatch(/rpav lab up/);
    const other = join(tmp, "other");
    const r2 = rpav(["--data-dir", other, "doctor", "--json"], { RPAV_HOME: home });
    expect(JSON.parse(r2.stdout).find((c: { name: string }) => c.name === "data directory").detail).toContain(other);
  });

  it("doctor --strict exits 1 when a component is missing", () => {
    const r = rpav(["doctor", "--strict"], { DISPLAY: ":987" });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/MISSING\s+display\s+DISPLAY=:987 but \/tmp\/\.X11-unix\/X987 does not exist/);
  });
});
