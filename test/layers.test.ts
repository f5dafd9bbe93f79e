import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { checkLayers } from "../scripts/check-layers.mjs";
import { ROOT } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-layers-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmp, "src-"));
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

describe("dependency direction", () => {
  it("the project's own src/ follows the layer rules", () => {
    expect(checkLayers(join(ROOT, "src"))).toEqual([]);
  });

  it("flags core importing another folder of ours", () => {
    const dir = tree({ "core/a.ts": 'import { x } from "../store/b.js";\n', "store/b.ts": "export const x = 1;\n" });
    const v: string[] = checkLayers(dir);
    expect(v).toHaveLength(1);
    expect(v[0]).toMatch(/core\/a\.ts:1: core may not import store/);
  });

  it("flags a domain folder importing an outer layer or a sibling, and src importing tests", () => {
    const dir = tree({
      "perception/p.ts": 'import "../cli/main.js";\nimport type { S } from "../store/s.js";\nexport * from "../../test/x.js";\n',
      "cli/main.ts": 'import "../perception/p.js";\n',
      "store/s.ts": 'import { e } from "../core/e.js";\n',
      "core/e.ts": "export const e = 1;\n",
    });
    const v: string[] = checkLayers(dir);
    expect(v.map((s) => s.replace(/^.*src-\w+\//, ""))).toEqual([
      expect.stringMatching(/^perception\/p\.ts:1: perception may not import cli/),
      expect.stringMatching(/^perception\/p\.ts:2: perception may not import store/),
      expect.stringMatching(/^perception\/p\.ts:3: imports .*outside src/),
    ]);
  });

  it("lets replay use domain folders and cli use anything", () => {
    const dir = tree({
      "replay/r.ts": 'import { m } from "../matching/m.js";\nimport { e } from "../core/e.js";\n',
      "matching/m.ts": 'import { e } from "../core/e.js";\nexport const m = e;\n',
      "core/e.ts": "export const e = 1;\n",
      "cli/c.ts": 'import "../replay/r.js";\n',
    });
    expect(checkLayers(dir)).toEqual([]);
  });
});
