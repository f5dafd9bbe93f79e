// The virtual desktop lab: Xvfb + session D-Bus + openbox + AT-SPI bus, tracked so that `down`
// stops every process it started (and everything those started: apps, AT-SPI services).
//
// Every process of a lab carries RPAV_LAB_ID=<id> in its environment; `down` ends all processes
// whose /proc/<pid>/environ has it, so services activated by D-Bus are caught as well.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DisplayUnavailableError, InvalidInputError, ProviderUnavailableError } from "../../core/errors.js";
import { CommandFailedError, pidAlive, runCommand, sleep, waitFor } from "../../core/process.js";

export interface LabOptions {
  /** X display number (default 99). */
  display?: number;
  width?: number;
  height?: number;
  /** Where state files and logs live (default /tmp/rpav-lab). */
  stateDir?: string;
  log?: (msg: string) => void;
  signal?: AbortSignal;
}

export interface LabSession {
  id: string;
  display: string;
  width: number;
  height: number;
  /** Environment for programs that should run on this desktop. */
  env: Record<string, string>;
  pids: { xvfb: number; dbus: number; openbox: number };
  startedAt: string;
  /** Milliseconds the bring-up took (0 when an existing lab was reused). */
  upMs: number;
}

/** Look variants for apps (issue: themes, scale, text scale). */
export interface AppVariant {
  theme?: "light" | "dark" | "high-contrast";
  /** GDK_SCALE: integer window scale. */
  scale?: 1 | 2;
  /** GDK_DPI_SCALE: text scale. */
  textScale?: number;
  /** GTK's icon theme (an installed one, e.g. "Numix"): its settings.ini in a config folder of its own, first of XDG_CONFIG_DIRS. */
  iconTheme?: string;
  /** The lab's task apps' version (RPAV_TASK_VERSION): 2 is their next one, its toolbar changed (lab/task-apps). */
  version?: 2;
}

/** A config folder whose gtk-3.0/settings.ini names an icon theme (made once per theme under the temp folder). */
function iconThemeConfigDir(theme: string): string {
  if (!/^[\w.-]+$/.test(theme)) throw new InvalidInputError(`Icon theme "${theme}" is not a theme folder's name (letters, digits, ".", "-", "_").`);
  const dir = join("/tmp", `rpav-icon-theme-${theme}`);
  mkdirSync(join(dir, "gtk-3.0"), { recursive: true });
  writeFileSync(join(dir, "gtk-3.0", "settings.ini"), `[Settings]\ngtk-icon-theme-name=${theme}\n`);
  return dir;
}

export function variantEnv(v: AppVariant = {}): Record<string, string> {
  const env: Record<string, string> = {};
  if (v.version) env.RPAV_TASK_VERSION = String(v.version);
  if (v.iconTheme) env.XDG_CONFIG_DIRS = [iconThemeConfigDir(v.iconTheme), process.env.XDG_CONFIG_DIRS || "/etc/xdg"].join(":");
  if (v.theme === "dark") env.GTK_THEME = "Adwaita:dark";
  if (v.theme === "high-contrast") env.GTK_THEME = "HighContrast";
  if (v.scale && v.scale !== 1) env.GDK_SCALE = String(v.scale);
  if (v.textScale && v.textScale !== 1) env.GDK_DPI_SCALE = String(v.textScale);
  return env;
}

const DEFAULT_STATE_DIR = "/tmp/rpav-lab";

function statePath(dir: string, display: number): string {
  return join(dir, `display-${display}.json`);
}

