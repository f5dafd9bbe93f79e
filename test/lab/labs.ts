// How many lab desktops the lab tests use, and where: display :97 (or $RPAV_TEST_DISPLAY when several checkouts test
// at once) and the next ones, one per worker ($RPAV_TEST_LABS, default 1); a developer's lab on :99 is left alone.
// Lab tests spend most of their time waiting on apps, pointer paths and typing delays (the actor's file: 60 s of CPU
// in 250 s), so desktops side by side shorten the lab run: on this machine, 22 files in 1,102 s one at a time, 639 s
// on two desktops, 484–508 s on three, all passing (2026-12-06). But `.ci/run` on a clean clone with three desktops
// failed twice (19–22 tests: windows not activated in 3 s, first keys lost, OCR reading nothing) where the files that
// replay and read the screen started together on the two cores; the cause was not pinned down, so CI keeps one.

export const LAB_DISPLAY = Number(process.env.RPAV_TEST_DISPLAY ?? 97);
export const LAB_COUNT = Math.max(1, Math.floor(Number(process.env.RPAV_TEST_LABS ?? 1)) || 1);
const DEVELOPER_DISPLAY = 99;

/** The displays of the lab desktops, the first one being the worker 1's. */
export function labDisplays(): number[] {
  const out: number[] = [];
  for (let d = LAB_DISPLAY; out.length < LAB_COUNT; d++) if (d !== DEVELOPER_DISPLAY || d === LAB_DISPLAY) out.push(d);
  return out;
}
