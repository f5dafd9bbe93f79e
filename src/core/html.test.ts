import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "./html.js";

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and quoted attributes", () => {
    expect(escapeHtml(`<img src=x onerror="a('b')"> & co`)).toBe("&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co");
  });

  it("output never holds a raw < > \" ' and decodes back to the input", () => {
    const decode = (s: string) => s.replace(/&lt;|&gt;|&quot;|&#39;|&amp;/g, (e) => ({ "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" })[e]!);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("<", ">", "&", '"', "'", "a", "é", " ", "&amp;") }), (s) => {
        const e = escapeHtml(s);
        expect(e).not.toMatch(/[<>"']/);
        expect(decode(e)).toBe(s);
      }),
      { numRuns: 200 },
    );
  });
});
