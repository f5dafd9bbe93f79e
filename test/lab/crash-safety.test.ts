// Crash safety on a real app (#20 item 7): `rpav record` and `rpav replay` killed with SIGKILL at
// seeded random moments; everything they left is accepted by its reader and its commands:
// sessions by the reader, `rpav validate` and `rpav build`, traces by the reader, `rpav validate` and
// `rpav report`, and
// `rpav replay --resume` finishes a killed run. Five kills of each here; twenty and more in
// `npm run bench -- crash-safety` (test/support/kill-loop.ts holds both).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../src/core/bezier-path.js";
import { closeForms, recordTrial, replayTrial, type RecordTrial, type ReplayTrial } from "../support/kill-loop.js";
import { labKit } from "./support.js";

const kit = labKit();
const data = mkdtempSync(join(tmpdir(), "rpav-kill-lab-"));
afterAll(async () => {
  closeForms(kit.env);
  await kit.cleanup();
});

describe("kill -9 at random moments leaves only what the readers accept", () => {
  it("rpav record killed 5 times: every session is read, no announced action is lost, the last one builds", async () => {
    const rnd = seededRandom(2026);
    const trials: RecordTrial[] = [];
    for (let i = 0; i < 5; i++) trials.push(await recordTrial(kit.env, data, join(data, "sessions", `s${i}`), rnd, { killAfterMs: Math.round(300 + rnd() * 6000), build: i === 4 }));
    expect(trials.filter((t) => t.killed)).toHaveLength(5);
    for (const t of trials) {
      if (!t.left) continue;
      expect(t.readerError, JSON.stringify(t)).toBeUndefined();
      expect(t.readerOk).toBe(true);
      expect(t.lostAnnounced, JSON.stringify(t)).toBe(0);
      expect(t.validate, JSON.stringify(t)).toBe("ok");
    }
    expect(trials.filter((t) => t.left).length).toBeGreaterThanOrEqual(4);
    const built = trials.filter((t) => t.build !== undefined);
    for (const t of built) expect(t.build, t.buildOutput).toBe("ok");
  }, 600_000);

  it("rpav replay killed 5 times: every trace is read and reported, and a killed run resumes to the end", async () => {
    const rnd = seededRandom(77);
    const trials: ReplayTrial[] = [];
    // Killed at a point of the run's progress (its trace's line count), not at a time: a fast machine
    // would finish the run before a fixed moment. A run of the demo writes about 30 lines.
    for (let i = 0; i < 5; i++) trials.push(await replayTrial(kit.env, data, join(data, "runs", `r${i}`), { killAfterMs: 300_000, killAfterLines: i === 4 ? 12 : 2 + Math.floor(rnd() * 18), resume: i === 4 }));
    for (const t of trials) {
      if (!t.left) continue;
      expect(t.readerError, JSON.stringify(t)).toBeUndefined();
      expect(t.report, JSON.stringify(t)).toBe("ok");
      expect(t.validate, JSON.stringify(t)).toBe("ok");
    }
    expect(trials.filter((t) => t.left && t.killed).length).toBeGreaterThanOrEqual(3);
    const resumed = trials.filter((t) => t.resume !== undefined);
    expect(resumed, "the resumed trial left a trace").toHaveLength(1);
    // Killed mid-run, it must go on to the end; ended before the kill, there is nothing to resume.
    for (const t of resumed) expect(t.resume, t.resumeOutput).toBe(t.killed ? "passed" : "nothing_to_resume");
  }, 900_000);
});
