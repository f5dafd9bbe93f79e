// WindowInfo for X11. Window queries go through the long-lived helper native/x11-windows.c (one X
// connection, one JSON line per answer: about a millisecond) instead of an xprop and an xwininfo
// process per window and query — each process start cost 35–150 ms in a replay whose process holds
// the OCR models (fork of a large process, 2 loaded cores), several times per step. When the helper
// is not built, the x11-utils processes answer as before. Both read the client area's geometry as
// xwininfo does ("Absolute upper-left"), which stays right under a reparenting window manager such
// as openbox (xdotool getwindowgeometry is off by the frame there). Activation stays with xdotool.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { DisplayUnavailableError, RpaError, TimeoutError, WindowNotFoundError, throwIfAborted } from "../../core/errors.js";
import { CommandFailedError, endHelper, runCommand, waitFor } from "../../core/process.js";
import { describeQuery, matchesQuery, type WindowDescriptor, type WindowInfo, type WindowQuery } from "../../core/providers/window-info.js";
import { normalizeWindowId, parseXprop, parseXwininfo, xpropNumbers, xpropStrings, xpropWindowIds } from "./x11-props.js";

export const DEFAULT_WINDOWS_HELPER = fileURLToPath(new URL("../../../native/build/rpav-x11-windows", import.meta.url));

export interface X11Env {
  /** Environment with DISPLAY (and XAUTHORITY if needed). */
  env: NodeJS.ProcessEnv;
  /** The window helper (default native/build/rpav-x11-windows); null: the x11-utils processes (xprop, xwininfo). */
  helperPath?: string | null;
}

/** One window as the helper describes it (native/x11-windows.c). */
export interface HelperWindow {
  id: string;
  title: string;
  class: string;
  instance: string;
  pid: number | null;
  x: number;
  y: number;
  width: number;
  height: number;
  frame: [number, number, number, number];
  viewable: boolean;
  hidden: boolean;
}

/** What the helper answers to `list`, `get ID` and `active`. */
export interface HelperReply {
  active?: string | null;
  windows?: HelperWindow[];
  error?: string;
}

/** The helper's window as a WindowDescriptor (the same fields the x11-utils path fills). */
export function descriptorOf(w: HelperWindow, activeId: string | undefined): WindowDescriptor {
  const id = normalizeWindowId(w.id);
  const [left, right, top, bottom] = w.frame;
  return {
    id,
    title: w.title,
    appName: w.class,
    instance: w.instance,
    pid: w.pid,
    bbox: [w.x, w.y, w.x + w.width, w.y + w.height],
    frame: { left, right, top, bottom },
    active: id === activeId,
    visible: w.viewable && !w.hidden,
  };
}

function activeOf(r: HelperReply): string | undefined {
  return r.active ? normalizeWindowId(r.active) : undefined;
}

/** Requests answered in order by one helper process; it lets the Node process end while idle. */
class WindowsHelper {
  private child: ChildProcessWithoutNullStreams | undefined;
  private waiting: Array<{ resolve: (r: HelperReply) => void; reject: (e: Error) => void }> = [];
  private stderr = "";

  constructor(
    private readonly path: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn(this.path, [], { env: this.env, stdio: ["pipe", "pipe", "pipe"] });
    this.stderr = "";
    createInterface({ input: child.stdout }).on("line", (line) => {
      const w = this.waiting.shift();
      if (!w) return;
      try {
        w.resolve(JSON.parse(line) as HelperReply);
      } catch (e) {
        w.reject(new RpaError("provider_unavailable", `The window helper answered something unreadable (${(e as Error).message}): ${line.slice(0, 200)}`));
      }
      this.hold();
    });
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    child.on("error", (e) => this.failAll(child, new RpaError("provider_unavailable", `The window helper ${this.path} could not start: ${e.message}.`, { cause: e })));
    child.on("exit", (code) =>
      this.failAll(
        child,
        code === 3
          ? new DisplayUnavailableError(`Cannot open X display ${this.env.DISPLAY}: run \`rpav lab up\` or set DISPLAY to a running X server.`)
          : new RpaError("provider_unavailable", `The window helper exited (code ${code}): ${this.stderr.trim() || "no message"}.`),
      ),
    );
    child.stdin.on("error", () => undefined);
    this.child = child;
    return child;
  }

