// A model that helps the actor decide (plan, MESO: gemma4 in text mode). It may only choose among
// the options the rules offer, never invent an action; the actor validates the answer, traces it,
// and decides by its rules when the model is absent, slow or answers something invalid.

/** What the actor asks: the step, what it saw, and the options it offers (ids are what the model returns). */
export interface DecisionRequest {
  intention: string;
  expected_state: string;
  expected_result: string;
  /** What was observed, as short facts (window title, checks that failed, dialog text…). */
  observed: Record<string, unknown>;
  options: readonly { id: string; kind: string; description: string }[];
}

export interface DecisionAnswer {
  /** One of the request's option ids. */
  chosen: string;
  reason: string;
}

export interface DecisionModel {
  readonly name: string;
  /** Throws ProviderUnavailableError when unreachable; the answer is untrusted (validated by the caller). */
  decide(request: DecisionRequest, signal?: AbortSignal): Promise<DecisionAnswer>;
}
