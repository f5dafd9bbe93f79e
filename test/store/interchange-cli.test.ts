import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { encodeNpy } from "../../src/core/npy.js";
import type { ScreenState } from "../../src/core/schemas/screenstate.js";
import { ROOT, rpav } from "../support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-interchange-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder in the Python system's layout: the design's screen state and its six vectors. */
function pythonFolder(): { dir: string; state: ScreenState; vectors: Map<string, Uint8Array> } {
  const dir = join(tmp, "python");
  const state = JSON.parse(readFileSync(join(ROOT, "examples/design/screenstate-complete-example.json"), "utf8")) as ScreenState;
  const ids = [state.state_embedding.vector_id, ...Object.values(state.state_embedding.components ?? {}).map((c) => (c as { vector_id: string }).vector_id)];
  const vectors = new Map<string, Uint8Array>();
  ids.forEach((id, k) => {
    const bytes = encodeNpy(Float32Array.from({ length: 512 }, (_, i) => Math.sin(i + k)));
    mkdirSync(dirname(join(dir, id)), { recursive: true });
    writeFileSync(join(dir, id), bytes);
    vectors.set(id, bytes);
  });
  mkdirSync(join(dir, "data", "states"), { recursive: true });
  writeFileSync(join(dir, "data", "states", "screen.json"), JSON.stringify(state));
  writeFileSync(join(dir, "data", "embeddings", "broken.npy"), Buffer.from("this is not numpy data at all"));
  return { dir, state, vectors };
}

describe("rpav store import / export", () => {
  it.each(["sqlite", "postgres"])("moves the design layout through the %s store byte-for-byte", (kind) => {
    const { dir, state, vectors } = pythonFolder();
    const home = join(tmp, `home-${kind}`);
    const storeArgs = kind === "postgres" ? ["--store", "postgres", "--pg-url", inject("pgUrl")] : [];
    const env = { RPAV_PG_SCHEMA: `interchange_${process.pid}` };
    const imp = rpav(["--data-dir", home, ...storeArgs, "store", "import", dir], env);
    // The broken .npy is reported (exit 1) but does not stop the rest.
    expect(imp.code).toBe(1);
    expect(imp.stdout).toMatch(/imported into .*: 1 screen states, 0 elements, 6 vectors/);
    expect(imp.stdout).toMatch(/skipped {2}.*broken\.npy: not a \.npy file/);
    const out = join(tmp, `export-${kind}`);
    const exp = rpav(["--data-dir", home, ...storeArgs, "store", "export", out], env);
    expect(exp.code).toBe(0);
    expect(exp.stdout).toMatch(/1 screen states, 0 elements, 6 vectors/);
    for (const [id, bytes] of vectors) expect(new Uint8Array(readFileSync(join(out, id)))).toEqual(bytes);
    expect(JSON.parse(readFileSync(join(out, "data", "states", `${state.screen_state_id}.json`), "utf8"))).toEqual(state);
  });

  it("--store postgres without a URL is a configuration error saying what to do", () => {
    const r = rpav(["--store", "postgres", "store", "export", join(tmp, "x")], { RPAV_PG_URL: "" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error \[invalid_config\]: --store postgres needs --pg-url or RPAV_PG_URL/);
  });
});
