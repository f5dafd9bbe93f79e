import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WindowNotFoundError } from "../../src/core/errors.js";
import { labKit } from "./support.js";

const kit = labKit();
afterEach(() => kit.cleanup());

const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

describe("typing, read back from real applications", () => {
  it("types the issue's test string into a yad form field, read back exactly from yad's stdout", async () => {
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Typing oracle", "--field=Text"] });
    await kit.windows.activate(app.window.id);
    const text = 'Zoë & Co <x> !@#$%^&*()_+{}|:"<>? é à ç €';
    await kit.input.type(text, { meanDelayMs: 5, jitterMs: 3, targetWindow: app.window.id });
    await kit.input.key("Return", { targetWindow: app.window.id });
    await app.exited;
    expect(app.stdout()).toBe(`${text}|\n`);
  });

  it("types every printable ASCII character and non-ASCII text (é à ç ù € œ Zoë) at full speed", async () => {
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=ASCII oracle", "--field=Text"] });
    await kit.windows.activate(app.window.id);
    const text = `${PRINTABLE_ASCII} é à ç ù € œ Zoë`;
    await kit.input.type(text, { meanDelayMs: 0, jitterMs: 0, targetWindow: app.window.id });
    await kit.input.key("Return", { targetWindow: app.window.id });
    await app.exited;
    expect(app.stdout()).toBe(`${text}|\n`);
  });

  it("types multi-line text with accents and a tab into mousepad, saves with ctrl+s, file bytes are exact", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-mousepad-"));
    const file = join(dir, "note.txt");
    writeFileSync(file, "");
    // Its settings in memory: nothing it saves (its window's size) reaches the next mousepad on this machine.
    const app = await kit.launch({ command: "mousepad", args: [file], window: { app: "mousepad" }, env: { GSETTINGS_BACKEND: "memory" } });
    await kit.windows.activate(app.window.id);
    const guard = { targetWindow: app.window.id };
    const text = "Première ligne\tcolonne\nDeuxième : Zoë, € 12,50 ; œuf ç à ù\nfin";
    await kit.input.type(text, { meanDelayMs: 10, jitterMs: 5, ...guard });
    await kit.input.key("ctrl+s", guard);
    const deadline = Date.now() + 10_000;
    while (readFileSync(file, "utf8") === "" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(file)).toEqual(Buffer.from(text, "utf8"));
  });

  it("stops typing with WindowNotFoundError when the target closes, and sends nothing to the next window", async () => {
    const bystander = await kit.launch({ command: "yad", args: ["--form", "--title=Bystander", "--field=Text"] });
    const target = await kit.launch({ command: "yad", args: ["--form", "--title=Target", "--field=Text"] });
    await kit.windows.activate(target.window.id);
    const typing = kit.input.type("x".repeat(400), { meanDelayMs: 15, jitterMs: 0, targetWindow: target.window.id });
    await new Promise((r) => setTimeout(r, 600));
    target.process.kill("SIGKILL");
    await expect(typing).rejects.toThrow(WindowNotFoundError);
    // The bystander now gets focus; whatever it holds is what leaked.
    await kit.windows.activate(bystander.window.id);
    await kit.input.key("Return", { targetWindow: bystander.window.id });
    await bystander.exited;
    expect(bystander.stdout()).toBe("|\n");
  });
});
