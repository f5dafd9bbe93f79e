// `rpav daemon`: a real daemon (the default hybrid detector and OCR) serves `rpav detect` and
// `rpav locate` the same answers they find in their own process; one of another choice is not used;
// a killed one leaves nothing that breaks a command; "auto" starts one for the next command.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpav } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-daemon-cli-"));
const png = join(tmp, "form.png");
const homes: string[] = [];
const home = (name: string) => {
  const h = join(tmp, name);
  homes.push(h);
  return { RPAV_HOME: h };
};
const status = (env: Record<string, string>) => JSON.parse(rpav(["daemon", "status", "--json"], env).stdout) as { pid: number; served: number; detector: string; used_by_default: boolean; socket: string } | null;

beforeAll(async () => {
  const buttons = ["Valider", "Annuler", "Imprimer"].map((b, i) => `<rect x="${80 + i * 260}" y="300" width="220" height="48" rx="6" fill="#fff" stroke="#111" stroke-width="2"/><text x="${110 + i * 260}" y="332" font-family="DejaVu Sans" font-size="22" fill="#111">${b}</text>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540"><rect width="960" height="540" fill="#f4f4f4"/><text x="80" y="200" font-family="DejaVu Sans" font-size="22" fill="#111">Nom du patient</text><rect x="300" y="176" width="300" height="36" fill="#fff" stroke="#888"/>${buttons}</svg>`;
  writeFileSync(png, await sharp(Buffer.from(svg)).png().toBuffer());
});

afterAll(() => {
  // No daemon outlives the tests.
  for (const h of homes) {
    const s = status({ RPAV_HOME: h });
    if (s) {
      try {
        process.kill(s.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

const elementsOf = (stdout: string) => (JSON.parse(stdout) as { ui_elements: unknown[] }).ui_elements;

describe("rpav daemon", () => {
  it("serves detect and locate the answers they find in their own process, and stops", () => {
    const env = home("a");
    const none = rpav(["daemon", "status"], env);
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/no detection daemon runs/);
    const local = rpav(["detect", png, "--json"], env, undefined, 120_000);
    expect(local.code, local.stderr).toBe(0);
    const localLocate = rpav(["locate", png, "click Annuler", "--json"], env, undefined, 120_000);
    expect(localLocate.code, localLocate.stderr).toBe(0);

    const start = rpav(["daemon", "start", "--idle", "10"], env, undefined, 180_000);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toMatch(/detection daemon ready: pid \d+, hybrid detector, hybrid OCR; stops after 10 min/);
    const s = status(env)!;
    expect(s).toMatchObject({ detector: "hybrid", used_by_default: true });
    expect(s.served).toBe(0);
    // Started twice: the one running is kept.
    expect(rpav(["daemon", "start"], env).stdout).toMatch(new RegExp(`already runs \\(pid ${s.pid}`));

    const remote = rpav(["detect", png, "--json"], env, undefined, 60_000);
    expect(remote.code, remote.stderr).toBe(0);
    expect(elementsOf(remote.stdout)).toEqual(elementsOf(local.stdout));
    const [a, b] = [local, remote].map((r) => readFileSync((JSON.parse(r.stdout) as { state_embedding: { vector_id: string } }).state_embedding.vector_id));
    expect(Buffer.compare(a!, b!)).toBe(0); // the screen vector, made by the daemon's embedder
    const remoteLocate = rpav(["locate", png, "click Annuler", "--json"], env, undefined, 60_000);
    expect(remoteLocate.code, remoteLocate.stderr).toBe(0);
    expect(JSON.parse(remoteLocate.stdout)).toEqual(JSON.parse(localLocate.stdout));
    expect(status(env)!.served).toBe(2); // two detections (detect's screen vector came with its detection)
    // With --out the crops are needed: that run detects in its own process.
    expect(rpav(["detect", png, "--out", join(tmp, "out")], env, undefined, 120_000).code).toBe(0);
    expect(status(env)!.served).toBe(2);

    const stop = rpav(["daemon", "stop"], env, undefined, 30_000);
    expect(stop.stdout).toMatch(new RegExp(`detection daemon pid ${s.pid} stopped`));
    expect(existsSync(s.socket)).toBe(false);
    expect(rpav(["daemon", "stop"], env).stdout).toMatch(/no detection daemon runs/);
  });

  it("a daemon of another detector is not used, nor replaced silently; a killed one breaks nothing", () => {
    const env = home("b");
    expect(rpav(["daemon", "start", "--detector", "rules", "--ocr", "ppocr"], env, undefined, 180_000).code).toBe(0);
    const s = status(env)!;
    expect(s).toMatchObject({ detector: "rules", used_by_default: false });
    const r = rpav(["detect", png, "--json", "--ocr", "ppocr"], env, undefined, 120_000);
    expect(r.code, r.stderr).toBe(0);
    expect(status(env)!.served).toBe(0);
    // A second daemon for the folder stops before loading anything.
    const second = rpav(["daemon", "run", "--detector", "rules", "--ocr", "ppocr"], env, undefined, 30_000);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`\\[invalid_input\\]: A detection daemon is already starting or running .*\\(pid ${s.pid}\\)`));
    const again = rpav(["daemon", "start"], env, undefined, 30_000);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/\[invalid_input\].*already runs.*would not use it.*rpav daemon stop/);
    // The same choice on the command line: used.
    expect(rpav(["detect", png, "--json", "--ocr", "ppocr", "--detector", "rules"], env, undefined, 60_000).code).toBe(0);
    expect(status(env)!.served).toBe(1); // the detection, its screen vector along

    process.kill(s.pid, "SIGKILL");
    const after = rpav(["detect", png, "--json", "--ocr", "ppocr", "--detector", "rules"], env, undefined, 120_000);
    expect(after.code, after.stderr).toBe(0);
    expect(elementsOf(after.stdout).length).toBeGreaterThan(0);
    expect(status(env)).toBeNull();
  });

  it("RPAV_DAEMON=auto starts one for the next command; off never uses one; anything else is a typed error", async () => {
    const env = home("c");
    const bad = rpav(["detect", png, "--json"], { ...env, RPAV_DAEMON: "sometimes" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/\[invalid_input\]: RPAV_DAEMON must be one of off, on, auto/);
    const first = rpav(["detect", png, "--json", "--ocr", "ppocr", "--detector", "rules"], { ...env, RPAV_DAEMON: "auto" }, undefined, 120_000);
    expect(first.code, first.stderr).toBe(0);
    let s = status(env);
    for (let i = 0; !s && i < 120; i++) {
      await new Promise((r) => setTimeout(r, 500));
      s = status(env);
    }
    expect(s).toMatchObject({ detector: "rules", served: 0 });
    expect(rpav(["detect", png, "--json", "--ocr", "ppocr", "--detector", "rules"], { ...env, RPAV_DAEMON: "off" }, undefined, 120_000).code).toBe(0);
    expect(status(env)!.served).toBe(0);
    expect(rpav(["detect", png, "--json", "--ocr", "ppocr", "--detector", "rules"], { ...env, RPAV_DAEMON: "auto" }, undefined, 60_000).code).toBe(0);
    expect(status(env)!.served).toBe(1);
    expect(rpav(["daemon", "stop"], env, undefined, 30_000).code).toBe(0);
  });
});
