// Desktop commands for people debugging a robot: lab, capture, windows, act. They use the same
// ScreenSource / WindowInfo / InputDriver as the product.
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import type { Logger } from "../../core/providers/logger.js";
import { fileURLToPath } from "node:url";
import { InvalidInputError, ProviderUnavailableError, WindowNotFoundError } from "../../core/errors.js";
import { runCommand } from "../../core/process.js";
import type { Point } from "../../core/geometry.js";
import { X11ScreenSource } from "../../platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../platform/x11/x11-window-info.js";
import { encodePng } from "../../capture/png.js";
import { labDown, labStatus, labUp } from "../../platform/x11/desktop-lab.js";
import { assertKnownButton, X11XTestInputDriver } from "../../platform/x11/x11-xtest-input-driver.js";
import { LAB_STATE_DIR } from "../config.js";
import { desktopEnv, resolveWindow } from "../desktop-env.js";

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** The command's structured logger (--log-level / $RPAV_LOG); silent when absent. */
  logger?: () => Logger;
}

function int(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n)) throw new InvalidInputError(`${name} must be an integer, got "${v}".`);
    return n;
  };
}

function parseSize(v: string): { width: number; height: number } {
  const m = /^(\d+)x(\d+)$/.exec(v);
  if (!m) throw new InvalidInputError(`--size must look like 1920x1080, got "${v}".`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** Installs the lab's missing Debian packages (lab/debian-packages.txt) through the setup script. */
async function installLabPackages(io: CliIo): Promise<void> {
  const script = fileURLToPath(new URL("../../../scripts/ensure-debian-packages.mjs", import.meta.url));
  const r = await runCommand(process.execPath, [script], { timeoutMs: 900_000, check: false, env: io.env });
  if (r.stderr.trim()) io.err(r.stderr);
  if (r.code !== 0) throw new ProviderUnavailableError(`Installing the lab's Debian packages failed (exit ${r.code}); see the messages above, or install lab/debian-packages.txt by hand.`);
}

function shellExports(env: Record<string, string>): string {
  return ["DISPLAY", "DBUS_SESSION_BUS_ADDRESS"].map((k) => `export ${k}='${env[k] ?? ""}'`).join("\n");
}

export function registerDesktopCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const lab = program.command("lab").description("virtual desktop lab (Xvfb, D-Bus, openbox, AT-SPI)");
  lab
    .command("up")
    .description("start the lab (idempotent); prints shell exports for DISPLAY and the session bus")
    .option("--display <n>", "X display number", int("--display"), 99)
    .option("--size <WxH>", "screen size", "1920x1080")
    .option("--json", "print the session as JSON")
    .option("--no-install", "do not install missing Debian packages first")
    .action(async (o: { display: number; size: string; json?: boolean; install: boolean }) => {
      if (o.install) await installLabPackages(io);
      const s = await labUp({ display: o.display, ...parseSize(o.size), stateDir: LAB_STATE_DIR, log: (m) => io.err(`[lab] ${m}\n`) });
      io.out(o.json ? `${JSON.stringify(s, null, 2)}\n` : `${shellExports(s.env)}\n`);
    });
  lab
    .command("down")
    .description("stop every process of the lab")
    .option("--display <n>", "X display number", int("--display"), 99)
    .action(async (o: { display: number }) => {
      const n = await labDown({ display: o.display, stateDir: LAB_STATE_DIR });
      io.out(`lab :${o.display} down, ${n} process(es) ended\n`);
    });
  lab
    .command("status")
    .description("is the lab running? (exit 1 when not)")
    .option("--display <n>", "X display number", int("--display"), 99)
    .option("--json", "print the session as JSON")
    .action(async (o: { display: number; json?: boolean }) => {
      const s = await labStatus({ display: o.display, stateDir: LAB_STATE_DIR });
      if (o.json) io.out(`${JSON.stringify(s ?? null, null, 2)}\n`);
      else io.out(s ? `lab up on ${s.display} (${s.width}x${s.height}) since ${s.startedAt}\n${shellExports(s.env)}\n` : `no lab on :${o.display}\n`);
      if (!s) setExit(1);
    });

  program
    .command("windows")
    .description("list top-level windows: id, title, app, pid, client geometry, active")
    .option("--json", "print as JSON")
    .action(async (o: { json?: boolean }) => {
      const windows = new X11WindowInfo({ env: desktopEnv(io.env) });
      const list = await windows.list();
      if (o.json) return io.out(`${JSON.stringify(list, null, 2)}\n`);
      for (const w of list)
        io.out(`${w.active ? "*" : " "} ${w.id.padEnd(10)} ${String(w.pid ?? "-").padEnd(7)} ${w.appName.padEnd(20)} ${`${w.bbox[2] - w.bbox[0]}x${w.bbox[3] - w.bbox[1]}+${w.bbox[0]}+${w.bbox[1]}`.padEnd(20)} ${w.title}\n`);
    });

  program
    .command("capture")
    .description("capture the screen, a window or a region to a PNG file")
    .option("--window <title|app|id>", "capture this window's client area")
    .option("--region <x,y,w,h>", "capture a region of the screen")
    .requiredOption("--out <file.png>", "output PNG")
    .action(async (o: { window?: string; region?: string; out: string }) => {
      const env = desktopEnv(io.env);
      const windows = new X11WindowInfo({ env });
      const source = new X11ScreenSource({ env, windows });
      try {
        let frame;
        if (o.window) {
          const w = await resolveWindow(windows, o.window);
          if (!w) throw new WindowNotFoundError(`No window matches "${o.window}" (see \`rpav windows\`).`);
          frame = await source.capture({ kind: "window", windowId: w.id });
        } else if (o.region) {
          const p = o.region.split(",").map(Number);
          if (p.length !== 4 || p.some((v) => !Number.isInteger(v))) throw new InvalidInputError(`--region must be x,y,w,h integers, got "${o.region}".`);
          const [x, y, w, h] = p as [number, number, number, number];
          frame = await source.capture({ kind: "region", bbox: [x, y, x + w, y + h] });
        } else frame = await source.capture({ kind: "screen" });
        await writeFile(o.out, await encodePng(frame));
        io.out(`${o.out}: ${frame.width}x${frame.height} at (${frame.origin.join(", ")}), scale ${frame.scaleFactor}\n`);
      } finally {
        await source.close();
      }
    });

  const act = program.command("act").description("send input: move, click, drag, scroll, type, key").option("--window <title|app|id>", "activate this window first and stop if it closes or loses focus");
  // Each act subcommand runs one action with a fresh driver, closed afterwards.
  const withDriver = async (fn: (input: X11XTestInputDriver, targetWindow: string | undefined) => Promise<void>): Promise<void> => {
    const env = desktopEnv(io.env);
    const input = new X11XTestInputDriver({ env });
    try {
      const spec = act.opts<{ window?: string }>().window;
      let target: string | undefined;
      if (spec) {
        const windows = new X11WindowInfo({ env });
        const w = await resolveWindow(windows, spec);
        if (!w) throw new WindowNotFoundError(`No window matches "${spec}" (see \`rpav windows\`).`);
        await windows.activate(w.id);
        target = w.id;
      }
      await fn(input, target);
    } finally {
      await input.close();
    }
  };
  const point = (x: string, y: string): Point => [int("x")(x), int("y")(y)];
  act.command("move <x> <y>").description("move the pointer along a human-like path").action((x: string, y: string) => withDriver((input) => input.move(point(x, y))));
  act
    .command("click <x> <y>")
    .description("move and click")
    .option("--button <b>", "left, middle or right", "left")
    .option("--double", "double click")
    .action((x: string, y: string, o: { button: string; double?: boolean }) =>
      withDriver((input, targetWindow) => input.click(point(x, y), { button: assertKnownButton(o.button), count: o.double ? 2 : 1, targetWindow })),
    );
  act
    .command("drag <x1> <y1> <x2> <y2>")
    .description("drag with the left button")
    .action((x1: string, y1: string, x2: string, y2: string) => withDriver((input, targetWindow) => input.drag(point(x1, y1), point(x2, y2), { targetWindow })));
  act
    .command("scroll <x> <y> <dy>")
    .description("scroll dy notches (positive: down)")
    .action((x: string, y: string, dy: string) => withDriver((input, targetWindow) => input.scroll(point(x, y), int("dy")(dy), 0, { targetWindow })));
  act
    .command("type <text>")
    .description("type text character by character (\\n and \\t in the text are Return and Tab)")
    .option("--delay <ms>", "mean delay between characters", int("--delay"), 60)
    .option("--jitter <ms>", "random jitter around the delay", int("--jitter"), 30)
    .action((text: string, o: { delay: number; jitter: number }) =>
      withDriver((input, targetWindow) => input.type(text.replace(/\\n/g, "\n").replace(/\\t/g, "\t"), { meanDelayMs: o.delay, jitterMs: o.jitter, targetWindow })),
    );
  act
    .command("key <combo>")
    .description("press a key combination: ctrl+s, alt+F4, ctrl+shift+t, Return")
    .action((combo: string) => withDriver((input, targetWindow) => input.key(combo, { targetWindow })));
}