/** PIDs of every process whose environment has RPAV_LAB_ID=<id> (or, with `prefix`, an id starting so). */
export function labProcesses(id: string, opts: { prefix?: boolean } = {}): number[] {
  const tail = opts.prefix ? "" : "\0";
  const needle = Buffer.from(`\0RPAV_LAB_ID=${id}${tail}`);
  const first = Buffer.from(`RPAV_LAB_ID=${id}${tail}`);
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${pid}/environ`);
      if (env.includes(needle) || env.subarray(0, first.length).equals(first)) out.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

async function displayReady(env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await runCommand("xdpyinfo", [], { env, timeoutMs: 3000, packageHint: "x11-utils" });
    return true;
  } catch (e) {
    if (e instanceof ProviderUnavailableError) throw e;
    return false;
  }
}

/** Reads the state of a lab on `display`; undefined when none is running. */
export async function labStatus(opts: LabOptions = {}): Promise<LabSession | undefined> {
  const display = opts.display ?? 99;
  const path = statePath(opts.stateDir ?? DEFAULT_STATE_DIR, display);
  if (!existsSync(path)) return undefined;
  let session: LabSession & { partial?: boolean };
  try {
    session = JSON.parse(readFileSync(path, "utf8")) as LabSession & { partial?: boolean };
  } catch {
    return undefined;
  }
  if (session.partial || !session.env) return undefined;
  const pidsAlive = pidAlive(session.pids.xvfb) && pidAlive(session.pids.openbox) && pidAlive(session.pids.dbus);
  if (!pidsAlive || !(await displayReady(session.env))) return undefined;
  return { ...session, upMs: 0 };
}

function spawnDetached(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): number {
  const fd = openSync(logFile, "a");
  const child = spawn(cmd, args, { env, detached: true, stdio: ["ignore", fd, fd] });
  child.on("error", () => undefined);
  if (child.pid === undefined) throw new ProviderUnavailableError(`Cannot start ${cmd}: is it installed? (see lab/debian-packages.txt)`);
  child.unref();
  return child.pid;
}

/**
 * Starts the lab, or returns the one already running on that display (idempotent).
 * About 2–3 s once the Debian packages are installed.
 */
export async function labUp(opts: LabOptions = {}): Promise<LabSession> {
  const display = opts.display ?? 99;
  const width = opts.width ?? 1920;
  const height = opts.height ?? 1080;
  const stateDir = opts.stateDir ?? DEFAULT_STATE_DIR;
  const log = opts.log ?? (() => undefined);
  const existing = await labStatus(opts);
  if (existing) {
    if (existing.width !== width || existing.height !== height)
      throw new InvalidInputError(`A lab already runs on :${display} at ${existing.width}×${existing.height}; run \`rpav lab down --display ${display}\` first to change the size.`);
    log(`lab already up on ${existing.display}`);
    return existing;
  }
  const t0 = Date.now();
  mkdirSync(stateDir, { recursive: true });
  await labDown({ ...opts, quiet: true }); // leftovers of a crashed lab on this display
  // No valid lab here, so any process still tagged for this display is a leftover of an earlier
  // lab whose state was lost (a crash, a killed test run): ours to end.
  const strays = labProcesses(`lab-${display}-`, { prefix: true });
  if (strays.length > 0) {
    log(`ending ${strays.length} stray process(es) of an earlier lab on :${display}`);
    for (const pid of strays) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await sleep(100);
  }
  const lock = `/tmp/.X${display}-lock`;
  if (existsSync(lock)) {
    const owner = Number(readFileSync(lock, "utf8").trim());
    if (pidAlive(owner)) throw new DisplayUnavailableError(`Display :${display} is already used by another X server (pid ${owner}); choose another with --display.`);
    rmSync(lock, { force: true });
    rmSync(`/tmp/.X11-unix/X${display}`, { force: true });
  }
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await bringUp(display, width, height, stateDir, t0, opts);
    } catch (e) {
      // A half-started lab must not leak: end whatever it started, then try again.
      lastError = e;
      log(`bring-up attempt ${attempt} failed (${(e as Error).message}); cleaning up${attempt < 3 ? " and retrying" : ""}`);
      await labDown({ ...opts, quiet: true });
      await sleep(300 * attempt);
    }
  }
  throw lastError;
}

