// Entry point: `npm run bench -- <name>` runs bench/<name>/run.ts; no name lists the benches.
import { readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(here, d.name, "run.ts"))).map((d) => d.name);
const which = process.argv.slice(2);
if (which.length === 0) {
  console.log(`benches: ${names.join(", ")}\nrun one with: npm run bench -- <name>`);
} else {
  for (const name of which) {
    if (!names.includes(name)) {
      console.error(`unknown bench "${name}"; known: ${names.join(", ")}`);
      process.exit(2);
    }
    console.log(`== bench ${name}`);
    await import(pathToFileURL(join(here, name, "run.ts")).href);
  }
}
