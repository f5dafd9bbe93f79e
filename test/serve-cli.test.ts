// `rpav serve` as a user starts it: the URL with the token on stdout, 401 without the token, the
// token file private, a warning for another host, and a clean stop on SIGTERM.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-serve-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function serve(args: string[]): Promise<{ url: string; stderr: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [`${ROOT}bin/rpav.js`, "--data-dir", tmp, "serve", "--port", "0", ...args], { env: { ...process.env, DISPLAY: "" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no URL printed; stderr: ${err}`)), 30_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /RPA Vision Studio: (\S+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`rpav serve exited (${code}): ${err}`)));
  });
  return { url, stderr: () => err, stop: () => new Promise((resolve) => { child.once("exit", resolve); child.kill("SIGTERM"); }) };
}

describe("rpav serve", () => {
  it("prints its URL with the token; without the token a request gets 401, with it the page; SIGTERM stops it", async () => {
    const s = await serve([]);
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
      expect(statSync(join(tmp, "studio-token")).mode & 0o777).toBe(0o600);
      const origin = new URL(s.url).origin;
      expect((await fetch(`${origin}/workflows`)).status).toBe(401);
      const token = new URL(s.url).searchParams.get("token")!;
      const page = await fetch(`${origin}/workflows`, { headers: { "x-rpav-token": token } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("No workflow in the store yet");
      expect(s.stderr()).not.toContain("warning");
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it("another host only with --host, and a warning; the same token as the first start", async () => {
    const f = await serve([]);
    const first = new URL(f.url);
    await f.stop();
    const s = await serve(["--host", "0.0.0.0"]);
    try {
      expect(s.stderr()).toMatch(/warning: the studio listens on 0\.0\.0\.0: other machines can reach it/);
      expect(new URL(s.url).searchParams.get("token")).toBe(first.searchParams.get("token"));
    } finally {
      await s.stop();
    }
  });
});
