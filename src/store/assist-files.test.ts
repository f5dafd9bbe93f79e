import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AbortedError, InvalidInputError } from "../core/errors.js";
import type { AssistQuestion } from "../core/schemas/assist.js";
import { AssistFiles } from "./assist-files.js";

const question = (id: string, asked = "2026-12-02T06:00:00.000Z"): AssistQuestion => ({
  schema_version: "assist_question_v1",
  question_id: id,
  asked_at: asked,
  run_id: "run_1",
  run_dir: "/tmp/run_1",
  row: 0,
  step_id: "step_002",
  message: "« Valider » not found",
  screenshot: "shots/r0-s2-before.png",
  origin: { x: 10, y: 20, scale_factor: 1 },
  window: { app: "yad", title: "Patient" },
  candidates: [{ candidate_id: "c1", label: "Valider", type: "button", bbox: [1, 2, 30, 40], score: 0.4 }],
  choices: ["pick", "point", "skip", "abort"],
});

describe("assist files", () => {
  it("hands a question to another side and returns its answer to the waiting run", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "rpav-assist-")), "assist");
    const asker = new AssistFiles(dir, { pollMs: 10 });
    const inbox = new AssistFiles(dir);
    const waiting = asker.ask(question("q1"));
    let pending: AssistQuestion[] = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      pending = await inbox.pending();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(pending.map((q) => q.question_id)).toEqual(["q1"]);
    await inbox.answer({ schema_version: "assist_answer_v1", question_id: "q1", answered_at: "2026-12-02T06:00:01.000Z", by: "studio", choice: { kind: "pick", candidate_id: "c1" } });
    const answer = await waiting;
    expect(answer.choice).toEqual({ kind: "pick", candidate_id: "c1" });
    expect(await inbox.pending()).toEqual([]);
  });

  it("refuses answers the question does not offer, unknown candidates and unknown questions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-assist-"));
    const side = new AssistFiles(dir, { pollMs: 10 });
    const ac = new AbortController();
    const waiting = side.ask({ ...question("q2"), choices: ["skip", "abort"] }, ac.signal);
    while ((await side.pending()).length === 0) await new Promise((r) => setTimeout(r, 5));
    const base = { schema_version: "assist_answer_v1", answered_at: "2026-12-02T06:00:01.000Z", by: "test" } as const;
    await expect(side.answer({ ...base, question_id: "q2", choice: { kind: "point", x: 1, y: 2 } })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(side.answer({ ...base, question_id: "nope", choice: { kind: "skip" } })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(side.answer({ ...base, question_id: "../etc", choice: { kind: "skip" } })).rejects.toBeInstanceOf(InvalidInputError);
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
  });
});
