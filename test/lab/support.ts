import { afterAll, inject } from "vitest";
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
