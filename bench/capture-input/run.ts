// Capture and input speed on the lab desktop.
// Run: npm run bench -- capture-input   (brings up a lab on :95, takes it down afterwards)
import { X11ScreenSource } from "../../src/platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../src/platform/x11/x11-window-info.js";
import { launchApp } from "../../src/lab/apps.js";
import { labDown, labUp } from "../../src/platform/x11/desktop-lab.js";
import { X11XTestInputDriver } from "../../src/platform/x11/x11-xtest-input-driver.js";
import { percentile, round, writeResult } from "../lib.js";

const DISPLAY = 95;
const session = await labUp({ display: DISPLAY });
const env = { ...process.env, ...session.env };
const windows = new X11WindowInfo({ env });
const screen = new X11ScreenSource({ env, windows });
const input = new X11XTestInputDriver({ env });

async function timeAsync(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}
const stats = (ms: number[]) => ({ median_ms: round(percentile(ms, 50), 2), p95_ms: round(percentile(ms, 95), 2), n: ms.length });

try {
  await screen.capture({ kind: "screen" }); // start the helper
  const grab = stats(await timeAsync(100, () => screen.capture({ kind: "screen" })));
  const region = stats(await timeAsync(100, () => screen.capture({ kind: "region", bbox: [100, 100, 500, 400] })));

  async function typingRate(text: string): Promise<{ chars_per_s: number; exact: boolean }> {
    const app = await launchApp(session, windows, { command: "yad", args: ["--form", "--title=Bench typing", "--field=Text"] });
    await windows.activate(app.window.id);
    const t0 = performance.now();
    await input.type(text, { meanDelayMs: 0, jitterMs: 0, targetWindow: app.window.id });
    const s = (performance.now() - t0) / 1000;
    await input.key("Return", { targetWindow: app.window.id });
    await app.exited;
    return { chars_per_s: round([...text].length / s, 1), exact: app.stdout() === `${text}|\n` };
  }
  const ascii = await typingRate("The quick brown fox jumps over the lazy dog 0123456789 !@#$%^&*()_+{}|:<>?".repeat(3));
  const accents = await typingRate("é à ç ù € œ Zoë ".repeat(5));

  const moves: number[] = [];
  for (let i = 0; i < 10; i++) {
    await input.move([100, 100], { durationMs: 0 });
    const t0 = performance.now();
    await input.move([1100, 700]);
    moves.push(performance.now() - t0);
  }
  const mouse = { distance_px: Math.round(Math.hypot(1000, 600)), ...stats(moves.sort((a, b) => a - b)) };

  console.log(`full-screen grab 1920x1080   median ${grab.median_ms} ms, p95 ${grab.p95_ms} ms (target <= 50 ms median)`);
  console.log(`region grab 400x300          median ${region.median_ms} ms, p95 ${region.p95_ms} ms`);
  console.log(`typing ASCII, zero jitter    ${ascii.chars_per_s} chars/s, read back exact: ${ascii.exact}`);
  console.log(`typing accents/€, no jitter  ${accents.chars_per_s} chars/s, read back exact: ${accents.exact}`);
  console.log(`mouse path ${mouse.distance_px} px, speed 1   median ${mouse.median_ms} ms, p95 ${mouse.p95_ms} ms`);
  writeResult("capture-input", { grab_1080p: grab, grab_region_400x300: region, typing_ascii: ascii, typing_non_ascii: accents, mouse_path: mouse });
} finally {
  await screen.close();
  await input.close();
  await labDown({ display: DISPLAY });
}
