import { describe, expect, it } from "vitest";
import type { BBox } from "../core/geometry.js";
import { makeFrame } from "../core/frame.js";
import { captionOf, iconCrop, iconRepeats } from "./target-cues.js";

const line = (text: string, bbox: BBox) => ({ text, bbox });

describe("captionOf (the builder's caption of a control)", () => {
  // Read on a real recording (html-materialize): small captions right-aligned left of their fields, OCR's padded
  // line box of « Ville » reaching 7 px into its field; the row above's caption ends just over the field's left edge.
  const field: BBox = [163, 185, 510, 207];
  const rowAbove = line("Prix unitaire HT €", [69.9, 150.9, 167.1, 170.1]);

  it("takes the caption on the field's row even when OCR's padded box reaches into the field", () => {
    expect(captionOf(field, "text_input", [rowAbove, line("Ville", [132.9, 185.4, 170.1, 212.1])])?.text).toBe("Ville");
  });

  it("never takes the row above's left caption as the caption above a field", () => {
    expect(captionOf(field, "text_input", [rowAbove])).toBeUndefined();
  });

  it("takes a caption drawn just above the field, starting at its left edge", () => {
    expect(captionOf(field, "text_input", [line("Ville", [164, 163, 200, 181])])?.text).toBe("Ville");
    // On its row and nearer than the one above: the row's caption.
    expect(captionOf(field, "text_input", [line("Ville", [164, 163, 200, 181]), line("Code", [120, 187, 158, 205])])?.text).toBe("Code");
  });

  it("names a check box by the text right of it, and not by a line far away", () => {
    const box: BBox = [20, 100, 36, 116];
    expect(captionOf(box, "checkbox", [line("Accepter", [40, 99, 100, 117])])?.text).toBe("Accepter");
    expect(captionOf(box, "checkbox", [line("Loin", [400, 99, 440, 117])])).toBeUndefined();
  });
});

describe("iconRepeats (an icon crop that cannot tell its target apart)", () => {
  // A grey window with two empty fields alike and one icon (a dark L shape) right of them.
  const data = new Uint8Array(400 * 200 * 3).fill(236);
  const paint = (b: BBox, v: number) => {
    for (let y = b[1]; y < b[3]; y++) data.fill(v, (y * 400 + b[0]) * 3, (y * 400 + b[2]) * 3);
  };
  for (const f of [[40, 40, 140, 64], [40, 100, 140, 124]] as BBox[]) {
    paint(f, 120);
    paint([f[0] + 1, f[1] + 1, f[2] - 1, f[3] - 1], 255);
  }
  paint([250, 40, 256, 64], 30);
  paint([250, 58, 274, 64], 30);
  const frame = makeFrame({ data, width: 400, height: 200, channels: 3 });
  const win: BBox = [0, 0, 400, 200];
  it("an empty field's crop matches the other empty field: it repeats; a unique icon does not", () => {
    const field = iconCrop(frame, undefined, [90, 52], [40, 40, 140, 64], win);
    expect("flat" in field).toBe(false);
    expect(iconRepeats(frame, field as Exclude<typeof field, { flat: true }>, win)).toMatchObject({ bbox: expect.any(Array) });
    const icon = iconCrop(frame, undefined, [262, 52], [250, 40, 274, 64], win);
    expect("flat" in icon).toBe(false);
    expect(iconRepeats(frame, icon as Exclude<typeof icon, { flat: true }>, win)).toBeUndefined();
  });
});
