#!/usr/bin/env node
// Mechanical check of the dependency direction (DEVELOPERS.md, "Architecture"):
//   core                                   imports nothing of ours
//   capture perception embedding matching store vlm   import core only
//   record replay actor planner lab       import core, the domain folders, and each other
//   cli fleet                              composition roots: may import anything
// Also: src/ never imports from test/, bench/, lab/ or scripts/ (unit tests may use test/support).
// Exit 1 listing every violation as file:line.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const srcRoot = process.argv[2] ? resolve(process.argv[2]) : join(root, "src");

const DOMAIN = ["capture", "platform", "perception", "embedding", "matching", "store", "vlm"];
const APP = ["record", "replay", "actor", "planner", "studio", "lab"];
const ROOTS = ["cli", "fleet"];
const ALLOWED = {
  core: [],
  ...Object.fromEntries(DOMAIN.map((d) => [d, ["core"]])),
  ...Object.fromEntries(APP.map((d) => [d, ["core", ...DOMAIN, ...APP]])),
  ...Object.fromEntries(ROOTS.map((d) => [d, null])), // null: anything under src/
};

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else if (/\.(ts|mts|js|mjs)$/.test(name)) yield p;
  }
}

const IMPORT_RE = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

export function checkLayers(dir) {
  const violations = [];
  for (const file of walk(dir)) {
    const rel = relative(dir, file).split(sep);
    const layer = rel.length > 1 ? rel[0] : "(top)";
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith(".")) continue; // packages and node: built-ins are not layers
      const line = text.slice(0, m.index).split("\n").length;
      const target = resolve(dirname(file), spec);
      const inSrc = relative(dir, target);
      const where = `${relative(root, file)}:${line}`;
      if (inSrc.startsWith("..")) {
        if (/\.test\.[cm]?[jt]s$/.test(file)) continue; // unit tests may use test/support helpers
        violations.push(`${where}: imports ${spec}, outside src/ (src must not depend on tests, benches, lab or scripts)`);
        continue;
      }
      const targetLayer = inSrc.split(sep)[0];
      if (targetLayer === layer) continue;
      // Unit tests choose concrete providers, like the composition roots; outer layers stay off limits.
      if (/\.test\.[cm]?[jt]s$/.test(file) && !["cli", "fleet"].includes(targetLayer)) continue;
      if (!(layer in ALLOWED)) {
        violations.push(`${where}: file in unknown layer "${layer}"; add it to scripts/check-layers.mjs`);
        continue;
      }
      const allowed = ALLOWED[layer];
      if (allowed !== null && !allowed.includes(targetLayer))
        violations.push(`${where}: ${layer} may not import ${targetLayer} (${spec}); allowed: ${allowed.length ? allowed.join(", ") : "nothing of ours"}`);
    }
  }
  return violations;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const v = checkLayers(srcRoot);
  if (v.length > 0) {
    process.stderr.write(`Layer check failed (${v.length}):\n${v.map((x) => `  ${x}`).join("\n")}\n`);
    process.exit(1);
  }
  process.stdout.write(`layers ok (${relative(root, srcRoot) || "."})\n`);
}
