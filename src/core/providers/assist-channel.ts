// Where a run's questions for a person go, and where their answers come from (the design's
// "mode assisté"). One side asks and waits; the other lists what is pending and answers.
import type { AssistAnswer, AssistQuestion } from "../schemas/assist.js";

/** The asking side: a run that needs a person. */
export interface AssistAsker {
  /** Publishes the question and waits for its answer; rejects with AbortedError when `signal` fires. */
  ask(question: AssistQuestion, signal?: AbortSignal): Promise<AssistAnswer>;
}

/** The answering side: a terminal prompt, the studio. */
export interface AssistInbox {
  /** Questions not answered yet, oldest first. */
  pending(): Promise<AssistQuestion[]>;
  /** Records an answer; an unknown or already answered question is an InvalidInputError. */
  answer(answer: AssistAnswer): Promise<void>;
}
