// One structured logger: silent in the library unless injected, levelled in the CLI
// (--log-level, $RPAV_LOG), matching scores traced, detection failures saved with their screenshot.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFrame } from "../src/core/frame.js";
import type { Logger } from "../src/core/providers/logger.js";
import { logLevel } from "../src/cli/logger.js";
import { UIElementDetector } from "../src/perception/ui-element-detector.js";
import { rpav } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-logging-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function capture(): { logger: Logger; lines: { level: string; fields: Record<string, unknown>; msg?: string }[] } {
  const lines: { level: string; fields: Record<string, unknown>; msg?: string }[] = [];
  const make = (bindings: Record<string, unknown>): Logger => {
    const at = (level: string) => (a: Record<string, unknown> | string, msg?: string) => lines.push(typeof a === "string" ? { level, fields: bindings, msg: a } : { level, fields: { ...bindings, ...a }, msg });
    return { trace: at("trace"), debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), child: (b) => make({ ...bindings, ...b }) };
  };
  return { logger: make({}), lines };
}

beforeAll(async () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360" fill="#f4f4f4"/><rect x="80" y="150" width="200" height="44" rx="6" fill="#fff" stroke="#111" stroke-width="2"/><text x="110" y="180" font-family="DejaVu Sans" font-size="22" fill="#111">Valider</text></svg>`;
  writeFileSync(join(tmp, "a.png"), await sharp(Buffer.from(svg)).png().toBuffer());
  writeFileSync(join(tmp, "wf.json"), JSON.stringify({ workflow_id: "wf_log", steps: [{ step_id: "s1", expected_state: "a.png" }] }));
});

describe("logging", () => {
  it("the level comes from --log-level, else RPAV_LOG, else warn; a wrong name is a usage error", () => {
    expect(logLevel(undefined, {})).toBe("warn");
    expect(logLevel(undefined, { RPAV_LOG: "DEBUG" })).toBe("debug");
    expect(logLevel("error", { RPAV_LOG: "debug" })).toBe("error");
    expect(() => logLevel(undefined, { RPAV_LOG: "chatty" })).toThrow(/RPAV_LOG must be one of trace, debug, info, warn, error, fatal, silent/);
  });

  it("the CLI traces matching scores at debug, readable on stderr, and says nothing at the default level", () => {
    const quiet = rpav(["match", join(tmp, "a.png"), "--workflow", join(tmp, "wf.json"), "--mode", "light"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/step score/);
    const loud = rpav(["--log-level", "debug", "match", join(tmp, "a.png"), "--workflow", join(tmp, "wf.json"), "--mode", "light"]);
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/DEBUG.*step score/);
    expect(loud.stderr).toMatch(/workflow_id: "wf_log"/);
    expect(loud.stderr).toMatch(/score: 1\b/);
    const json = rpav(["match", join(tmp, "a.png"), "--workflow", join(tmp, "wf.json"), "--mode", "light"], { RPAV_LOG: "debug", RPAV_LOG_FORMAT: "json" });
    const line = JSON.parse(json.stderr.split("\n").find((l) => l.includes("step score"))!);
    expect(line).toMatchObject({ level: 20, msg: "step score", stage: "match", workflow_id: "wf_log", step: "s1", method: "legacy", ok: true });
  });

  it("a failed detection is logged at warn with the screenshot it saved; without a logger the library is silent", async () => {
    const frame = makeFrame({ width: 64, height: 32, channels: 4, data: new Uint8Array(64 * 32 * 4).fill(200) });
    const { logger, lines } = capture();
    const saved: string[] = [];
    const broken = { name: "broken", recognize: async () => { throw new Error("model file damaged"); } };
    const det = await new UIElementDetector({ ocr: broken, logger, saveFailure: async (_f, what) => { const p = join(tmp, `${what}.png`); writeFileSync(p, "png"); saved.push(p); return p; } }).detect(frame, { appName: "demo" });
    expect(det.metadata.failed?.message).toContain("damaged");
    expect(saved).toEqual([join(tmp, "detector_failed.png")]);
    expect(existsSync(saved[0]!)).toBe(true);
    expect(lines.find((l) => l.level === "warn")).toMatchObject({ fields: { stage: "detect", code: "detector_failed", screenshot: saved[0], err: "model file damaged" } });
    expect(lines.find((l) => l.level === "debug")?.fields).toMatchObject({ stage: "detect", app: "demo", elements: 0 });
    // Default: no logger, nothing written anywhere, same result.
    const quiet = await new UIElementDetector({ ocr: broken }).detect(frame);
    expect(quiet.metadata.failed?.code).toBe("detector_failed");
  });
});
