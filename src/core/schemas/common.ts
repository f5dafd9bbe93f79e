import { z } from "zod";

export const nonEmptyString = z.string().min(1, "must not be empty");

/** [x1, y1, x2, y2] in pixels of the screenshot it belongs to; x2 >= x1 and y2 >= y1. */
export const BBoxSchema = z
  .tuple([z.number(), z.number(), z.number(), z.number()])
  .refine((b) => b.every(Number.isFinite), "coordinates must be finite numbers")
  .refine((b) => b[2] >= b[0] && b[3] >= b[1], "must be [x1, y1, x2, y2] with x2 >= x1 and y2 >= y1");

/** A vector stored elsewhere: `vector_id` is the path of its .npy file (or a store key). */
export const EmbeddingRefSchema = z.looseObject({
  provider: nonEmptyString,
  vector_id: nonEmptyString,
});
export type EmbeddingRef = z.infer<typeof EmbeddingRefSchema>;

export const IsoTimestampSchema = z.iso.datetime({ offset: true, local: true });

/** One piece of recognised text with where it is (property 19). */
export const TextBoxSchema = z.looseObject({
  text: z.string(),
  bbox: BBoxSchema,
  confidence: z.number().min(0).max(1),
  /** "word" or "line"; lines are what `detected_text` lists. */
  level: z.enum(["word", "line"]),
});
export type TextBox = z.infer<typeof TextBoxSchema>;
