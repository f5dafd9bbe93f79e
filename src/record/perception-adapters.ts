// The recorder and the builder see screens through the detector: which field is a password
// (so its typing is never written), and what elements and text a recorded screenshot holds.
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { bboxArea, bboxContainsPoint } from "../core/geometry.js";
import { describeRole } from "../perception/roles.js";
import type { UIElementDetector } from "../perception/ui-element-detector.js";
import type { ScreenReader } from "./template-builder.js";

/** The password field under a point, from the detector (role password_field, or a password caption). */
export function secretFinder(detector: UIElementDetector): (frame: Frame, point: readonly [number, number]) => Promise<BBox | undefined> {
  return async (frame, point) => {
    const det = await detector.detect(frame);
    const el = det.elements.filter((e) => bboxContainsPoint(e.bbox, point)).sort((a, b) => bboxArea(a.bbox) - bboxArea(b.bbox))[0];
    if (!el) return undefined;
    const secret = el.role === "password_field" || describeRole("text_input", el.label).role === "password_field";
    return secret ? el.bbox : undefined;
  };
}

export function detectorReader(detector: UIElementDetector): ScreenReader {
  return {
    read: async (frame) => {
      const det = await detector.detect(frame);
      return { elements: det.elements, lines: det.ocr?.lines ?? [] };
    },
  };
}

