import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { procProcessProbe, processStart, runningProcess } from "./process-id.js";

describe("the process of a running run", () => {
  it("is named by pid, host and start time; a pid that is gone or reused by another process is not alive; another host cannot be told", async () => {
    const me = runningProcess();
    expect(me).toMatchObject({ pid: process.pid, host: hostname() });
    expect(me.pid_start).toMatch(/^\d+$/);
    expect(processStart(process.pid)).toBe(me.pid_start);
    expect(procProcessProbe(process.pid, hostname(), me.pid_start)).toBe(true);
    expect(procProcessProbe(process.pid, hostname())).toBe(true);
    // The same pid with another start time: a new process took the dead run's pid.
    expect(procProcessProbe(process.pid, hostname(), String(Number(me.pid_start) + 1))).toBe(false);
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((res) => dead.once("exit", res));
    expect(procProcessProbe(dead.pid!, hostname())).toBe(false);
    expect(procProcessProbe(process.pid, `${hostname()}-elsewhere`)).toBeUndefined();
  });
});
