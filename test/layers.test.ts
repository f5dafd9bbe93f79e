// The layer rules of .dependency-cruiser.cjs (run by `npm run lint`): the project follows them,
// and each rule catches a violation written in every import form (so the check can fail).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";

const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const BIN = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const tmp = mkdtempSync(join(tmpdir(), "rpav-layers-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Violation {
  rule: string;
  from: string;
  to: string;
}

function cruise(cwd: string): Violation[] {
  const r = spawnSync(process.execPath, [BIN, "src", "--config", CONFIG, "--output-type", "json"], { cwd, encoding: "utf8", timeout: 120_000, maxBuffer: 64 << 20 });
  if (!r.stdout) throw new Error(`dependency-cruiser printed nothing: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return out.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to })).sort((a, b) => `${a.from} ${a.rule}`.localeCompare(`${b.from} ${b.rule}`));
}

/** A project of its own (tsconfig + files) to run the real rules on. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmp, "p-"));
  const all = { "tsconfig.json": JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", allowJs: true }, include: ["src", "test", "bench"] }), ...files };
  for (const [p, content] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

const leaf = "export const x = 1;\n";

describe("dependency direction (dependency-cruiser)", () => {
  it("the project's own src/ follows the layer rules", () => {
    expect(cruise(ROOT)).toEqual([]);
  });

  it("catches each rule, whatever the import form", () => {
    const dir = tree({
      "src/core/a.ts": 'import { x } from "../store/b.js";\nexport const a = x;\n',
      "src/store/b.ts": leaf,
      "src/perception/p.ts": 'import type { x } from "../embedding/e.js";\nexport type P = typeof x;\nexport const later = () => import("../cli/main.js");\n',
      "src/embedding/e.ts": 'export { x } from "../platform/x11/w.js";\n',
      "src/platform/x11/w.ts": 'import "../win32/v.js";\nexport const x = 1;\n',
      "src/platform/win32/v.ts": leaf,
      "src/replay/r.ts": 'import { x } from "../lab/atspi.js";\nimport { y } from "../platform/x11/w.js";\nexport const r = [x, y];\n',
      "src/record/s.ts": 'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\nexport const s = require("../../bench/helper.js");\n',
      "src/cli/main.ts": 'import { x } from "../lab/atspi.js";\nexport const m = x;\n',
      "src/lab/atspi.ts": 'import { w } from "../platform/x11/w.js";\nexport const x = w;\n',
      "src/widgets/u.ts": 'import { x } from "../core/c.js";\nexport const u = x;\n',
      "src/core/c.ts": leaf,
      "src/core/d.ts": 'import { q } from "./missing.js";\nexport const d = q;\n',
      "bench/helper.js": leaf,
    });
    const v = cruise(dir);
    const has = (rule: string, from: string, to: string) => expect(v).toContainEqual({ rule, from, to });
    has("core-imports-nothing", "src/core/a.ts", "src/store/b.ts");
    has("domain-imports-core-only", "src/perception/p.ts", "src/embedding/e.ts"); // import type
    has("domain-imports-core-only", "src/perception/p.ts", "src/cli/main.ts"); // dynamic import()
    has("domain-imports-core-only", "src/embedding/e.ts", "src/platform/x11/w.ts"); // export … from
    has("only-cli-touches-a-platform", "src/embedding/e.ts", "src/platform/x11/w.ts");
    has("platform-imports-core-only", "src/platform/x11/w.ts", "src/platform/win32/v.ts"); // bare import
    has("product-never-imports-lab", "src/replay/r.ts", "src/lab/atspi.ts");
    has("product-never-imports-lab", "src/cli/main.ts", "src/lab/atspi.ts");
    has("app-imports-core-and-domains", "src/replay/r.ts", "src/platform/x11/w.ts");
    has("app-imports-core-and-domains", "src/replay/r.ts", "src/lab/atspi.ts");
    has("only-cli-touches-a-platform", "src/replay/r.ts", "src/platform/x11/w.ts");
    has("src-never-imports-outside", "src/record/s.ts", "bench/helper.js"); // require()
    has("unknown-layer", "src/widgets/u.ts", "src/core/c.ts");
    has("not-to-unresolvable", "src/core/d.ts", "./missing.js");
    // The lab tooling may use the platform; nothing else in the tree is a violation.
    expect(v.filter((x) => x.from === "src/lab/atspi.ts")).toEqual([]);
    expect(v).toHaveLength(14);
  });

  it("lets replay use domain folders, cli use anything but the lab, and unit tests use test/support", () => {
    const dir = tree({
      "src/replay/r.ts": 'import { m } from "../matching/m.js";\nimport { e } from "../core/e.js";\nimport { s } from "../record/s.js";\nexport const r = [m, e, s];\n',
      "src/record/s.ts": leaf.replace("x", "s"),
      "src/matching/m.ts": 'import { e } from "../core/e.js";\nexport const m = e;\n',
      "src/matching/m.test.ts": 'import { f } from "../../test/support/f.js";\nimport { p } from "../platform/x11/p.js";\nexport const t = [f, p];\n',
      "src/platform/x11/p.ts": 'import { e } from "../../core/e.js";\nexport const p = e;\n',
      "src/core/e.ts": "export const e = 1;\n",
      "src/cli/c.ts": 'import "../replay/r.js";\nimport "../platform/x11/p.js";\n',
      "test/support/f.ts": "export const f = 1;\n",
    });
    expect(cruise(dir)).toEqual([]);
  });
});
