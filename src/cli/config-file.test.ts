import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RpaError} from "../core/errors.js";
import { ConfigError, SchemaVersionError } from "../core/errors.js";
import { CONFIG_MAX_BYTES, readConfigFile } from "./config-file.js";
import { retentionSetting } from "./commands/gc.js";
import { keyChoice } from "./secrets.js";
import { resolveVlmConfig } from "./vlm-config.js";
import { resolveDetector } from "./commands/perception.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rpav-config-"));
  file = join(dir, "config.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (v: unknown) => writeFileSync(file, typeof v === "string" ? v : JSON.stringify(v));

/** The error every reader of config.json throws for this file, the same one for all three. */
function errorsOfEveryReader(): RpaError[] {
  const errors: RpaError[] = [];
  for (const read of [() => readConfigFile(dir), () => resolveVlmConfig(dir, {}), () => retentionSetting(dir), () => keyChoice(dir, {})]) {
    try {
      read();
    } catch (e) {
      errors.push(e as RpaError);
      continue;
    }
    throw new Error("a reader accepted the file");
  }
  return errors;
}

describe("config.json, one reader", () => {
  it("no file: every section takes its default", () => {
    expect(readConfigFile(dir)).toBeUndefined();
    expect(retentionSetting(dir)).toBe("30d");
    expect(keyChoice(dir, {})).toBe("auto");
    expect(resolveVlmConfig(dir, {}).sources).toEqual(["defaults"]);
  });

  it("one file feeds the three readers, and keeps the sections and keys it does not know", () => {
    write({ studio: { port: 8080 }, retention: { older_than: "12h", keep_reports: true }, secrets: { key: "file" }, vlm: { timeout_ms: 5000 } });
    const loaded = readConfigFile(dir)!;
    expect(loaded.file).toBe(file);
    expect(loaded.config).toMatchObject({ studio: { port: 8080 }, retention: { older_than: "12h", keep_reports: true } });
    expect(retentionSetting(dir)).toBe("12h");
    expect(keyChoice(dir, {})).toBe("file");
    expect(keyChoice(dir, { RPAV_SECRET_KEY: "keyring" })).toBe("keyring");
    expect(resolveVlmConfig(dir, {}).timeoutMs).toBe(5000);
  });

  it("malformed JSON is invalid_config naming the file, the place and what to do, for every reader", () => {
    write('{\n  "vlm": { "url": "http://gpu:11434", }\n}');
    for (const e of errorsOfEveryReader()) {
      expect(e).toBeInstanceOf(ConfigError);
      expect(e.message).toContain(file);
      expect(e.message).toMatch(/line 2, column/);
      expect(e.message).toMatch(/fix it, or move it away/);
    }
  });

  it("a bad value in a known section names its path; a bad section fails every reader alike", () => {
    write({ retention: { older_than: 30 }, secrets: { key: "vault" } });
    for (const e of errorsOfEveryReader()) {
      expect(e).toBeInstanceOf(ConfigError);
      expect(e.message).toContain(file);
      expect(e.message).toMatch(/retention\.older_than: /);
      expect(e.message).toMatch(/secrets\.key: /);
    }
    write({ retention: { older_than: "soon" } });
    expect(() => retentionSetting(dir)).toThrow(/retention\.older_than: "soon" is not an age/);
    write({ vlm: { roles: { grounding: { modle: "x" } } } });
    expect(() => resolveVlmConfig(dir, {})).toThrow(/vlm\.roles\.grounding/);
  });

  it("a newer schema_version is a schema_version error saying to upgrade; an unknown one says what to write", () => {
    write({ schema_version: "config_v2", vlm: { timeout_ms: 5000 } });
    for (const e of errorsOfEveryReader()) {
      expect(e).toBeInstanceOf(SchemaVersionError);
      expect(e.message).toContain(file);
      expect(e.message).toMatch(/newer RPA Vision: upgrade rpav/);
    }
    write({ schema_version: "settings" });
    expect(() => readConfigFile(dir)).toThrow(/Write "schema_version": "config_v1" or leave it out/);
    write({ schema_version: "config_v1", retention: { older_than: "2w" } });
    expect(retentionSetting(dir)).toBe("2w");
  });

  it("not an object, not UTF-8, too big, a folder: typed errors naming the file", () => {
    write("[1, 2]");
    expect(() => readConfigFile(dir)).toThrow(/expected a JSON object .* got an array/);
    write("");
    expect(() => readConfigFile(dir)).toThrow(ConfigError);
    writeFileSync(file, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
    expect(() => readConfigFile(dir)).toThrow(/not UTF-8/);
    writeFileSync(file, `{"pad": "${"x".repeat(CONFIG_MAX_BYTES)}"}`);
    expect(() => readConfigFile(dir)).toThrow(/bigger than the 1\.0 MiB limit of a config file/);
    rmSync(file);
    mkdirSync(file);
    expect(() => readConfigFile(dir)).toThrow(/is a directory/);
    for (const e of errorsOfEveryReader()) expect(e.message).toContain(file);
  });

  it("the element detector: --detector, else RPAV_DETECTOR, else perception.detector, else the hybrid; a bad name is a typed error", () => {
    expect(resolveDetector(dir, {})).toBe("hybrid");
    write({ perception: { detector: "rules" } });
    expect(resolveDetector(dir, {})).toBe("rules");
    expect(resolveDetector(dir, { RPAV_DETECTOR: "learned" })).toBe("learned");
    expect(resolveDetector(dir, { RPAV_DETECTOR: "learned" }, "rules")).toBe("rules");
    expect(() => resolveDetector(dir, { RPAV_DETECTOR: "yolo" })).toThrow(/RPAV_DETECTOR must be one of rules, learned, hybrid, got "yolo"/);
    expect(() => resolveDetector(dir, {}, "cnn")).toThrow(/--detector must be one of/);
    write({ perception: { detector: "cnn" } });
    expect(() => resolveDetector(dir, {})).toThrow(ConfigError);
    expect(() => resolveDetector(dir, {})).toThrow(/perception\.detector/);
  });
});
