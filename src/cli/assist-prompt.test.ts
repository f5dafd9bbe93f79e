import { describe, expect, it } from "vitest";
import { parseAnswer } from "./assist-prompt.js";

describe("terminal assist prompt", () => {
  const q = { schema_version: "assist_question_v1", question_id: "q1", asked_at: "2026-12-02T00:00:00Z", run_id: "r", run_dir: "/r", row: 0, step_id: "s1", message: "m", screenshot: null, origin: null, window: null, candidates: [{ candidate_id: "c1", label: "OK", type: "button", bbox: [0, 0, 1, 1], score: 0.5 }], choices: ["pick", "point", "skip", "abort"] } as const;

  it("a terminal line becomes one of the offered choices, or nothing", () => {
    expect(parseAnswer(q as never, "1")).toEqual({ kind: "pick", candidate_id: "c1" });
    expect(parseAnswer(q as never, " 120, 340 ")).toEqual({ kind: "point", x: 120, y: 340 });
    expect(parseAnswer(q as never, "s")).toEqual({ kind: "skip" });
    expect(parseAnswer(q as never, "2")).toBeUndefined();
    expect(parseAnswer({ ...q, choices: ["skip"] } as never, "a")).toBeUndefined();
  });

});
