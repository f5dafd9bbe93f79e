// rpav replay --decision-model: the configured decision model (here the fake Ollama, speaking the
// real wire protocol) may choose among the options the actor's rules offer; its answer is checked
// and traced, and the rules decide when it answers outside the options, too slowly, or not at all.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModelOf } from "../vlm/decider.js";
import { closedPort, FakeOllama, type FakeRequest } from "../../test/support/fake-ollama.js";
import { FakeDesktop, formWorkflow, replayOnFake } from "../../test/support/fake-desktop.js";
import { resolveVlmConfig } from "./vlm-config.js";
import { createVlmProviders } from "./vlm-providers.js";

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

/** The decision model as `rpav replay --decision-model` builds it from the configuration. */
const configured = (url: string) => decisionModelOf(createVlmProviders(resolveVlmConfig(mkdtempSync(join(tmpdir(), "rpav-dm-")), { RPAV_VLM_URL: url }), { probeTimeoutMs: 300 }).decider);

/** A row whose window is minimised: the rules offer « restore_window » or « fail ». */
async function minimisedRow(url: string, decisionTimeoutMs?: number) {
  const d = new FakeDesktop();
  d.win = { ...d.win, visible: false, active: false };
  const r = await replayOnFake(d, formWorkflow(), { decisionModel: configured(url), ...(decisionTimeoutMs ? { decisionTimeoutMs } : {}) });
  return { ...r, adapt: r.decisions.find((x) => x.decision.kind === "adapt")?.decision, fail: r.decisions.find((x) => x.decision.kind === "fail")?.decision, d };
}

const answer = (chosen: string) => () => JSON.stringify({ chosen, reason: "la fenêtre est réduite" });

describe("rpav replay --decision-model", () => {
  it("the model chooses among the offered options only; its choice, name and reason are traced", async () => {
    fake = new FakeOllama({ respond: answer("fail") });
    const { adapt, fail, row, d } = await minimisedRow(await fake.start());
    // It chose to fail rather than restore: the actor follows a valid choice, and nothing was typed.
    expect(adapt).toBeUndefined();
    expect(fail).toMatchObject({ chosen: "fail", by: "model", evidence: expect.objectContaining({ model_reason: "la fenêtre est réduite" }) });
    expect(row.status).toBe("failed");
    expect(d.sent.filter((s) => s.startsWith("type"))).toEqual([]);
    // What the model was sent: the options' ids as the only allowed answers, the screen's facts as data.
    const chat = fake.chats()[0] as FakeRequest;
    expect(chat.model).toBe("gemma4:e4b");
    expect(JSON.stringify(chat.format)).toContain('"enum":["restore_window","fail"]');
    expect(chat.messages.at(-1)!.content).toContain("restore_window");
  });

  it("a valid answer to restore is followed and marked as the model's", async () => {
    fake = new FakeOllama({ respond: answer("restore_window") });
    const { adapt, row } = await minimisedRow(await fake.start());
    expect(adapt).toMatchObject({ chosen: "restore_window", by: "model", evidence: expect.objectContaining({ model: "vlm:gemma4:e4b" }) });
    expect(row.status).toBe("passed");
  });

  it("an answer outside the options is rejected (asked again once, then refused): the rules decide, and the refusal is traced", async () => {
    fake = new FakeOllama({ respond: answer("click_installer") });
    const { adapt, row } = await minimisedRow(await fake.start());
    expect(adapt).toMatchObject({ chosen: "restore_window", by: "rules", evidence: expect.objectContaining({ model: "vlm:gemma4:e4b", model_error: expect.any(String) }) });
    expect(fake.chats().length).toBeGreaterThanOrEqual(2);
    expect(row.status).toBe("passed");
  });

  it("no server: the rules decide at once, saying the model was unavailable", async () => {
    const t0 = performance.now();
    const { adapt, row } = await minimisedRow(await closedPort());
    expect(adapt).toMatchObject({ chosen: "restore_window", by: "rules", evidence: expect.objectContaining({ model_error: expect.stringMatching(/server|reach|unavailable|ECONNREFUSED/i) }) });
    expect(row.status).toBe("passed");
    expect(performance.now() - t0).toBeLessThan(20_000);
  });

  it("a model slower than the decision timeout: the rules decide", async () => {
    fake = new FakeOllama({ respond: answer("fail"), delayMs: 3000 });
    const { adapt } = await minimisedRow(await fake.start(), 400);
    expect(adapt).toMatchObject({ chosen: "restore_window", by: "rules", evidence: expect.objectContaining({ model_error: expect.stringContaining("took over 400 ms") }) });
  });
});
