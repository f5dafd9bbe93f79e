// Launching test applications on the lab desktop and waiting until they can be used: the window
// is mapped (the product's launcher) and, for GTK apps, their accessibility tree is listed on
// AT-SPI (the lab's ground truth, which product code never reads).
import { launchApp as launchOnDisplay, type AppHandle, type LaunchSpec } from "../platform/x11/app-launcher.js";
import type { WindowInfo } from "../core/providers/window-info.js";
import { atspiApps } from "./atspi.js";

export type { AppHandle } from "../platform/x11/app-launcher.js";

export interface AppSpec extends Omit<LaunchSpec, "ready"> {
  /** Wait until the app is listed on AT-SPI (default true). */
  waitAtspi?: boolean;
}

export function launchApp(desktop: { env: NodeJS.ProcessEnv }, windows: WindowInfo, spec: AppSpec): Promise<AppHandle> {
  const { waitAtspi = true, ...rest } = spec;
  return launchOnDisplay(desktop, windows, {
    ...rest,
    ready: waitAtspi ? { what: `${spec.command} on AT-SPI`, check: async (env, pid) => (await atspiApps(env)).some((a) => a.pid === pid) } : undefined,
  });
}
