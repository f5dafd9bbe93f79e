import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rpav } from "../support/cli.js";
import { labKit } from "./support.js";

const kit = labKit();
const home = mkdtempSync(join(tmpdir(), "rpav-start-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("rpav start (npm start's job)", () => {
  it("captures a real app, detects its elements, embeds and stores it, finds it again, writes a report, replays the bundled demo; twice", () => {
    for (const run of [1, 2]) {
      const r = rpav(["start"], { ...kit.env, RPAV_HOME: home }, undefined, 180_000);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/captured 1366×741/);
      expect(r.stdout).toMatch(new RegExp(`\\(${run} state\\(s\\) of Gtk3-widget-factory so far\\)`));
      expect(r.stdout).toMatch(/nearest stored states: screen_\S+ \(1\.000\)/);
      const report = /report: (\S+\.html)/.exec(r.stdout)?.[1] as string;
      expect(existsSync(report)).toBe(true);
      const html = readFileSync(report, "utf8");
      expect(html).toContain("data:image/png;base64,");
      expect(html).toContain("context_embedding");
      // The report shows the detected elements (boxes drawn on the screenshot, and a table).
      const found = Number(/(\d+) elements, \d+ text lines/.exec(r.stdout)?.[1]);
      expect(found).toBeGreaterThan(10);
      expect(html).toContain(`Detected elements (${found},`);
      expect(html).toMatch(/<td>button<\/td>/);
      // Then the bundled demo workflow is replayed on a real yad form with new values.
      expect(r.stdout).toContain('replay passed; yad printed "Durand|Héloïse|01/02/1990|" (as expected)');
      const replayReport = /replay report: (\S+report\.html)/.exec(r.stdout)?.[1] as string;
      expect(readFileSync(replayReport, "utf8")).toContain("Nouveau patient");
    }
    expect(existsSync(join(home, "rpav.db"))).toBe(true);
  }, 400_000);
});
