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
  it("captures a real app, detects its elements, embeds and stores it, finds it again after a change with a printed cosine, writes a report, replays the bundled demo; twice", () => {
    for (const run of [1, 2]) {
      const r = rpav(["start"], { ...kit.env, RPAV_HOME: home }, undefined, 420_000);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/captured \d+×\d+ at \(\d+, \d+\)/); // the size depends on the fonts and on when GTK settles
      expect(r.stdout).toMatch(new RegExp(`\\(${run} state\\(s\\) of Gtk3-widget-factory so far\\)`));
      // Found again after a change (a check box clicked, the window recaptured): not the very vector stored.
      expect(r.stdout).toMatch(/clicked the check box .* recaptured: \d+\.\d+ % of the pixels changed/);
      const found = /found (screen_\S+) again by vector search: cosine (\d\.\d+) ≥ 0\.85 \(rank (\d+) of (\d+)\); image component cosine (\d\.\d+)/.exec(r.stdout);
      expect(found, r.stdout).not.toBeNull();
      // A check box ticked leaves text and layout as they were (fused cosine near 1); the image component shows it is another capture, not the stored vector.
      expect(Number(found![5])).toBeLessThan(1);
      expect(Number(found![4])).toBe(run);
      expect(r.stdout).toContain(`stored ${found![1]} in`);
      expect(r.stdout).toContain("main job: every part passed");
      expect(r.stdout).toMatch(/rpav serve, then open\n {2}http:\/\/127\.0\.0\.1:7878\/\?token=\S+/);
      expect(r.stdout).not.toContain("FAILED");
      const report = /report: (\S+\.html)/.exec(r.stdout)?.[1] as string;
      expect(existsSync(report)).toBe(true);
      const html = readFileSync(report, "utf8");
      expect(html).toContain("data:image/png;base64,");
      expect(html).toContain("context_embedding");
      // The report shows the detected elements (boxes drawn on the screenshot, and a table).
      const nFound = Number(/(\d+) elements, \d+ text lines/.exec(r.stdout)?.[1]);
      expect(nFound).toBeGreaterThan(10);
      expect(html).toContain(`Detected elements (${nFound},`);
      expect(html).toContain("Found again after a change");
      expect(html).toMatch(/<td>button<\/td>/);
      // Then the bundled demo workflow is replayed on a real yad form with new values.
      expect(r.stdout).toContain('replay passed; yad printed "Durand|Héloïse|01/02/1990|" (as expected)');
      const replayReport = /replay report: (\S+report\.html)/.exec(r.stdout)?.[1] as string;
      expect(readFileSync(replayReport, "utf8")).toContain("Nouveau patient");
    }
    expect(existsSync(join(home, "rpav.db"))).toBe(true);
  }, 900_000);
});