async function bringUp(display: number, width: number, height: number, stateDir: string, t0: number, opts: LabOptions): Promise<LabSession> {
  const log = opts.log ?? (() => undefined);
  const id = `lab-${display}-${process.pid}-${Date.now().toString(36)}`;
  // Written first, so that `labDown` can find and end this lab's processes if bring-up fails.
  writeFileSync(statePath(stateDir, display), `${JSON.stringify({ id, display: `:${display}`, pids: { xvfb: 0, dbus: 0, openbox: 0 }, partial: true })}\n`);
  const logFile = join(stateDir, `display-${display}.log`);
  const base: Record<string, string> = { ...(process.env as Record<string, string>), DISPLAY: `:${display}`, RPAV_LAB_ID: id, LC_ALL: "C.UTF-8", LANG: "C.UTF-8" };
  delete base.NO_AT_BRIDGE;
  delete base.DBUS_SESSION_BUS_ADDRESS;
  delete base.WAYLAND_DISPLAY;

  log(`starting Xvfb :${display} ${width}x${height}x24`);
  const xvfb = spawnDetached("Xvfb", [`:${display}`, "-screen", "0", `${width}x${height}x24`, "-nolisten", "tcp", "+extension", "RECORD", "-ac"], base, logFile);
  await waitFor(`Xvfb on :${display}`, async () => (!pidAlive(xvfb) ? false : (await displayReady(base)) ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, signal: opts.signal }).then((ok) => {
    if (!ok) throw new DisplayUnavailableError(`Xvfb on :${display} exited at start; see ${logFile}.`);
  });

  log("starting session D-Bus");
  const dbusOut = await runCommand("dbus-launch", ["--sh-syntax"], { env: base, timeoutMs: 10_000, packageHint: "dbus-x11" });
  const address = /DBUS_SESSION_BUS_ADDRESS='([^']+)'/.exec(dbusOut.stdout)?.[1];
  const dbusPid = Number(/DBUS_SESSION_BUS_PID=(\d+)/.exec(dbusOut.stdout)?.[1]);
  if (!address || !dbusPid) throw new ProviderUnavailableError(`dbus-launch gave no bus address: ${dbusOut.stdout.trim()}`);
  const env: Record<string, string> = { ...base, DBUS_SESSION_BUS_ADDRESS: address };

  log("starting openbox");
  // Under heavy CPU load openbox sometimes fails to open a display that answers xdpyinfo at the
  // same moment (seen here: "Failed to open the display"); starting it again works, so it gets
  // a few tries on the same X server before the whole bring-up is retried.
  let openbox = 0;
  for (let attempt = 1; ; attempt++) {
    openbox = spawnDetached("openbox", ["--sm-disable"], env, logFile);
    const pid = openbox;
    const up = await waitFor(
      "the openbox window manager",
      async () => {
        if (!pidAlive(pid)) return false;
        const r = await runCommand("xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], { env, check: false, timeoutMs: 3000 });
        return /window id #/.test(r.stdout) ? true : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 50, signal: opts.signal },
    );
    if (up) break;
    const xState = pidAlive(xvfb) ? `pid ${xvfb} alive, ${(await displayReady(base)) ? "answering" : "not answering"}` : "gone";
    if (attempt >= 5) throw new DisplayUnavailableError(`openbox exited at start ${attempt} times (X server ${xState}); see ${logFile}.`);
    log(`openbox exited at start (X server ${xState}); starting it again`);
    await sleep(200 * attempt, opts.signal);
  }

  log("starting the AT-SPI accessibility bus");
  try {
    await runCommand("dbus-send", ["--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"], { env, timeoutMs: 10_000, packageHint: "at-spi2-core" });
  } catch (e) {
    if (!(e instanceof CommandFailedError)) throw e;
    log(`AT-SPI bus unavailable (${e.message}); ground truth through AT-SPI will not work`);
  }

  const session: LabSession = {
    id,
    display: `:${display}`,
    width,
    height,
    env: Object.fromEntries(["DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "RPAV_LAB_ID", "LC_ALL", "LANG"].map((k) => [k, env[k] as string])),
    pids: { xvfb, dbus: dbusPid, openbox },
    startedAt: new Date().toISOString(),
    upMs: Date.now() - t0,
  };
  writeFileSync(statePath(stateDir, display), `${JSON.stringify(session, null, 2)}\n`);
  log(`lab up on :${display} in ${session.upMs} ms`);
  return session;
}

/** Stops every process of the lab on that display. Returns how many processes were ended. */
export async function labDown(opts: LabOptions & { quiet?: boolean } = {}): Promise<number> {
  const display = opts.display ?? 99;
  const path = statePath(opts.stateDir ?? DEFAULT_STATE_DIR, display);
  if (!existsSync(path)) return 0;
  let session: LabSession | undefined;
  try {
    session = JSON.parse(readFileSync(path, "utf8")) as LabSession;
  } catch {
    session = undefined;
  }
  let count = 0;
  if (session) {
    const tracked = [session.pids.openbox, session.pids.dbus, session.pids.xvfb].filter((p) => p > 0);
    const pids = [...new Set([...labProcesses(session.id), ...tracked])].filter(pidAlive);
    count = pids.length;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline && pids.some(pidAlive)) await sleep(50);
    for (const pid of pids.filter(pidAlive)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    if (!opts.quiet) opts.log?.(`lab on ${session.display} down (${count} processes ended)`);
  }
  // The X server may still answer for a moment while it exits (its abstract socket lingers):
  // wait until the display is really free, so that a new lab cannot talk to the old server.
  const env = { ...process.env, DISPLAY: `:${display}` };
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && (await displayReady(env).catch(() => false))) await sleep(50);
  rmSync(path, { force: true });
  rmSync(`/tmp/.X${display}-lock`, { force: true });
  rmSync(`/tmp/.X11-unix/X${display}`, { force: true });
  return count;
}
