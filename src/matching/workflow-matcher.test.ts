import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VectorError } from "../core/errors.js";
import type { ElementDescriptor, MatchableWorkflow } from "../core/providers/matching.js";
import { UI_ELEMENT_TYPES, type UIElementEntry, type UIElementType } from "../core/schemas/uielement.js";
import { l2Normalize } from "../core/vectors.js";
import { NgramTextEmbedder } from "../embedding/ngram-text-embedder.js";
import { ElementMatcher, hasElementDescriptors, LegacyMatcher, WorkflowMatcher, type CurrentState } from "./workflow-matcher.js";

const text = new NgramTextEmbedder(256);
const frame = { width: 1920, height: 1080 };
const WORDS = ["valider", "annuler", "enregistrer", "supprimer", "rechercher", "patient", "facture", "mutuelle", "imprimer", "envoyer", "ouvrir", "fermer"];
// One word per label: two labels sharing a word can legitimately match each other.
const labelArb = fc.constantFrom(...WORDS);
const typeArb = fc.constantFrom(...UI_ELEMENT_TYPES);
const unit = (seed: number, dim = 64) => l2Normalize(Float32Array.from({ length: dim }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233))).vector;

function element(label: string, type: UIElementType, k: number): UIElementEntry {
  return { schema_version: "uielement_v1", element_id: `el_${k}`, type, role: "unknown", bbox: [100 + k * 150, 500, 220 + k * 150, 540], label, confidence: 0.9 };
}

/** Descriptors with distinct labels, and a screen holding a chosen subset of them. */
const scenarioArb = fc
  .uniqueArray(fc.tuple(labelArb, typeArb), { minLength: 1, maxLength: 5, selector: ([l]) => l })
  .chain((descs) => fc.tuple(fc.constant(descs), fc.array(fc.boolean(), { minLength: descs.length, maxLength: descs.length }), fc.integer()));

function state(elements: UIElementEntry[], seed: number, title = "Factures"): CurrentState {
  return { embedding: { provider: "p", vector: unit(seed) }, elements, windowTitle: title, frame };
}

