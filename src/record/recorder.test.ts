// The recorder on a scripted event stream: keys with no name, wheel notches, the window of a
// press, and secrets decided from the screen (in doubt, secret).
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { InputEventSource, RawInputEvent } from "../core/providers/input-event-source.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { WindowInfo } from "../core/providers/window-info.js";
import { changedBox, showsTyped } from "./perception-adapters.js";
import { Recorder, type RecorderDeps, type SecretQuery } from "./recorder.js";
import { readSession } from "./session.js";

type Ev = Omit<RawInputEvent, "host" | "x" | "y" | "modifiers"> & Partial<Pick<RawInputEvent, "x" | "y" | "modifiers">>;

const W = 64;
const blank = () => makeFrame({ data: new Uint8Array(W * W * 4).fill(255), width: W, height: W, channels: 4 });

async function record(events: Ev[], deps: Partial<RecorderDeps> = {}) {
  const source: InputEventSource = {
    start: async (on) => {
      setTimeout(() => {
        for (const e of events) on({ x: 10, y: 10, modifiers: [], ...e, host: performance.now() });
      }, 30);
    },
    stop: async () => {},
  };
  const screen = { capture: async () => blank() } as unknown as ScreenSource;
  const active = { id: "0xactive", title: "Later window", appName: "App", instance: "app", pid: 1, bbox: [0, 0, W, W] as const, frame: { left: 0, right: 0, top: 0, bottom: 0 }, active: true, visible: true };
  const windows = { active: async () => active, list: async () => [active], get: async (id: string) => (id === active.id ? active : undefined) } as unknown as WindowInfo;
  const recorder = new Recorder({ events: source, screen, windows, encodePng: async () => Buffer.from("PNG"), ...deps });
  const dir = mkdtempSync(join(tmpdir(), "rpav-rec-unit-"));
  const run = recorder.record({ dir, name: "t", settleMs: 5, captureEveryMs: 10 });
  await new Promise((r) => setTimeout(r, 250));
  recorder.stop();
  await run;
  return { dir, session: readSession(dir) };
}

const key = (t: number, k: string | undefined, char?: string): Ev[] => [
  { t, ev: "key_down", ...(k ? { key: k } : {}), ...(char ? { char } : {}) },
  { t: t + 5, ev: "key_up", ...(k ? { key: k } : {}) },
];
const notSecret = async () => ({ secret: false, box: undefined, why: "test" });