  private failAll(child: ChildProcessWithoutNullStreams, e: Error): void {
    if (this.child !== child) return;
    this.child = undefined;
    for (const w of this.waiting.splice(0)) w.reject(e);
  }

  /** Keeps the Node process alive while an answer is awaited, not while the helper is idle. */
  private hold(): void {
    const c = this.child;
    if (!c) return;
    const on = this.waiting.length > 0;
    for (const h of [c, c.stdin, c.stdout, c.stderr] as Array<{ ref?: () => void; unref?: () => void }>) (on ? h.ref : h.unref)?.call(h);
  }

  request(line: string, signal?: AbortSignal, timeoutMs = 10_000): Promise<HelperReply> {
    throwIfAborted(signal, "window query");
    const child = this.start();
    return new Promise<HelperReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        // No answer: the helper is stuck (a server grabbed by another client?). A fresh one next time.
        this.failAll(child, new TimeoutError(`The window helper did not answer « ${line} » within ${timeoutMs} ms.`));
        child.kill("SIGKILL");
      }, timeoutMs);
      this.waiting.push({
        resolve: (r) => {
          clearTimeout(timer);
          if (r.error) reject(new RpaError("provider_unavailable", `The window helper refused « ${line} »: ${r.error}.`));
          else resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.hold();
      child.stdin.write(`${line}\n`);
    });
  }

  async close(): Promise<void> {
    if (this.child) await endHelper(this.child);
  }
}

export class X11WindowInfo implements WindowInfo {
  readonly name = "x11";
  private readonly env: NodeJS.ProcessEnv;
  private readonly helper: WindowsHelper | undefined;

  constructor(opts: X11Env) {
    this.env = { ...opts.env, LC_ALL: "C.UTF-8" };
    const path = opts.helperPath === undefined ? DEFAULT_WINDOWS_HELPER : opts.helperPath;
    this.helper = path && existsSync(path) ? new WindowsHelper(path, this.env) : undefined;
  }

  /** How windows are read: "helper" (one X connection) or "x11-utils" (a process per query). */
  get via(): "helper" | "x11-utils" {
    return this.helper ? "helper" : "x11-utils";
  }

  private checkDisplay(): void {
    if (!this.env.DISPLAY) throw new DisplayUnavailableError("DISPLAY is not set: run `rpav lab up` for a virtual desktop, or set DISPLAY.");
  }

