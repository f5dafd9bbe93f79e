// A text-only decision (plan, MESO: gemma in text mode): given what the step expected, what is on
// the screen and what was planned, choose one of the options offered — never anything else.

export interface DecisionOption {
  /** Stable identifier the answer must name ("execute", "adapt_new_tab", "skip", "ask"…). */
  readonly id: string;
  /** What choosing it does, for the model. */
  readonly description: string;
}

export interface DecisionRequest {
  readonly expected: string;
  readonly actual: string;
  readonly planned: string;
  readonly options: readonly DecisionOption[];
}

export interface ModelDecision {
  /** One of the request's option ids (validated). */
  readonly chosen: string;
  /** The model's reason (untrusted text, for people and the trace). */
  readonly reason: string;
  readonly by: "model";
  readonly model: string;
  readonly prompt_hash: string;
  readonly raw_answer: string;
  readonly cached: boolean;
}

/**
 * Implementations live in src/vlm. Unreachable or missing models throw ProviderUnavailableError;
 * an answer naming no offered option (twice) throws ModelAnswerInvalidError.
 */
export interface DecisionMaker {
  readonly name: string;
  decide(request: DecisionRequest, signal?: AbortSignal): Promise<ModelDecision>;
}