describe("recorder", () => {
  it("keys with no name never become steps nor split the text typed around them", async () => {
    const { session } = await record([...key(1, "a", "a"), ...key(20, undefined), ...key(40, "b", "b"), ...key(60, "Return", "\n")], { secretField: notSecret });
    expect(session.actions.map((a) => [a.kind, a.text ?? a.combo])).toEqual([["type", "ab"], ["key", "Return"]]);
  });

  it("wheel notches become one scroll per direction and place; a middle click stays button 2", async () => {
    const { session } = await record([
      { t: 1, ev: "button_down", button: 5, x: 30, y: 30 },
      { t: 2, ev: "button_up", button: 5, x: 30, y: 30 },
      { t: 50, ev: "button_down", button: 5, x: 31, y: 30 },
      { t: 51, ev: "button_up", button: 5, x: 31, y: 30 },
      { t: 90, ev: "button_down", button: 5, x: 31, y: 31 },
      { t: 100, ev: "button_down", button: 4, x: 31, y: 31 },
      { t: 2000, ev: "button_down", button: 7, x: 31, y: 31 },
      { t: 3000, ev: "button_down", button: 2, x: 20, y: 20 },
      { t: 3040, ev: "button_up", button: 2, x: 20, y: 20 },
    ]);
    expect(session.actions.map((a) => [a.kind, a.dy ?? 0, a.dx ?? 0, a.button ?? null])).toEqual([["scroll", 3, 0, null], ["scroll", -1, 0, null], ["scroll", 0, 1, null], ["click", 0, 0, 2]]);
    expect(session.actions[0]).toMatchObject({ x: 30, y: 30 });
  });

  it("the window of a click is the one under the pointer at the press, not the one active later", async () => {
    const dialog = { id: "0xd1a", title: "Confirmation", app: "Yad", bbox: [10, 10, 50, 50] as const };
    const { session } = await record([
      { t: 1, ev: "button_down", button: 1, x: 20, y: 20, window: dialog },
      { t: 4, ev: "button_up", button: 1, x: 20, y: 20 },
    ]);
    expect(session.actions[0]).toMatchObject({ kind: "click", window: { id: "0xd1a", title: "Confirmation" } });
  });

  it("a click held briefly that closed a dialog: the dialog the windows showed under the pointer before the press, not the window under it when the press is handled", async () => {
    const frame = { left: 0, right: 0, top: 20, bottom: 0 };
    const main = { id: "0xa1", title: "Fenêtre principale", appName: "Yad", instance: "yad", pid: 1, bbox: [0, 0, W, W] as const, frame, active: false, visible: true };
    const dialog = { ...main, id: "0xd1a", title: "Confirmation", pid: 2, bbox: [10, 30, 50, 50] as const, active: true };
    let open = true;
    const windows = { active: async () => (open ? dialog : { ...main, active: true }), list: async () => (open ? [main, dialog] : [{ ...main, active: true }]), get: async (id: string) => (id === main.id ? main : open ? dialog : undefined) } as unknown as WindowInfo;
    const asked = { id: main.id, title: main.title, app: "Yad", bbox: main.bbox };
    const later = (e: Ev) => ({ ...e, window: asked });
    const { session } = await record([], {
      windows,
      events: {
        start: async (on) => {
          setTimeout(() => {
            open = false; // the click closed the dialog before its press was handled
            for (const e of [later({ t: 1, ev: "button_down", button: 1, x: 20, y: 25 }), { t: 4, ev: "button_up", button: 1, x: 20, y: 25 } as Ev]) on({ modifiers: [], ...e, host: performance.now() } as never);
          }, 60);
        },
        stop: async () => {},
      },
    });
    // On the dialog's title bar (its decorations count): the dialog.
    expect(session.actions[0]).toMatchObject({ kind: "click", window: { id: "0xd1a", title: "Confirmation" } });
  });

  it("a click that closed its window, the title read as the window went away (empty): the title the windows showed before the press", async () => {
    const form = { id: "0xf0", title: "Nouveau patient", appName: "Yad", instance: "yad", pid: 1, bbox: [0, 0, W, W] as const, frame: { left: 0, right: 0, top: 0, bottom: 0 }, active: true, visible: true };
    const windows = { active: async () => form, list: async () => [form], get: async () => form } as unknown as WindowInfo;
    const { session } = await record([{ t: 1, ev: "button_down", button: 1, x: 20, y: 20, window: { id: "0xf0", title: "", app: "Yad", bbox: form.bbox } }, { t: 4, ev: "button_up", button: 1, x: 20, y: 20 }], { windows });
    expect(session.actions[0]).toMatchObject({ kind: "click", window: { id: "0xf0", title: "Nouveau patient" } });
  });

  it("a burst is secret when nothing says otherwise, and the field or window is painted over; the text never reaches the disk", async () => {
    const queries: SecretQuery[] = [];
    const { dir, session } = await record([...key(1, "x", "x"), ...key(10, "y", "y"), ...key(20, "Tab", "\t"), ...key(30, "q", "q"), ...key(40, "z", "z")], {
      secretField: async (q) => {
        queries.push(q);
        return q.text === "xy" ? { secret: false, box: undefined, why: "shown" } : { secret: true, box: [0, 0, 8, 8], why: "bullets" };
      },
    });
    expect(session.actions.map((a) => [a.kind, a.text ?? a.combo ?? (a.secret ? `secret:${a.length}` : "")])).toEqual([["type", "xy"], ["key", "Tab"], ["type", "secret:2"]]);
    // After Tab, the last click no longer locates the field.
    expect(queries[1]!.click).toBeUndefined();
    for (const f of readdirSync(dir)) if (f.endsWith(".jsonl")) expect(readFileSync(join(dir, f), "utf8")).not.toContain("qz");
    const noCheck = await record([...key(1, "p", "p"), ...key(10, "w", "w")]);
    expect(noCheck.session.actions[0]).toMatchObject({ kind: "type", secret: true, length: 2 });
  });

  it("a click's after screen is taken when it settles or when the next action starts, not when its job runs behind a slow secret check", async () => {
    // The app's screen is one grey level; events and their effects come at set times (ms).
    let level = 0;
    const at = (ms: number, f: () => void) => setTimeout(f, ms);
    const source: InputEventSource = {
      start: async (on) => {
        const ev = (ms: number, e: Ev) => at(ms, () => on({ x: 10, y: 10, modifiers: [], ...e, host: performance.now() }));
        ev(10, { t: 10, ev: "key_down", key: "a", char: "a" });
        ev(20, { t: 20, ev: "key_up", key: "a" });
        ev(100, { t: 100, ev: "button_down", button: 1, x: 20, y: 20 });
        ev(110, { t: 110, ev: "button_up", button: 1, x: 20, y: 20 });
        at(150, () => (level = 100)); // the click's effect
        ev(400, { t: 400, ev: "key_down", key: "Return", char: "\n" });
        at(420, () => (level = 200)); // Return closes the window
      },
      stop: async () => {},
    };
    const screen = { capture: async () => makeFrame({ data: new Uint8Array(W * W * 4).fill(level), width: W, height: W, channels: 4 }) } as unknown as ScreenSource;
    const active = { id: "0xa", title: "Form", appName: "App", instance: "app", pid: 1, bbox: [0, 0, W, W] as const, frame: { left: 0, right: 0, top: 0, bottom: 0 }, active: true, visible: true };
    const recorder = new Recorder({
      events: source,
      screen,
      windows: { active: async () => active, list: async () => [active], get: async () => active } as unknown as WindowInfo,
      encodePng: async (f: Frame) => Buffer.from(String(f.data[0])),
      secretField: async () => {
        await new Promise((r) => setTimeout(r, 900));
        return { secret: false, box: undefined, why: "slow" };
      },
    });
    const dir = mkdtempSync(join(tmpdir(), "rpav-rec-after-"));
    const run = recorder.record({ dir, name: "t", settleMs: 500, captureEveryMs: 20 });
    await new Promise((r) => setTimeout(r, 700));
    recorder.stop();
    await run;
    const { actions } = readSession(dir);
    expect(actions.map((a) => a.kind)).toEqual(["type", "click", "key"]);
    const shot = (name: string | null | undefined) => readFileSync(join(dir, name!), "utf8");
    // The click's after shows its own effect, not the window Return closed later.
    expect(shot(actions[1]!.after)).toBe("100");
    expect(shot(actions[2]!.after)).toBe("200");
  });
});

