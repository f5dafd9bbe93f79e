// The assist channel as files in the data directory, so that a waiting run and any front end in
// another process (terminal, studio) meet without a server: <dir>/<question_id>.question.json,
// answered by <dir>/<question_id>.answer.json. Writes are atomic (temp file + rename); the first
// answer wins; answered pairs move to <dir>/answered/.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename } from "node:fs/promises";
import { writeFileAtomic } from "../core/atomic-write.js";
import { join } from "node:path";
import { AbortedError, InvalidInputError, StoreError } from "../core/errors.js";
import type { AssistAsker, AssistInbox } from "../core/providers/assist-channel.js";
import { AssistAnswerSchema, AssistQuestionSchema, type AssistAnswer, type AssistQuestion } from "../core/schemas/assist.js";

const ID = /^[A-Za-z0-9_.-]{1,128}$/;
const MAX_FILE_BYTES = 1 << 20;

export interface AssistFilesOptions {
  /** How often a waiting `ask` looks for the answer (default 200 ms). */
  pollMs?: number;
}

export class AssistFiles implements AssistAsker, AssistInbox {
  constructor(
    readonly dir: string,
    private readonly opts: AssistFilesOptions = {},
  ) {}

  private path(id: string, kind: "question" | "answer", answered = false): string {
    if (!ID.test(id)) throw new InvalidInputError(`"${id.slice(0, 80)}" is not a valid question id (letters, digits, _ . - only).`);
    return join(this.dir, ...(answered ? ["answered"] : []), `${id}.${kind}.json`);
  }

  private async writeAtomic(path: string, value: unknown): Promise<void> {
    try {
      await mkdir(join(this.dir, "answered"), { recursive: true, mode: 0o700 });
      await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    } catch (e) {
      throw new StoreError(`Cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}. Check that the data directory is writable.`, { cause: e });
    }
  }

  private async readJson(path: string): Promise<unknown> {
    const bytes = await readFile(path);
    if (bytes.length > MAX_FILE_BYTES) throw new InvalidInputError(`${path} is over ${MAX_FILE_BYTES} bytes: not an assist file.`);
    return JSON.parse(bytes.toString("utf8")) as unknown;
  }

  async ask(question: AssistQuestion, signal?: AbortSignal): Promise<AssistAnswer> {
    const q = AssistQuestionSchema.parse(question);
    const qPath = this.path(q.question_id, "question");
    const aPath = this.path(q.question_id, "answer");
    await this.writeAtomic(qPath, q);
    const pollMs = this.opts.pollMs ?? 200;
    for (;;) {
      if (signal?.aborted) throw new AbortedError(`Waiting for the answer to ${q.question_id} was aborted.`, { cause: signal.reason });
      if (existsSync(aPath)) {
        const parsed = AssistAnswerSchema.safeParse(await this.readJson(aPath).catch(() => undefined));
        if (parsed.success && parsed.data.question_id === q.question_id) {
          await rename(qPath, this.path(q.question_id, "question", true)).catch(() => undefined);
          await rename(aPath, this.path(q.question_id, "answer", true)).catch(() => undefined);
          return parsed.data;
        }
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, pollMs);
        signal?.addEventListener("abort", () => { clearTimeout(t); resolve(); }, { once: true });
      });
    }
  }

  async pending(): Promise<AssistQuestion[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: AssistQuestion[] = [];
    for (const n of names) {
      if (!n.endsWith(".question.json")) continue;
      const id = n.slice(0, -".question.json".length);
      if (!ID.test(id) || existsSync(this.path(id, "answer"))) continue;
      const parsed = AssistQuestionSchema.safeParse(await this.readJson(join(this.dir, n)).catch(() => undefined));
      if (parsed.success) out.push(parsed.data);
    }
    return out.sort((a, b) => a.asked_at.localeCompare(b.asked_at));
  }

  async answer(answer: AssistAnswer): Promise<void> {
    const a = AssistAnswerSchema.parse(answer);
    const qPath = this.path(a.question_id, "question");
    if (!existsSync(qPath)) throw new InvalidInputError(`No pending question ${a.question_id}: it was answered already, or never asked.`);
    const aPath = this.path(a.question_id, "answer");
    if (existsSync(aPath)) throw new InvalidInputError(`Question ${a.question_id} already has an answer.`);
    const question = AssistQuestionSchema.parse(await this.readJson(qPath));
    if (!question.choices.includes(a.choice.kind)) throw new InvalidInputError(`Question ${a.question_id} does not offer "${a.choice.kind}" (it offers ${question.choices.join(", ")}).`);
    if (a.choice.kind === "pick") {
      const id = a.choice.candidate_id;
      if (!question.candidates.some((c) => c.candidate_id === id)) throw new InvalidInputError(`Question ${a.question_id} has no candidate ${id}.`);
    }
    await this.writeAtomic(aPath, a);
  }
}
