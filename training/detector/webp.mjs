// Encodes screens as lossless WebP for pack.py: `node webp.mjs JOBS.json`, JOBS = [[src.png, dst.webp], …] (sharp's libwebp).
import sharp from "sharp";
import { readFileSync, statSync } from "node:fs";

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
let bytes = 0;
let n = 0;
for (const [src, dst] of jobs) {
  await sharp(src).removeAlpha().webp({ lossless: true, effort: 4 }).toFile(dst);
  bytes += statSync(dst).size;
  if (++n % 200 === 0) console.log(`  ${n}/${jobs.length} screens, ${(bytes / 1048576).toFixed(1)} MiB`);
}
