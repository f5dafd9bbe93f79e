// A screen state's zoom-pyramid crops (data/embeddings/screens/state_<view>/<id>.npy) are not named by the
// screenstate_v1 document: imported, they take the provider of that screen state's fused vector.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeNpy } from "../../src/core/npy.js";
import { importFolder } from "../../src/store/interchange.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { seedDocuments } from "../support/fuzz-corpus.js";

const work = mkdtempSync(join(tmpdir(), "rpav-interchange-views-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("store import of a screen state's crop vectors", () => {
  it("gives a crop the provider of its screen state's fused vector, and an unrelated vector the default", async () => {
    const folder = join(work, "in");
    const state = seedDocuments().screenstate_v1 as { state_embedding: { provider: string; vector_id: string } };
    const whole = state.state_embedding.vector_id;
    const crop = whole.replace("/state/", "/state_top_2/");
    const stray = whole.replace("/state/", "/state_top_2/").replace("screen_", "other_");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "state.json"), JSON.stringify(state));
    for (const id of [whole, crop, stray]) {
      mkdirSync(join(folder, dirname(id)), { recursive: true });
      writeFileSync(join(folder, id), encodeNpy(Float32Array.from([1, 0, 0, 1])));
    }
    const store = SqliteStore.open(join(work, "home"));
    try {
      const r = await importFolder(store, folder);
      expect(r.skipped).toEqual([]);
      expect((await store.getVector(whole))?.provider).toBe(state.state_embedding.provider);
      expect((await store.getVector(crop))?.provider).toBe(state.state_embedding.provider);
      expect((await store.getVector(stray))?.provider).toBe("unknown");
    } finally {
      await store.close();
    }
  });
});
