// How many lab desktops the lab tests use, and where: display :97 (or $RPAV_TEST_DISPLAY when several checkouts test
// at once) and the next ones, one per worker ($RPAV_TEST_LABS, default 2); a developer's lab on :99 is left alone.
// Lab tests spend most of their time waiting on apps, pointer paths and typing delays (the actor's file: 60 s of CPU
// in 250 s), so desktops side by side shorten the lab run. Each test file claims a free desktop (`claimDesktop`): the
// worker's VITEST_POOL_ID is no desktop number once the unit project has run in the same `vitest run` (both lab workers
// were numbered 1 there, so two files drove one desktop — the failures `.ci/run` showed with several desktops).

import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pidAlive } from "../../src/core/process.js";

export const LAB_DISPLAY = Number(process.env.RPAV_TEST_DISPLAY ?? 97);
export const LAB_COUNT = Math.max(1, Math.floor(Number(process.env.RPAV_TEST_LABS ?? 2)) || 1);
const DEVELOPER_DISPLAY = 99;

/** The displays of the lab desktops, the first one being the worker 1's. */
export function labDisplays(): number[] {
  const out: number[] = [];
  for (let d = LAB_DISPLAY; out.length < LAB_COUNT; d++) if (d !== DEVELOPER_DISPLAY || d === LAB_DISPLAY) out.push(d);
  return out;
}

/** The file that says which process drives a lab desktop now. */
export const claimFile = (display: string): string => join(tmpdir(), `rpav-test-lab-${display.replace(/\W/g, "")}.claim`);

/**
 * Writes the claim; a claim whose process is gone, or is this one (a file before that did not release it), is taken over.
 * The claim appears whole or not at all (written aside, then linked into place: `link` fails when the claim exists):
 * written in place with `wx`, a file another process created but had not yet written read as no owner, and two files
 * starting at once both took the first desktop (CI runs with a form typed twice, windows of another file on the screen).
 */
function tryClaim(file: string): boolean {
  const mine = `${file}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(mine, file);
        return true;
      } catch {
        let owner: number | undefined;
        try {
          owner = Number(readFileSync(file, "utf8").trim());
        } catch {
          continue; // released meanwhile: try again
        }
        if (owner !== process.pid && pidAlive(owner)) return false;
        rmSync(file, { force: true });
      }
    }
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * A desktop no other test process drives, claimed for this one until `release` (or its exit): one test file at a time
 * per desktop, whatever the worker's number. A claim left by a process that is gone is taken over. Waits while all are
 * taken (the lab project runs at most as many files at once as there are desktops, so one is freed soon).
 */
export function claimDesktop<D extends { display: string }>(desktops: readonly D[], timeoutMs = 300_000): { desktop: D; release: () => void } {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const desktop of desktops) {
      const file = claimFile(desktop.display);
      if (!tryClaim(file)) continue;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (Number(readFileSync(file, "utf8").trim()) === process.pid) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      };
      process.on("exit", release);
      return { desktop, release };
    }
    if (Date.now() > deadline) throw new Error(`no lab desktop free within ${timeoutMs / 1000} s (claims in ${tmpdir()}/rpav-test-lab-*.claim)`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}