describe("secret field cues", () => {
  it("changedBox finds what typing changed; showsTyped tells shown text from bullets", () => {
    const a: Frame = blank();
    const b: Frame = blank();
    for (let y = 20; y < 30; y++) for (let x = 12; x < 40; x++) (b.data as Uint8Array)[(y * W + x) * 4] = 0;
    expect(changedBox(a, b)).toEqual([12, 20, 40, 30]);
    expect(changedBox(a, b, [0, 0, 10, 10])).toBeUndefined();
    expect(showsTyped("Nom  Martin", "Martin")).toBe(true);
    expect(showsTyped("Prenom Zoe", "Zoë")).toBe(true);
    expect(showsTyped("/tmp/rpav-rec-mousepad-x1/janvier.txt", "/tmp/rpav-rec-mousepad-XY/janvier.txt")).toBe(true);
    expect(showsTyped("••••••••", "s3cr€t!Zq")).toBe(false);
    expect(showsTyped("*********", "hunter22")).toBe(false);
    expect(showsTyped("", "abc")).toBe(false);
  });
});

describe("builder and replay of scroll and middle click", () => {
  it("scroll → a scroll step at a window-relative point; middle click its own action; two quick middle clicks are no double click", async () => {
    const { buildWorkflow } = await import("./template-builder.js");
    const { scrollPoint } = await import("../actor/actor.js");
    const { writeFileSync, mkdirSync } = await import("node:fs");
    const dir = mkdtempSync(join(tmpdir(), "rpav-sess-scroll-"));
    mkdirSync(join(dir, "shots"));
    const win = { id: "0x1", title: "Liste", app: "App", bbox: [100, 50, 500, 450] };
    const acts = [
      { kind: "scroll", x: 300, y: 250, dy: 3 },
      { kind: "click", button: 2, x: 200, y: 100, t: 5000 },
      { kind: "click", button: 2, x: 200, y: 100, t: 5100 },
    ];
    const lines = [JSON.stringify({ schema_version: "rawsession_v1", name: "s", app: "App", started_at: "2026-12-01T00:00:00Z" }), ...acts.map((a, i) => JSON.stringify({ seq: i + 1, t: 1000 * (i + 1), window: win, before: null, after: null, ...a })), JSON.stringify({ kind: "end" })];
    writeFileSync(join(dir, "session.jsonl"), `${lines.join("\n")}\n`);
    const { workflow } = await buildWorkflow(readSession(dir), { reader: { read: async () => ({ elements: [], lines: [] }) }, loadImage: async () => blank(), saveIcon: async (n) => n });
    const real = workflow.steps.filter((s) => s.action !== "wait_for");
    expect(real.map((s) => s.action)).toEqual(["scroll", "middle_click", "middle_click"]);
    expect(real[0]!.scroll).toEqual({ dx: 0, dy: 3, at: [200, 200] });
    expect(scrollPoint(real[0]!, [0, 0, 1000, 1000])).toEqual([200, 200]);
    expect(scrollPoint(real[0]!, [10, 10, 100, 100])).toEqual([99, 99]);
  });
});