  private async x(cmd: string, args: string[], signal?: AbortSignal, pkg = "x11-utils") {
    this.checkDisplay();
    try {
      return await runCommand(cmd, args, { env: this.env, timeoutMs: 10_000, signal, packageHint: pkg });
    } catch (e) {
      if (e instanceof CommandFailedError && /unable to open display|Can't open display/i.test(e.result.stderr))
        throw new DisplayUnavailableError(`Cannot open X display ${this.env.DISPLAY}: run \`rpav lab up\` or set DISPLAY to a running X server.`, { cause: e });
      throw e;
    }
  }

  private ask(line: string, signal?: AbortSignal): Promise<HelperReply> {
    this.checkDisplay();
    return this.helper!.request(line, signal);
  }

  private async rootInfo(signal?: AbortSignal): Promise<{ clients: string[]; active: string | undefined }> {
    const r = await this.x("xprop", ["-root", "_NET_CLIENT_LIST", "_NET_ACTIVE_WINDOW"], signal);
    const p = parseXprop(r.stdout);
    const active = xpropWindowIds(p.get("_NET_ACTIVE_WINDOW"))[0];
    return { clients: xpropWindowIds(p.get("_NET_CLIENT_LIST")), active: active === "0x0" ? undefined : active };
  }

  private async describe(id: string, activeId: string | undefined, signal?: AbortSignal): Promise<WindowDescriptor | undefined> {
    let props: Map<string, string>;
    let geo: ReturnType<typeof parseXwininfo>;
    try {
      const [xp, xw] = await Promise.all([
        this.x("xprop", ["-id", id, "_NET_WM_NAME", "WM_NAME", "WM_CLASS", "_NET_WM_PID", "_NET_FRAME_EXTENTS", "_NET_WM_STATE"], signal),
        this.x("xwininfo", ["-id", id], signal),
      ]);
      props = parseXprop(xp.stdout);
      geo = parseXwininfo(xw.stdout);
    } catch (e) {
      // The window vanished between listing and describing it.
      if (e instanceof CommandFailedError && /BadWindow|No such window/i.test(e.result.stderr)) return undefined;
      throw e;
    }
    if (!geo) return undefined;
    const title = xpropStrings(props.get("_NET_WM_NAME") ?? "")[0] ?? xpropStrings(props.get("WM_NAME") ?? "")[0] ?? "";
    const [instance = "", appName = ""] = xpropStrings(props.get("WM_CLASS") ?? "");
    const pid = xpropNumbers(props.get("_NET_WM_PID"))[0] ?? null;
    const [left = 0, right = 0, top = 0, bottom = 0] = xpropNumbers(props.get("_NET_FRAME_EXTENTS"));
    const hidden = /_NET_WM_STATE_HIDDEN/.test(props.get("_NET_WM_STATE") ?? "");
    return {
      id,
      title,
      appName,
      instance,
      pid,
      bbox: [geo.x, geo.y, geo.x + geo.width, geo.y + geo.height],
      frame: { left, right, top, bottom },
      active: id === activeId,
      visible: geo.viewable && !hidden,
    };
  }

  async list(signal?: AbortSignal): Promise<WindowDescriptor[]> {
    if (this.helper) {
      const r = await this.ask("list", signal);
      const active = activeOf(r);
      return (r.windows ?? []).map((w) => descriptorOf(w, active));
    }
    const { clients, active } = await this.rootInfo(signal);
    const all = await Promise.all(clients.map((id) => this.describe(id, active, signal)));
    return all.filter((w): w is WindowDescriptor => w !== undefined);
  }

  async active(signal?: AbortSignal): Promise<WindowDescriptor | undefined> {
    if (this.helper) {
      const id = await this.activeId(signal);
      return id ? this.get(id, signal) : undefined;
    }
    const { active } = await this.rootInfo(signal);
    return active ? this.describe(active, active, signal) : undefined;
  }

  async activeId(signal?: AbortSignal): Promise<string | undefined> {
    if (this.helper) return activeOf(await this.ask("active", signal));
    const r = await this.x("xprop", ["-root", "_NET_ACTIVE_WINDOW"], signal);
    const id = xpropWindowIds(parseXprop(r.stdout).get("_NET_ACTIVE_WINDOW"))[0];
    return id === "0x0" ? undefined : id;
  }

  async get(id: string, signal?: AbortSignal): Promise<WindowDescriptor | undefined> {
    if (this.helper) {
      const r = await this.ask(`get ${normalizeWindowId(id)}`, signal);
      const w = r.windows?.[0];
      return w ? descriptorOf(w, activeOf(r)) : undefined;
    }
    const { active } = await this.rootInfo(signal);
    return this.describe(normalizeWindowId(id), active, signal);
  }

  async find(query: WindowQuery, signal?: AbortSignal): Promise<WindowDescriptor | undefined> {
    const windows = (await this.list(signal)).filter((w) => matchesQuery(w, query));
    return windows.find((w) => w.active) ?? windows[windows.length - 1];
  }

  waitFor(query: WindowQuery, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WindowDescriptor> {
    return waitFor(`a window with ${describeQuery(query)}`, () => this.find(query, opts.signal), { timeoutMs: opts.timeoutMs, intervalMs: 100, signal: opts.signal }).catch((e: unknown) => {
      if (e instanceof Error && e.name === "TimeoutError") throw new WindowNotFoundError(`No window with ${describeQuery(query)} appeared within ${opts.timeoutMs} ms.`, { cause: e, details: { query: describeQuery(query) } });
      throw e;
    });
  }

  async activate(id: string, signal?: AbortSignal): Promise<void> {
    const w = await this.get(id, signal);
    if (!w) throw new WindowNotFoundError(`Window ${id} does not exist (closed?).`, { details: { windowId: id } });
    await this.x("xdotool", ["windowactivate", "--sync", w.id], signal, "xdotool");
    // The window manager announces the new active window a moment later, under load especially;
    // keystrokes sent before that can land in the previous window.
    await waitFor(`window ${w.id} to become active`, async () => ((await this.activeId(signal)) === w.id ? true : undefined), { timeoutMs: 3000, intervalMs: 30, signal });
  }

  /** Ends the helper (it also ends by itself when this process does). */
  async close(): Promise<void> {
    await this.helper?.close();
  }
}
