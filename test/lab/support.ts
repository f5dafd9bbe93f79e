import { afterAll, beforeAll, inject } from "vitest";
import { pidAlive, sleep } from "../../src/core/process.js";
import { X11ScreenSource } from "../../src/platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../src/platform/x11/x11-window-info.js";
import { launchApp, type AppHandle, type AppSpec } from "../../src/lab/apps.js";
import type { LabSession } from "../../src/platform/x11/desktop-lab.js";
import { X11XTestInputDriver } from "../../src/platform/x11/x11-xtest-input-driver.js";
import { claimDesktop } from "./labs.js";

export interface LabKit {
  session: LabSession;
  env: NodeJS.ProcessEnv;
  windows: X11WindowInfo;
  screen: X11ScreenSource;
  input: X11XTestInputDriver;
  launch(spec: AppSpec): Promise<AppHandle>;
  /** Stops every app launched through `launch` and closes the screen source. */
  cleanup(): Promise<void>;
}

export function labKit(): LabKit {
  // A desktop no other file drives now (labs.ts): two files never share one. Held until the file's last test is done
  // (files clean up after each test too); after hooks run in reverse, so this one after the file's own.
  const { desktop: session, release } = claimDesktop(inject("labs"));
  afterAll(release);
  const env = { ...process.env, ...session.env };
  const windows = new X11WindowInfo({ env });
  const screen = new X11ScreenSource({ env, windows });
  const input = new X11XTestInputDriver({ env, speed: 3 });
  const apps: AppHandle[] = [];
  // Each file starts on an empty desktop: a window an earlier file left (an app a workflow launched, a test that
  // failed before its clean-up) would be grounded, activated or read in this file's place.
  beforeAll(() => clearDesktop(windows, session.display));
  return {
    session,
    env,
    windows,
    screen,
    input,
    async launch(spec) {
      const app = await launchApp(session, windows, spec);
      apps.push(app);
      return app;
    },
    async cleanup() {
      await Promise.all(apps.splice(0).map((a) => a.stop()));
      await screen.close();
      await input.close();
    },
  };
}

/** Ends the app of every window on the desktop (nothing of the lab's own has a client window), and says which. */
export async function clearDesktop(windows: X11WindowInfo, display: string): Promise<void> {
  const left = await windows.list();
  if (left.length === 0) return;
  process.stderr.write(`[lab ${display}] windows left by an earlier file, closed: ${left.map((w) => `${w.appName} « ${w.title} » (pid ${w.pid ?? "?"})`).join(", ")}\n`);
  const pids = [...new Set(left.map((w) => w.pid).filter((p): p is number => p !== null && p !== process.pid))];
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    for (const pid of pids) {
      try {
        if (pidAlive(pid)) process.kill(pid, signal);
      } catch {
        // ended meanwhile
      }
    }
    for (let i = 0; i < 40; i++) {
      if ((await windows.list()).length === 0) return;
      await sleep(50);
    }
  }
  const still = await windows.list();
  if (still.length > 0) throw new Error(`lab ${display}: windows still open after their apps were ended: ${still.map((w) => `« ${w.title} »`).join(", ")}`);
}
