import { describe, expect, it } from "vitest";
import * as errors from "./errors.js";
import { CommandFailedError } from "./process.js";

describe("error family", () => {
  it("pins the exported list of error codes", () => {
    expect([...errors.ERROR_CODES]).toEqual([
      "aborted",
      "ambiguous_workflow",
      "assist_needed",
      "command_failed",
      "dangerous_action_blocked",
      "detector_failed",
      "display_unavailable",
      "invalid_config",
      "invalid_input",
      "model_answer_invalid",
      "npy_format",
      "plan_locked",
      "postcheck_failed",
      "provider_unavailable",
      "region_failed",
      "schema_invalid",
      "schema_version",
      "secret_unavailable",
      "store_error",
      "target_ambiguous",
      "target_not_found",
      "timeout",
      "unknown_provider",
      "vector_invalid",
      "window_not_found",
    ]);
  });

  it("gives every exported error class a listed code and the RpaError base", () => {
    const samples: errors.RpaError[] = [
      new errors.InvalidInputError("x"),
      new errors.SchemaValidationError("x", []),
      new errors.SchemaVersionError("x"),
      new errors.NpyFormatError("x"),
      new errors.VectorError("x"),
      new errors.ProviderUnavailableError("x"),
      new errors.UnknownProviderError("ocr", "nope", ["tesseract"]),
      new errors.ConfigError("x"),
      new errors.TimeoutError("x"),
      new errors.AbortedError(),
      new errors.DisplayUnavailableError("x"),
      new errors.WindowNotFoundError("x"),
      new errors.StoreError("x"),
      new errors.TargetNotFoundError("x"),
      new errors.TargetAmbiguousError("x"),
      new errors.PostcheckFailedError("x"),
      new errors.AssistNeededError("x"),
      new errors.DangerousActionBlockedError("x"),
      new errors.AmbiguousWorkflowError("x"),
      new errors.ModelAnswerInvalidError("x"),
      new errors.SecretUnavailableError("x"),
      new errors.PlanLockedError("x"),
      new errors.DetectorFailedError("x"),
      new errors.RegionFailedError("x"),
    ];
    const all = [...samples, new CommandFailedError("x", { code: 1, stdout: "", stderr: "" })];
    const classes = Object.values(errors).filter((v): v is typeof errors.RpaError => typeof v === "function" && v.prototype instanceof errors.RpaError);
    expect(samples.map((s) => s.constructor).sort((a, b) => a.name.localeCompare(b.name))).toEqual(classes.sort((a, b) => a.name.localeCompare(b.name)));
    expect(new Set(all.map((s) => s.code))).toEqual(new Set(errors.ERROR_CODES));
    for (const s of samples) {
      expect(s).toBeInstanceOf(errors.RpaError);
      expect(s).toBeInstanceOf(Error);
      expect(s.name).toBe(s.constructor.name);
    }
  });

  it("lists the known names in an unknown-provider message", () => {
    const e = new errors.UnknownProviderError("ocr", "paddle", ["tesseract", "paddle-onnx"]);
    expect(e.message).toBe('Unknown ocr provider "paddle". Known: tesseract, paddle-onnx.');
  });

  it("keeps the cause and serialises to JSON with code and details", () => {
    const cause = new Error("root");
    const e = new errors.StoreError("disk full at /data", { cause, details: { path: "/data" } });
    expect(e.cause).toBe(cause);
    expect(JSON.parse(JSON.stringify(e))).toEqual({ name: "StoreError", code: "store_error", message: "disk full at /data", details: { path: "/data" } });
  });

  it("throwIfAborted throws AbortedError only once the signal fired", () => {
    const ctl = new AbortController();
    expect(() => errors.throwIfAborted(ctl.signal)).not.toThrow();
    ctl.abort();
    expect(() => errors.throwIfAborted(ctl.signal, "capture")).toThrow(errors.AbortedError);
  });
});
