// Dependency direction (guide, "Architecture"), enforced by dependency-cruiser in `npm run lint`.
// It resolves every import form TypeScript knows (static, `export … from`, `import type`,
// dynamic `import()`, `require`), relative or not, through tsconfig.json.
//   core                                              imports nothing of ours
//   capture perception embedding matching store vlm   import core only
//   platform/<name>                                   imports core and its own platform only
//   record replay actor planner studio                import core, the domain folders and each other
//   cli fleet                                         composition roots: anything but src/lab
//   lab (ground truth: AT-SPI, DOM, generator data)   test and bench tooling: nothing of the product imports it
// src/ never imports test/, bench/, lab/ or scripts/ (unit tests may use test/support).
// Unit tests (x.test.ts) pick concrete providers like a composition root, but never cli or fleet.
const DOMAIN = "capture|perception|embedding|matching|store|vlm";
const APP = "record|replay|actor|planner|studio";
const KNOWN = `core|${DOMAIN}|platform|${APP}|cli|fleet|lab`;
const TEST = "\\.test\\.[cm]?[jt]s$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-imports-nothing",
      comment: "src/core imports nothing of ours.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^src/", pathNot: "^src/core/" },
    },
    {
      name: "domain-imports-core-only",
      comment: "A domain folder (capture, perception, embedding, matching, store, vlm) imports core and itself only.",
      severity: "error",
      from: { path: `^src/(${DOMAIN})/`, pathNot: TEST },
      to: { path: "^src/", pathNot: ["^src/core/", "^src/$1/"] },
    },
    {
      name: "platform-imports-core-only",
      comment: "src/platform/<name> imports core and its own platform only.",
      severity: "error",
      from: { path: "^src/platform/([^/]+)/", pathNot: TEST },
      to: { path: "^src/", pathNot: ["^src/core/", "^src/platform/$1/"] },
    },
    {
      name: "only-cli-touches-a-platform",
      comment: "Only the composition root (src/cli) and the lab tooling pick a platform; everything else sees the interfaces of src/core/providers.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/(cli|fleet|lab|platform)/", TEST] },
      to: { path: "^src/platform/" },
    },
    {
      name: "app-imports-core-and-domains",
      comment: "record, replay, actor, planner and studio import core, the domain folders and each other.",
      severity: "error",
      from: { path: `^src/(${APP})/`, pathNot: TEST },
      to: { path: "^src/", pathNot: `^src/(core|${DOMAIN}|${APP})/` },
    },
    {
      name: "product-never-imports-lab",
      comment: "src/lab is ground-truth tooling for tests and benches: product code never imports it.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/lab/" },
      to: { path: "^src/lab/" },
    },
    {
      name: "tests-never-import-composition-roots",
      comment: "A unit test next to a layer does not reach the CLI.",
      severity: "error",
      from: { path: `^src/(?!cli/|fleet/|lab/).*${TEST}` },
      to: { path: "^src/(cli|fleet)/" },
    },
    {
      name: "src-never-imports-outside",
      comment: "src/ does not depend on tests, benches, the lab scripts or scripts/ (unit tests may use test/support).",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|bench|lab|scripts)/", pathNot: "^test/support/" },
    },
    {
      name: "src-never-imports-test-support-outside-tests",
      severity: "error",
      from: { path: "^src/", pathNot: TEST },
      to: { path: "^test/" },
    },
    {
      name: "unknown-layer",
      comment: "Every folder of src/ is a known layer: add a new one to .dependency-cruiser.cjs.",
      severity: "error",
      from: { path: "^src/", pathNot: `^src/(${KNOWN})/` },
      to: {},
    },
    {
      name: "not-to-unresolvable",
      comment: "A relative import that resolves to nothing is a typo or a missing file (missing npm packages are the compiler's and npm's business).",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true, path: "^\\." },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|node_modules|coverage|scratch)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".js", ".mjs", ".cjs", ".json"] },
  },
};
