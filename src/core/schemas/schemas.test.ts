import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUNS, screenStateArb, textBoxesArb, uiElementArb } from "../../../test/support/arbitraries.js";
import { InvalidInputError, SchemaValidationError, SchemaVersionError } from "../errors.js";
import { PerceptionSchema } from "./screenstate.js";
import { isFieldType, UI_ELEMENT_TYPES } from "./uielement.js";
import { formatJsonPath, parseJsonText, readDocument, readDocumentAs, writeDocument } from "./documents.js";

const example = (name: string) => readFileSync(new URL(`../../../examples/design/${name}`, import.meta.url), "utf8");
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function issuesOf(value: unknown): string[] {
  try {
    readDocument(value, "t.json");
  } catch (e) {
    if (e instanceof SchemaValidationError) return e.issues.map((i) => i.path);
    throw e;
  }
  return [];
}

describe("design examples", () => {
  it("the design's UIElement JSON validates as-is", () => {
    const el = readDocumentAs("uielement_v1", example("uielement-example.json"), "uielement-example.json");
    expect(el.label).toBe("Valider la facture");
    expect(el.text.normalized).toBe("valider facture");
  });

  it("the design's EnrichedScreenState JSON validates as-is", () => {
    const s = readDocumentAs("screenstate_v1", example("screenstate-complete-example.json"));
    expect(s.mode).toBe("complete");
    expect(s.ui_elements[0]?.role).toBe("validate_invoice");
    expect(s.state_embedding.components?.context_embedding.provider).toBe("numeric_context_v1");
  });

  it("reports every problem of a broken variant with its JSON path", () => {
    const el = JSON.parse(example("uielement-example.json"));
    el.bbox = [1800, 900, 1600, 940];
    el.type = "slider";
    el.confidence = 1.5;
    delete el.properties.is_dangerous;
    expect(issuesOf(el).sort()).toEqual(["$.bbox", "$.confidence", "$.properties.is_dangerous", "$.type"]);
  });

  it("requires all five embedding components in complete mode", () => {
    const s = JSON.parse(example("screenstate-complete-example.json"));
    s.state_embedding.components = null;
    expect(issuesOf(s)).toEqual(["$.state_embedding.components"]);
    delete s.state_embedding;
    s.mode = "light";
    expect(issuesOf(s)).toEqual(["$.state_embedding"]);
  });
});

describe("element types", () => {
  it("a field and a drop-down are the types a caption names and a value fills; nothing else is", () => {
    expect(UI_ELEMENT_TYPES.filter((t) => isFieldType(t))).toEqual(["text_input", "dropdown"]);
    expect(isFieldType(undefined)).toBe(false);
    expect(isFieldType(null)).toBe(false);
  });
});

describe("versions and malformed input", () => {
  it("a newer schema_version is a SchemaVersionError naming the versions we read", () => {
    const el = JSON.parse(example("uielement-example.json"));
    el.schema_version = "uielement_v2";
    expect(() => readDocument(el, "new.json")).toThrow(SchemaVersionError);
    expect(() => readDocument(el, "new.json")).toThrow(/"uielement_v2" is not one this build reads \(uielement_v1, screenstate_v1, workflow_v1, trace_v1\).*newer RPA Vision/);
  });

  it("an unknown schema_version is a SchemaVersionError too", () => {
    expect(() => readDocument({ schema_version: "spreadsheet_v1" })).toThrow(SchemaVersionError);
  });

  it("a missing schema_version, an array or a scalar is InvalidInputError", () => {
    expect(() => readDocument({ type: "button" }, "a.json")).toThrow(/no "schema_version" string field/);
    expect(() => readDocument([], "a.json")).toThrow(/got an array/);
    expect(() => readDocument(3, "a.json")).toThrow(InvalidInputError);
  });

  it("malformed JSON gives line and column; an empty file says it is empty", () => {
    expect(() => parseJsonText('{\n  "a": 1,\n  "b": }', "bad.json")).toThrow(/bad.json: malformed JSON at line 3, column 8/);
    expect(() => parseJsonText("  \n", "empty.json")).toThrow(/empty.json: the file is empty/);
  });

  it("formats JSON paths", () => {
    expect(formatJsonPath(["ui_elements", 0, "bbox", 2])).toBe("$.ui_elements[0].bbox[2]");
    expect(formatJsonPath(["a b"])).toBe('$["a b"]');
  });
});

describe("design properties on the data model", () => {
  it("property 19: every detected text keeps its spatial coordinates", () => {
    fc.assert(
      fc.property(textBoxesArb, (boxes) => {
        const lines = boxes.filter((b) => b.level === "line");
        const ok = PerceptionSchema.safeParse({ detected_text: lines.map((b) => b.text), text_boxes: boxes });
        expect(ok.success).toBe(true);
        // A detected text with no box is rejected.
        const orphan = PerceptionSchema.safeParse({ detected_text: [...lines.map((b) => b.text), "\u0000orphan"], text_boxes: boxes });
        expect(orphan.success).toBe(false);
      }),
      RUNS,
    );
  });

  it("property 32: a stored UIElement lacking any required field is rejected", () => {
    const required = ["element_id", "type", "role", "bbox", "label", "visual", "text", "properties", "context", "tags", "confidence", "detection_method"] as const;
    fc.assert(
      fc.property(uiElementArb, fc.constantFrom(...required), (el, field) => {
        expect(issuesOf(el)).toEqual([]);
        const broken = clone(el) as Record<string, unknown>;
        delete broken[field];
        expect(issuesOf(broken)).toContain(`$.${field}`);
        const nulled = { ...clone(el), [field]: null };
        expect(issuesOf(nulled)).toContain(`$.${field}`);
      }),
      RUNS,
    );
  });

  it("property 33: UIElement JSON round-trip gives an equal object", () => {
    fc.assert(
      fc.property(uiElementArb, (el) => {
        const back = readDocumentAs("uielement_v1", writeDocument(el));
        expect(back).toEqual(el);
      }),
      RUNS,
    );
  });

  it("property 34: a ScreenState lacking any required top-level field is rejected", () => {
    const required = ["screen_state_id", "timestamp", "session_id", "window", "raw", "perception", "ui_elements", "state_embedding", "context"] as const;
    fc.assert(
      fc.property(screenStateArb(), fc.constantFrom(...required), (s, field) => {
        expect(issuesOf(s)).toEqual([]);
        const broken = clone(s) as Record<string, unknown>;
        delete broken[field];
        expect(issuesOf(broken)).toContain(`$.${field}`);
      }),
      RUNS,
    );
  });

  it("property 42: states written in light, enriched and complete mode all read back without error", () => {
    fc.assert(
      fc.property(screenStateArb(), (s) => {
        const back = readDocumentAs("screenstate_v1", writeDocument(s));
        expect(back).toEqual(s);
      }),
      RUNS,
    );
  });

  it("keeps unknown fields (written by newer minor tools) through a round trip", () => {
    const el = JSON.parse(example("uielement-example.json"));
    el.x_vendor = { note: "kept" };
    expect(readDocumentAs("uielement_v1", JSON.stringify(el))).toMatchObject({ x_vendor: { note: "kept" } });
  });
});
