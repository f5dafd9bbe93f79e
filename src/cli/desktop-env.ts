// Which X display the desktop commands use: $DISPLAY when set, else the lab started by `rpav lab up`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DisplayUnavailableError } from "../core/errors.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import { LAB_STATE_DIR } from "./config.js";

export function desktopEnv(env: NodeJS.ProcessEnv, labDisplay = 99): NodeJS.ProcessEnv {
  if (env.DISPLAY) return env;
  const state = join(LAB_STATE_DIR, `display-${labDisplay}.json`);
  if (existsSync(state)) {
    const session = JSON.parse(readFileSync(state, "utf8")) as { env: Record<string, string> };
    return { ...env, ...session.env };
  }
  throw new DisplayUnavailableError("No display: DISPLAY is not set and no lab is running. Run `rpav lab up`, or set DISPLAY.");
}

/** `--window` argument: a window id (0x…), an exact title, an app name, or a title substring. */
export async function resolveWindow(windows: WindowInfo, spec: string): Promise<WindowDescriptor | undefined> {
  const all = await windows.list();
  const pick = (ws: WindowDescriptor[]) => ws.find((w) => w.active) ?? ws[ws.length - 1];
  if (/^0x[0-9a-f]+$/i.test(spec)) return all.find((w) => w.id === `0x${parseInt(spec, 16).toString(16)}`);
  return (
    pick(all.filter((w) => w.title === spec)) ??
    pick(all.filter((w) => w.appName.toLowerCase() === spec.toLowerCase() || w.instance.toLowerCase() === spec.toLowerCase())) ??
    pick(all.filter((w) => w.title.toLowerCase().includes(spec.toLowerCase())))
  );
}
