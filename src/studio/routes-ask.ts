// Ask: the questions waiting runs put to a person (assist_question_v1 in <data dir>/assist). The
// person picks a candidate, clicks the point on the screenshot, skips the step or aborts the run;
// the answer goes through AssistInbox.answer and the waiting run reads it.
import { basename, dirname } from "node:path";
import type { FastifyInstance } from "fastify";
import { InvalidInputError } from "../core/errors.js";
import { bboxScreenToFrame, frameToScreen } from "../core/frame.js";
import type { AssistAnswerChoice, AssistQuestion } from "../core/schemas/assist.js";
import { figure, pngSize, type ShotSource } from "../replay/report.js";
import { confinedFile } from "./paths.js";
import type { StudioContext } from "./server.js";

const placement = (q: AssistQuestion) => ({ origin: [q.origin!.x, q.origin!.y] as [number, number], scaleFactor: q.origin!.scale_factor });

function questionShots(q: AssistQuestion): ShotSource {
  return {
    src: (rel) => (confinedFile(q.run_dir, rel) ? `/ask/${encodeURIComponent(q.question_id)}/shot` : undefined),
    size: (rel) => {
      const p = confinedFile(q.run_dir, rel);
      return p ? pngSize(p) : undefined;
    },
    inlineStyle: false,
  };
}

export function registerAskRoutes(app: FastifyInstance, ctx: StudioContext): void {
  const find = async (id: string) => {
    const q = (await ctx.inbox.pending()).find((x) => x.question_id === id);
    if (!q) throw Object.assign(new InvalidInputError(`No pending question ${id}: it was answered already, or its run stopped asking.`), { statusCode: 404 });
    return q;
  };

  app.get<{ Querystring: { answered?: string } }>("/ask", async (req, reply) => {
    const questions = (await ctx.inbox.pending()).map((q) => ({
      q,
      // Boxes converted to the screenshot's pixels once, here (screen → image through origin and scale).
      figure: figure(
        questionShots(q),
        q.screenshot,
        q.origin ? [0, 0] : null,
        q.origin ? q.candidates.map((c) => ({ bbox: bboxScreenToFrame(placement(q), [c.bbox[0], c.bbox[1], c.bbox[2], c.bbox[3]]), kind: "candidate" as const, label: `${c.label} (${c.type}) ${c.score}` })) : [],
        null,
        "screenshot",
      ),
    }));
    return ctx.page(reply, "ask", { title: "Ask", questions, answered: req.query.answered ?? null });
  });

  app.get<{ Params: { id: string } }>("/ask/:id/shot", async (req, reply) => {
    const q = await find(req.params.id);
    const file = q.screenshot ? confinedFile(q.run_dir, q.screenshot) : undefined;
    if (!file) return reply.code(404).type("text/plain").send("This question's screenshot is not inside its run folder.");
    return reply.sendFile(basename(file), dirname(file));
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> }>("/ask/:id", async (req, reply) => {
    const q = await find(req.params.id);
    const b = req.body ?? {};
    let choice: AssistAnswerChoice;
    if (b.choice === "pick") choice = { kind: "pick", candidate_id: b.candidate ?? "" };
    else if (b.choice === "point") {
      const px = Number(b.px);
      const py = Number(b.py);
      if (!q.origin) throw new InvalidInputError(`Question ${q.question_id} has no screenshot placement: a point cannot be given.`);
      if (!Number.isFinite(px) || !Number.isFinite(py) || b.px === "" || b.py === "") throw new InvalidInputError("Click on the screenshot to give a point.");
      const [x, y] = frameToScreen(placement(q), [px, py]);
      choice = { kind: "point", x: Math.round(x), y: Math.round(y) };
    } else if (b.choice === "skip") choice = { kind: "skip" };
    else if (b.choice === "abort") choice = { kind: "abort" };
    else throw new InvalidInputError(`Unknown answer "${String(b.choice).slice(0, 40)}": pick, point, skip or abort.`);
    await ctx.inbox.answer({ schema_version: "assist_answer_v1", question_id: q.question_id, answered_at: new Date().toISOString(), by: "studio", choice });
    return reply.redirect(`/ask?answered=${encodeURIComponent(q.question_id)}`, 303);
  });
}
