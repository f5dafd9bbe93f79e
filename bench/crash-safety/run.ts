// Crash safety bench (#20 item 7): `rpav record` and `rpav replay` killed with SIGKILL at seeded
// random moments on a real yad form, RPAV_KILLS times each (default 20); every session and trace
// left is read back (session reader, `rpav validate` + `rpav build`; trace reader, `rpav validate` + `rpav report`), and every
// RPAV_RESUME_EVERY-th replay trial (default 4) is resumed with `rpav replay --resume`.
// Prints the counts and writes bench/results/crash-safety.json.
// Run: npm run bench -- crash-safety     (lab on $RPAV_TEST_DISPLAY as a number, default 72; needs `npm run build`;
//      RPAV_KILL_WHAT=record|replay for one half, RPAV_REPLAY_KILL_MAX_MS for the latest replay kill, default 11000)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "../../src/core/bezier-path.js";
import { labDown, labStatus, labUp } from "../../src/platform/x11/desktop-lab.js";
import { recordTrial, replayTrial, type RecordTrial, type ReplayTrial } from "../../test/support/kill-loop.js";
import { writeResult } from "../lib.js";

const kills = Number(process.env.RPAV_KILLS ?? 20);
const resumeEvery = Number(process.env.RPAV_RESUME_EVERY ?? 4);
const seed = Number(process.env.RPAV_KILL_SEED ?? 7);
const display = Number(process.env.RPAV_TEST_DISPLAY ?? 72);
/** "record", "replay" or both (default). */
const what = process.env.RPAV_KILL_WHAT ?? "both";
/** Latest kill moment of a replay: the demo's run takes 12–26 s on 2 loaded cores. */
const replayMaxMs = Number(process.env.RPAV_REPLAY_KILL_MAX_MS ?? 11000);
const rnd = seededRandom(seed);
const t0 = Date.now();

const already = (await labStatus({ display })) !== undefined;
const lab = await labUp({ display });
const env = { ...process.env, ...lab.env };
const data = mkdtempSync(join(tmpdir(), "rpav-kill-bench-"));
const records: RecordTrial[] = [];
const replays: ReplayTrial[] = [];
try {
  // Until `kills` trials were really killed (a run may end before its moment), five more at most.
  for (let i = 0; what !== "replay" && records.filter((r) => r.killed).length < kills && i < kills + 5; i++) {
    const killAfterMs = Math.round(300 + rnd() * 12000);
    const r = await recordTrial(env, data, join(data, "sessions", `s${i}`), rnd, { killAfterMs, build: true });
    records.push(r);
    console.log(`record ${i + 1}: kill at ${killAfterMs} ms, ${r.left ? `${r.actions} actions${r.truncatedTail ? " + cut line" : ""}, reader ${r.readerOk ? "ok" : r.readerError}, lost ${r.lostAnnounced}, build ${r.build ?? "-"}` : "nothing left"}`);
  }
  for (let i = 0; what !== "record" && replays.filter((r) => r.killed).length < kills && i < kills + 5; i++) {
    const killAfterMs = Math.round(500 + rnd() * (replayMaxMs - 500));
    const r = await replayTrial(env, data, join(data, "runs", `r${i}`), { killAfterMs, resume: i % resumeEvery === resumeEvery - 1 });
    replays.push(r);
    console.log(`replay ${i + 1}: kill at ${killAfterMs} ms${r.killed ? "" : " (ended first)"}, ${r.left ? `${r.events} events${r.truncatedTail ? " + cut line" : ""}, reader ${r.readerOk ? "ok" : r.readerError}, report ${r.report}, resume ${r.resume ?? "-"}` : "no trace yet"}`);
    if (r.resumeOutput && r.resume !== "passed") console.log(`  resume: ${r.resumeOutput.replace(/\s+/g, " ").slice(-300)}`);
  }
} finally {
  if (!already) await labDown({ display });
  rmSync(data, { recursive: true, force: true });
}
const n = <T>(xs: T[], f: (x: T) => boolean) => xs.filter(f).length;
const summary = {
  seed,
  record: {
    kills: n(records, (r) => r.killed),
    sessions_left: n(records, (r) => r.left),
    reader_refused: n(records, (r) => r.left && !r.readerOk),
    validate_refused: n(records, (r) => r.validate === "refused"),
    with_cut_line: n(records, (r) => r.truncatedTail),
    actions_read: records.reduce((a, r) => a + r.actions, 0),
    announced_actions_lost: records.reduce((a, r) => a + r.lostAnnounced, 0),
    builds: n(records, (r) => r.build !== undefined),
    builds_ok: n(records, (r) => r.build === "ok"),
    builds_crashed: n(records, (r) => r.build === "crash"),
  },
  replay: {
    kills: n(replays, (r) => r.killed),
    traces_left: n(replays, (r) => r.left),
    reader_refused: n(replays, (r) => r.left && !r.readerOk),
    validate_refused: n(replays, (r) => r.validate === "refused"),
    with_cut_line: n(replays, (r) => r.truncatedTail),
    reports_ok: n(replays, (r) => r.report === "ok"),
    reports_failed: n(replays, (r) => r.left && r.report !== "ok"),
    resumes: n(replays, (r) => r.resume !== undefined),
    resumes_passed: n(replays, (r) => r.resume === "passed"),
    resumes_nothing_left: n(replays, (r) => r.resume === "nothing_to_resume"),
    resumes_crashed: n(replays, (r) => r.resume === "crash"),
  },
  trials: { records, replays },
  seconds: Math.round((Date.now() - t0) / 1000),
};
console.log(JSON.stringify({ ...summary, trials: undefined }));
console.log(`written ${writeResult("crash-safety", summary)}`);
