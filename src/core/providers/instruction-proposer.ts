/**
 * A decision model that reads an instruction and proposes its structure (an InstructionSchema
 * value, as JSON). Its answer is untrusted: the planner validates it and keeps the deterministic
 * parse when it does not validate; both are shown when they differ.
 */
export interface InstructionProposer {
  readonly name: string;
  propose(text: string, context: { now: string; language: "fr" | "en" }, signal?: AbortSignal): Promise<unknown>;
}