describe("workflow matching", () => {
  it("property 16: with fewer than N required elements on screen, the score is below 0.5", async () => {
    const matcher = new ElementMatcher(text);
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ([descs, present, seed]) => {
        fc.pre(present.some((p) => !p));
        const required: ElementDescriptor[] = descs.map(([label, type]) => ({ label, type }));
        const shown = descs.flatMap(([label, type], k) => (present[k] ? [element(label, type, k)] : []));
        const r = await matcher.matchStep(state(shown, seed), { stepId: "s1", expectedEmbedding: { provider: "p", vector: unit(seed) }, requiredElements: required }, "wf");
        expect(r.requiredMatched).toBeLessThan(required.length);
        expect(r.score).toBeLessThan(0.5);
        expect(r.ok).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it("property 17: with all optional elements present the score is strictly higher than with none", async () => {
    const matcher = new ElementMatcher(text);
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ([descs, , seed]) => {
        const optional: ElementDescriptor[] = descs.map(([label, type]) => ({ label, type }));
        const step = { stepId: "s1", expectedEmbedding: { provider: "p", vector: unit(seed) }, optionalElements: optional };
        const withAll = await matcher.matchStep(state(descs.map(([l, t], k) => element(l, t, k)), seed), step, "wf");
        const withNone = await matcher.matchStep(state([], seed), step, "wf");
        expect(withAll.score).toBeGreaterThan(withNone.score);
      }),
      { numRuns: 100 },
    );
  });

  it("property 18: every match lists exactly its differences — each missing element, wrong type, title change, or the low similarity; none on success", async () => {
    // A stricter threshold than the default, so that a screen with every element can still fail on its look.
    const matcher = new ElementMatcher(text, { threshold: 0.8 });
    const expectedVec = unit(7);
    // A unit vector at a chosen cosine from the step's embedding (Gram–Schmidt against a second one).
    const atCosine = (c: number) => {
      const o = unit(11);
      let dot = 0;
      for (let i = 0; i < o.length; i++) dot += o[i]! * expectedVec[i]!;
      const orth = l2Normalize(Float32Array.from(o, (x, i) => x - dot * expectedVec[i]!)).vector;
      return Float32Array.from(expectedVec, (x, i) => c * x + Math.sqrt(1 - c * c) * orth[i]!);
    };
    // Mostly present, so that complete screens (which can succeed) are frequent.
    const statusArb = fc.oneof({ arbitrary: fc.constant("present"), weight: 6 }, { arbitrary: fc.constant("wrong_type"), weight: 1 }, { arbitrary: fc.constant("absent"), weight: 1 });
    const caseArb = fc
      .uniqueArray(fc.tuple(labelArb, typeArb), { minLength: 1, maxLength: 5, selector: ([l]) => l })
      .chain((descs) =>
        fc.record({
          descs: fc.constant(descs),
          status: fc.array(statusArb, { minLength: descs.length, maxLength: descs.length }),
          otherType: fc.array(fc.integer({ min: 1, max: UI_ELEMENT_TYPES.length - 1 }), { minLength: descs.length, maxLength: descs.length }),
          cosine: fc.oneof(fc.constantFrom(1, -1), fc.double({ min: -1, max: 1, noNaN: true })),
          sameTitle: fc.boolean(),
        }),
      );
    let successes = 0;
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ descs, status, otherType, cosine, sameTitle }) => {
        const required: ElementDescriptor[] = descs.map(([label, type]) => ({ label, type }));
        const wrong = (k: number) => UI_ELEMENT_TYPES[(UI_ELEMENT_TYPES.indexOf(descs[k]![1]) + otherType[k]!) % UI_ELEMENT_TYPES.length]!;
        const shown = descs.flatMap(([label, type], k) => (status[k] === "present" ? [element(label, type, k)] : status[k] === "wrong_type" ? [element(label, wrong(k), k)] : []));
        const current: CurrentState = { embedding: { provider: "p", vector: atCosine(cosine) }, elements: shown, windowTitle: sameTitle ? "Factures" : "Autre fenêtre", frame };
        const r = await matcher.matchStep(current, { stepId: "s1", expectedEmbedding: { provider: "p", vector: expectedVec }, expectedWindowTitle: "Factures", requiredElements: required }, "wf");
        expect(r.stateSimilarity).toBeCloseTo(Math.max(0, cosine), 4); // a negative cosine counts as no likeness
        const allPresent = status.every((x) => x === "present");
        expect(r.ok).toBe(allPresent && r.score >= 0.8);
        const want: unknown[] = [];
        descs.forEach(([label, type], k) => {
          if (status[k] === "wrong_type") want.push({ kind: "wrong_type", descriptor: { label, type }, found: wrong(k), label });
          if (status[k] === "absent") want.push({ kind: "missing_element", descriptor: { label, type }, ...(shown.length ? { closest: expect.objectContaining({ label: expect.any(String) }) } : {}) });
        });
        if (!sameTitle) want.push({ kind: "title_mismatch", expected: "Factures", actual: "Autre fenêtre" });
        if (!r.ok && want.length === 0) want.push({ kind: "low_state_similarity", similarity: r.stateSimilarity, threshold: 0.8 });
        // On success only an informative title change can be listed: the screen matched, its title did not.
        expect(r.differences).toEqual(want);
        if (r.ok) successes++;
        else failures++;
      }),
      { numRuns: 200 },
    );
    expect(successes).toBeGreaterThan(10);
    expect(failures).toBeGreaterThan(10);
  });

  it("reports missing elements, wrong types and title mismatches", async () => {
    const matcher = new ElementMatcher(text);
    const r = await matcher.matchStep(
      state([element("Valider la facture", "link", 0)], 1, "Patients"),
      { stepId: "s1", expectedWindowTitle: "Factures", requiredElements: [{ label: "Valider la facture", type: "button" }, { label: "Imprimer", type: "button" }] },
      "wf",
    );
    expect(r.ok).toBe(false);
    expect(r.differences.map((d) => d.kind).sort()).toEqual(["missing_element", "title_mismatch", "wrong_type"]);
    expect(r.differences.find((d) => d.kind === "wrong_type")).toMatchObject({ found: "link", label: "Valider la facture" });
  });

  it("finds labels despite accents and case, and uses the position hint to choose", async () => {
    const matcher = new ElementMatcher(text);
    const top = { ...element("Enregistrer", "button", 0), bbox: [900, 20, 1000, 50] as [number, number, number, number] };
    const bottom = { ...element("ENREGISTRER", "button", 1), bbox: [900, 1000, 1000, 1040] as [number, number, number, number], element_id: "el_bottom" };
    const found = await matcher.find({ label: "enregistrer", type: "button", positionHint: { vertical: "bottom" } }, state([top, bottom], 1));
    expect(found.element?.element_id).toBe("el_bottom");
  });

  it("properties 25 and 26: workflows without element descriptors go to the legacy matcher and still get a valid result; the others to the element matcher", async () => {
    const router = new WorkflowMatcher(new LegacyMatcher(), new ElementMatcher(text));
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.integer(), fc.boolean(), async (a, b, withElements) => {
        const wf: MatchableWorkflow = {
          workflowId: "wf",
          steps: [
            { stepId: "s1", expectedEmbedding: { provider: "p", vector: unit(a) }, requiredElements: withElements ? [{ label: "valider", type: "button" }] : undefined },
            { stepId: "s2", expectedEmbedding: { provider: "p", vector: unit(b) } },
          ],
        };
        expect(hasElementDescriptors(wf)).toBe(withElements);
        const r = await router.match(state([element("Valider", "button", 0)], a), wf);
        expect(r.method).toBe(withElements ? "element_based" : "legacy");
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(1);
        expect(["s1", "s2"]).toContain(r.stepId);
        if (!withElements) expect(r.stepId).toBe("s1"); // identical embedding
      }),
      { numRuns: 100 },
    );
  });

  it("retrieves the best step across workflows", async () => {
    const router = new WorkflowMatcher(new LegacyMatcher(), new ElementMatcher(text));
    const wfs: MatchableWorkflow[] = [1, 2, 3].map((w) => ({ workflowId: `wf${w}`, steps: [1, 2].map((s) => ({ stepId: `wf${w}-s${s}`, expectedEmbedding: { provider: "p", vector: unit(w * 10 + s) } })) }));
    const best = await router.bestStep(state([], 22), wfs);
    expect(best).toMatchObject({ workflowId: "wf2", stepId: "wf2-s2", ok: true });
  });

  it("comparing embeddings of different providers is a typed error, never a silent zero score", async () => {
    const legacy = new LegacyMatcher();
    expect(() => legacy.match({ ...state([], 1), embedding: { provider: "clip", vector: unit(1) } }, { workflowId: "wf", steps: [{ stepId: "s", expectedEmbedding: { provider: "layout_v1_512", vector: unit(1) } }] })).toThrow(VectorError);
    expect(() => legacy.match({ ...state([], 1), embedding: { provider: "p", vector: unit(1, 32) } }, { workflowId: "wf", steps: [{ stepId: "s", expectedEmbedding: { provider: "p", vector: unit(1) } }] })).toThrow(/dimension 32 and 64/);
  });
});
