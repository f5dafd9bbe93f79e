import { createHash } from "node:crypto";
import { bboxCenter, type BBox } from "./geometry.js";
import { normalizeLabel } from "./text.js";

/**
 * Stable element id: hash(app_name, bbox centre, normalized label) as the design asks
 * (properties 5 and 6). The centre is written with at most one decimal (centres of integer
 * boxes are multiples of 0.5), so the id does not depend on float formatting.
 * Two elements get different ids when their app, centre or normalized label differ.
 */
export function elementId(appName: string, bbox: BBox, label: string): string {
  const [cx, cy] = bboxCenter(bbox);
  const key = [appName, `${formatCoord(cx)},${formatCoord(cy)}`, normalizeLabel(label)].join("\u001f");
  return `el_${createHash("sha256").update(key, "utf8").digest("hex").slice(0, 20)}`;
}

function formatCoord(v: number): string {
  return (Math.round(v * 10) / 10).toFixed(1);
}

/** A readable, sortable, unique-enough id with a prefix: `screen_2025-11-21T10-15-32.123Z_ab12cd`. */
export function timestampedId(prefix: string, date: Date = new Date(), entropy: () => string = randomSuffix): string {
  return `${prefix}_${date.toISOString().replace(/:/g, "-")}_${entropy()}`;
}

function randomSuffix(): string {
  return createHash("sha256").update(`${process.hrtime.bigint()}-${Math.random()}`).digest("hex").slice(0, 6);
}

/** SHA-256 of content, hex: the name of content-addressed files (screenshots, crops, cache entries). */
export function contentHash(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}
