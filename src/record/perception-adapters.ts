// The recorder and the builder see screens through the detector: whether a burst of typing went
// into a secret field (so its characters are never written), and what elements and text a recorded screenshot holds.
import { bboxFrameToScreen, bboxScreenToFrame, screenToFrame, type Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { bboxArea, bboxCenter, bboxContainsPoint, bboxIntersection, bboxUnion, padBBox } from "../core/geometry.js";
import type { SecretQuery, SecretVerdict } from "./recorder.js";
import { describeRole } from "../perception/roles.js";
import type { UIElementDetector } from "../perception/ui-element-detector.js";
import type { ScreenReader } from "./template-builder.js";

/** Fraction of a pixel's channels that must differ (0–255) for it to count as changed. */
const CHANGE_THRESHOLD = 40;

/** Box (frame pixels) of what changed between two frames of one size, within `within`; undefined when nothing did. */
export function changedBox(a: Frame, b: Frame, within?: BBox): BBox | undefined {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) return undefined;
  const c = a.channels;
  const [wx1, wy1, wx2, wy2] = within ? [Math.max(0, Math.floor(within[0])), Math.max(0, Math.floor(within[1])), Math.min(a.width, Math.ceil(within[2])), Math.min(a.height, Math.ceil(within[3]))] : [0, 0, a.width, a.height];
  let x1 = Infinity, y1 = Infinity, x2 = -1, y2 = -1;
  for (let y = wy1; y < wy2; y++) {
    for (let x = wx1; x < wx2; x++) {
      const i = (y * a.width + x) * c;
      let d = 0;
      for (let k = 0; k < Math.min(c, 3); k++) d = Math.max(d, Math.abs((a.data[i + k] as number) - (b.data[i + k] as number)));
      if (d >= CHANGE_THRESHOLD) {
        if (x < x1) x1 = x;
        if (x > x2) x2 = x;
        if (y < y1) y1 = y;
        if (y > y2) y2 = y;
      }
    }
  }
  return x2 < 0 ? undefined : [x1, y1, x2 + 1, y2 + 1];
}

const fold = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, "");

/**
 * Whether text read on screen shows what was typed: a run of the typed characters (folded: case,
 * accents, spaces) of at least 4 (all of them when fewer) read in the field, or 60 % of the typed
 * text's last character pairs (OCR slips). The screen may show the field mid-typing (the key that
 * ended the burst came quickly) or scrolled, so a part is enough. A password field shows bullets:
 * nothing typed is readable there.
 */
export function showsTyped(read: string, typed: string): boolean {
  const t = fold(typed);
  const r = fold(read);
  if (t.length === 0) return true;
  const need = Math.min(t.length, 4);
  for (let i = 0; i + need <= t.length; i++) if (r.includes(t.slice(i, i + need))) return true;
  const tail = t.slice(-12);
  if (tail.length < 3) return false;
  const pairs = (x: string) => Array.from({ length: x.length - 1 }, (_, i) => x.slice(i, i + 2));
  const have = new Set(pairs(r));
  const want = pairs(tail);
  return want.filter((p) => have.has(p)).length / want.length >= 0.6;
}

const isSecretCaption = (text: string) => describeRole("text_input", text).role === "password_field";

/**
 * The recorder's secret check, from what the screen shows: the field where typing changed the
 * screen is the focused one (the last click locates it only when the focus did not move since).
 * Secret when that field is a password field (role, caption, or a caption read just left of or
 * above it in the password lexicon), when the typed text is not readable where the screen changed
 * (bullets or asterisks), or when nothing locates the field (in doubt).
 */
export function secretFieldFinder(detector: UIElementDetector): (q: SecretQuery) => Promise<SecretVerdict> {
  return async (q) => {
    if (!q.after) return { secret: true, box: undefined, why: "no screen after the typing" };
    const frame = q.after;
    const win = q.window ? bboxScreenToFrame(frame, q.window.bbox as unknown as BBox) : undefined;
    const changed = q.before ? changedBox(q.before, frame, win) : undefined;
    const det = await detector.detect(frame);
    const inputs = det.elements.filter((e) => e.type === "text_input" || e.role === "password_field");
    const click = q.click ? screenToFrame(frame, q.click) : undefined;
    const smallestAt = (p: Point) => inputs.filter((e) => bboxContainsPoint(e.bbox, p)).sort((a, b) => bboxArea(a.bbox) - bboxArea(b.bbox))[0];
    const field = changed ? (smallestAt(bboxCenter(changed)) ?? inputs.filter((e) => bboxIntersection(e.bbox, changed)).sort((a, b) => bboxArea(a.bbox) - bboxArea(b.bbox))[0]) : click ? smallestAt(click) : undefined;
    const region = changed && field ? bboxUnion(changed, field.bbox) : (changed ?? field?.bbox);
    const box = region ? bboxFrameToScreen(frame, padBBox(region, 4)) : undefined;
    if (!region) return { secret: true, box: undefined, why: "the focused field could not be located (nothing changed on screen)" };
    if (field && (field.role === "password_field" || isSecretCaption(field.label))) return { secret: true, box, why: `the field « ${field.label} » is a password field` };
    // A caption just left of the field (same row) or just above it.
    const [rx1, ry1, rx2, ry2] = region;
    const [fx1, fy1, fx2, fy2] = field?.bbox ?? region;
    const h = fy2 - fy1;
    const caption = det.ocr?.lines.find((l) => {
      const [lx1, ly1, lx2, ly2] = l.bbox;
      const cy = (ly1 + ly2) / 2;
      const sameRow = cy >= fy1 && cy <= fy2 && lx2 <= fx1 + 4 && fx1 - lx2 < 400;
      const above = ly2 <= fy1 + 4 && fy1 - ly2 < Math.max(1.5 * h, 30) && lx1 < fx2 && lx2 > fx1 - 20;
      return (sameRow || above) && isSecretCaption(l.text);
    });
    if (caption) return { secret: true, box, why: `the field's caption « ${caption.text} » names a secret` };
    const read = (det.ocr?.lines ?? []).filter((l) => bboxIntersection(l.bbox, [rx1 - 4, ry1 - 4, rx2 + 4, ry2 + 4])).map((l) => l.text).join(" ");
    if (!showsTyped(read, q.text)) return { secret: true, box, why: "the typed text is not readable in the field (bullets, or unreadable)" };
    return { secret: false, box, why: "the typed text shows in a field that is no password field" };
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

