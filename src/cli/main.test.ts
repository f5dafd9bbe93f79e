// The CLI loads only the module of the command named: the table of modules must name every
// command each module adds, and the command must be found past global options and their values.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, commandNamed, COMMAND_MODULES } from "./main.js";

const io = { out: () => undefined, err: () => undefined, env: {} };

describe("rpav's command modules", () => {
  it("each module adds exactly the top-level commands the table names", async () => {
    for (const m of COMMAND_MODULES) {
      const program = new Command();
      // "workflow" is made by the recorder's module and completed by the patches' module.
      if (m.names.length === 1 && m.names[0] === "workflow") program.command("workflow");
      (await m.load())(program, io, () => undefined);
      expect(program.commands.map((c) => c.name()).sort(), m.names.join(",")).toEqual([...m.names].sort());
    }
  });

  it("a command line naming one command loads its module only; help and typos load all", async () => {
    const all = (await buildProgram(io, () => undefined, ["node", "rpav", "--help"])).commands.map((c) => c.name());
    expect(all).toEqual(expect.arrayContaining(["validate", "detect", "locate", "daemon", "replay", "run", "secret", "workflow"]));
    expect((await buildProgram(io, () => undefined, ["node", "rpav", "detetc"])).commands.length).toBe(all.length);
    expect((await buildProgram(io, () => undefined, ["node", "rpav", "--version"])).commands.length).toBe(0);
    expect((await buildProgram(io, () => undefined, ["node", "rpav", "--data-dir", "/tmp/x", "locate", "a.png", "b"])).commands.map((c) => c.name())).toEqual(["detect", "locate"]);
    const wf = await buildProgram(io, () => undefined, ["node", "rpav", "workflow", "patches"]);
    expect(wf.commands.map((c) => c.name())).toEqual(["record", "build", "workflow"]);
    expect(wf.commands.find((c) => c.name() === "workflow")!.commands.length).toBeGreaterThan(1);
  });

  it("finds the command past global options and their values", () => {
    const p = new Command().option("--data-dir <dir>").option("--log-level <level>").option("--debug-x");
    expect(commandNamed(p, ["node", "rpav", "detect", "x.png"])).toBe("detect");
    expect(commandNamed(p, ["node", "rpav", "--data-dir", "detect", "locate"])).toBe("locate");
    expect(commandNamed(p, ["node", "rpav", "--data-dir=/d", "--debug-x", "replay"])).toBe("replay");
    expect(commandNamed(p, ["node", "rpav", "--log-level", "debug", "--", "run"])).toBe("run");
    expect(commandNamed(p, ["node", "rpav", "--version"])).toBeUndefined();
  });
});
