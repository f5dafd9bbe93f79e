// Policies as data: which answers to an unexpected dialog are safe, and when a dangerous target
// may run. A recovery never clicks a button outside the safe table, nor one the role lexicon calls
// dangerous (delete, pay, send, reset…).
import { describeRole } from "../perception/roles.js";
import { comparable } from "./checks.js";

/** Answers that dismiss a dialog without doing anything (French and English), in order of preference. */
export const SAFE_DIALOG_ANSWERS: readonly string[] = ["Annuler", "Fermer", "Plus tard", "Pas maintenant", "Cancel", "Close", "Not now", "Later"];

const SAFE = new Map(SAFE_DIALOG_ANSWERS.map((a, i) => [comparable(a), i]));

/** The rank of a button label in the safe table (lower is preferred), or undefined when it is not a safe answer. */
export function safeAnswerRank(label: string): number | undefined {
  const l = comparable(label.replace(/_/g, ""));
  const rank = SAFE.get(l);
  if (rank === undefined) return undefined;
  return describeRole("button", label).is_dangerous ? undefined : rank;
}

export interface DangerPolicy {
  /** --allow-dangerous on the command line. */
  allowDangerous: boolean;
  /** The workflow's own policy. */
  workflowAllows: boolean;
}

export function dangerousAllowed(p: DangerPolicy): boolean {
  return p.allowDangerous || p.workflowAllows;
}
