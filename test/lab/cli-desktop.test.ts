import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { rpav } from "../support/cli.js";
import { labKit } from "./support.js";

const kit = labKit();
afterEach(() => kit.cleanup());
const tmp = mkdtempSync(join(tmpdir(), "rpav-cli-desktop-"));

describe("desktop CLI commands on the lab", () => {
  it("rpav windows lists the app with its pid, and --json gives its geometry", async () => {
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Listed by rpav", "--field=A"] });
    const text = rpav(["windows"], kit.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`${app.window.id}\\s+${app.pid}\\s+Yad.*Listed by rpav`));
    const json = JSON.parse(rpav(["windows", "--json"], kit.env).stdout) as Array<{ id: string; bbox: number[] }>;
    expect(json.find((w) => w.id === app.window.id)?.bbox).toEqual([...app.window.bbox]);
  });

  it("rpav capture --window writes the client area as PNG", async () => {
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Captured by rpav", "--field=A"] });
    const out = join(tmp, "win.png");
    const r = rpav(["capture", "--window", "Captured by rpav", "--out", out], kit.env);
    expect(r.code).toBe(0);
    const meta = await sharp(readFileSync(out)).metadata();
    expect([meta.width, meta.height]).toEqual([app.window.bbox[2] - app.window.bbox[0], app.window.bbox[3] - app.window.bbox[1]]);
  });

  it("rpav act type and key reach a yad field through the window guard", async () => {
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Typed by rpav", "--field=A"] });
    expect(rpav(["act", "--window", "Typed by rpav", "type", "Zoë & €!", "--delay", "5", "--jitter", "2"], kit.env).code).toBe(0);
    expect(rpav(["act", "--window", "Typed by rpav", "key", "Return"], kit.env).code).toBe(0);
    await app.exited;
    expect(app.stdout()).toBe("Zoë & €!|\n");
  });

  it("unknown keys and windows are typed errors, exit 1", () => {
    const k = rpav(["act", "key", "ctrl+nope"], kit.env);
    expect(k.code).toBe(1);
    expect(k.stderr).toMatch(/error \[invalid_input\]: Unknown key "nope".*Valid names/);
    const w = rpav(["capture", "--window", "No such window anywhere", "--out", join(tmp, "x.png")], kit.env);
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/error \[window_not_found\]/);
  });

  it("without a display and without a lab, desktop commands say to run rpav lab up", () => {
    const r = rpav(["windows"], { DISPLAY: ":54" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error \[display_unavailable\].*rpav lab up/);
  });
});
