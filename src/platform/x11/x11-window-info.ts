// WindowInfo for X11 through xprop / xwininfo / xdotool. Client-area geometry comes from
// xwininfo on the client window ("Absolute upper-left"), which stays right under a reparenting
// window manager such as openbox (xdotool getwindowgeometry is off by the frame there).
import { DisplayUnavailableError, WindowNotFoundError } from "../../core/errors.js";
import { CommandFailedError, runCommand, waitFor } from "../../core/process.js";
import { describeQuery, matchesQuery, type WindowDescriptor, type WindowInfo, type WindowQuery } from "../../core/providers/window-info.js";
import { normalizeWindowId, parseXprop, parseXwininfo, xpropNumbers, xpropStrings, xpropWindowIds } from "./x11-props.js";

export interface X11Env {
  /** Environment with DISPLAY (and XAUTHORITY if needed). */
  env: NodeJS.ProcessEnv;
}

export class X11WindowInfo implements WindowInfo {
  readonly name = "x11";
  private readonly env: NodeJS.ProcessEnv;

  constructor(opts: X11Env) {
    this.env = { ...opts.env, LC_ALL: "C.UTF-8" };
  }

  private async x(cmd: string, args: string[], signal?: AbortSignal, pkg = "x11-utils") {
    if (!this.env.DISPLAY) throw new DisplayUnavailableError("DISPLAY is not set: run `rpav lab up` for a virtual desktop, or set DISPLAY.");
    try {
      return await runCommand(cmd, args, { env: this.env, timeoutMs: 10_000, signal, packageHint: pkg });
    } catch (e) {
      if (e instanceof CommandFailedError && /unable to open display|Can't open display/i.test(e.result.stderr))
        throw new DisplayUnavailableError(`Cannot open X display ${this.env.DISPLAY}: run \`rpav lab up\` or set DISPLAY to a running X server.`, { cause: e });
      throw e;
    }
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
    const { clients, active } = await this.rootInfo(signal);
    const all = await Promise.all(clients.map((id) => this.describe(id, active, signal)));
    return all.filter((w): w is WindowDescriptor => w !== undefined);
  }

  async active(signal?: AbortSignal): Promise<WindowDescriptor | undefined> {
    const { active } = await this.rootInfo(signal);
    return active ? this.describe(active, active, signal) : undefined;
  }

  async activeId(signal?: AbortSignal): Promise<string | undefined> {
    const r = await this.x("xprop", ["-root", "_NET_ACTIVE_WINDOW"], signal);
    const id = xpropWindowIds(parseXprop(r.stdout).get("_NET_ACTIVE_WINDOW"))[0];
    return id === "0x0" ? undefined : id;
  }

  async get(id: string, signal?: AbortSignal): Promise<WindowDescriptor | undefined> {
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
}
