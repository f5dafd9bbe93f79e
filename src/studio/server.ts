// RPA Vision Studio: a local web app over the store and the data directory — runs read like a
// trace viewer, workflows with their variables and versions, the assist questions of waiting runs,
// and new runs followed live. Fastify (routing, HTTP), @fastify/static (assets, screenshots), eta
// (server-side templates, auto-escaped) and htmx (served from its package). Every request carries
// the token; every page is under a strict Content Security Policy (no inline script or style).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyCookie from "@fastify/cookie";
import fastifyStatic from "@fastify/static";
import { Eta } from "eta";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { AssistInbox } from "../core/providers/assist-channel.js";
import type { Store } from "../core/providers/store.js";
import { isRpaError } from "../core/errors.js";
import { registerAskRoutes } from "./routes-ask.js";
import { registerPatchRoutes, type PatchList } from "./routes-patches.js";
import { registerPlanRoutes } from "./routes-plans.js";
import { registerRunRoutes } from "./routes-runs.js";
import { registerStartRoutes, type ReplaySpawner } from "./routes-start.js";
import { registerWorkflowRoutes } from "./routes-workflows.js";
import { RunIndex, type ProcessProbe } from "./runs.js";
import { tokenMatches } from "./token.js";
import { REPORT_CSS } from "../replay/report.js";

export const COOKIE = "rpav_studio";
export const TOKEN_HEADER = "x-rpav-token";

export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export interface StudioOptions {
  dataDir: string;
  store: Store;
  /** The assist channel's answering side (<data dir>/assist). */
  inbox: AssistInbox;
  token: string;
  /** The workflow patches proposed from assist answers (<data dir>/patches). */
  patches: PatchList;
  /** Starts `rpav replay` with these arguments (the composition root knows the executable). */
  spawnReplay: ReplaySpawner;
  /** Tells whether a run's process lives (default: signal 0 on this host). */
  processProbe?: ProcessProbe;
  /** Logs requests (pino, through Fastify); off by default. */
  logger?: boolean;
}

/** What every route gets: the pieces above plus the template engine and the run index. */
export interface StudioContext extends StudioOptions {
  runs: RunIndex;
  page(reply: FastifyReply, view: string, data: Record<string, unknown>, status?: number): Promise<FastifyReply>;
  fragment(view: string, data: Record<string, unknown>): string;
}

const here = dirname(fileURLToPath(import.meta.url));
/** Templates and assets stay in src/studio (tsc does not copy them): the same folder from src/ and dist/. */
const studioSrc = join(here, "..", "..", "src", "studio");

export async function createStudio(opts: StudioOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 16 * 1024 * 1024 });
  const eta = new Eta({ views: join(studioSrc, "views"), autoEscape: true, cache: true });
  const ctx: StudioContext = {
    ...opts,
    runs: new RunIndex(opts.dataDir, opts.store, opts.processProbe),
    fragment: (view, data) => eta.render(view, data),
    page: async (reply, view, data, status = 200) => {
      const pending = (await opts.inbox.pending()).length;
      const proposed = (await opts.patches.list()).filter((p) => p.status === "proposed").length;
      return reply.code(status).type("text/html; charset=utf-8").send(eta.render(view, { pending, proposed, ...data }));
    },
  };

  await app.register(fastifyCookie);
  // Forms arrive URL-encoded: read by the platform's URLSearchParams.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    const params = new URLSearchParams(body as string);
    const out: Record<string, string> = {};
    for (const [k, v] of params) out[k] = v;
    done(null, out);
  });

  app.addHook("onRequest", async (req, reply) => {
    const fromQuery = (req.query as Record<string, unknown> | undefined)?.token;
    const presented = [typeof fromQuery === "string" ? fromQuery : undefined, req.cookies[COOKIE], req.headers[TOKEN_HEADER] as string | undefined];
    if (!presented.some((t) => tokenMatches(t, opts.token))) {
      return reply.code(401).type("text/plain; charset=utf-8").send("401: this RPA Vision Studio needs its token. Open the URL `rpav serve` printed (it ends with ?token=…).\n");
    }
    if (typeof fromQuery === "string") {
      // The token leaves the address bar: a cookie carries it from now on.
      reply.setCookie(COOKIE, opts.token, { path: "/", httpOnly: true, sameSite: "strict" });
      if (req.method === "GET") {
        const url = new URL(req.url, "http://studio");
        url.searchParams.delete("token");
        return reply.redirect(`${url.pathname}${url.search}`, 303);
      }
    }
    return undefined;
  });
  app.addHook("onSend", async (_req, reply, payload) => {
    if (!reply.hasHeader("content-security-policy")) reply.header("content-security-policy", CSP);
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "no-referrer");
    reply.header("x-frame-options", "DENY");
    reply.header("cache-control", "no-store");
    return payload;
  });
  app.setErrorHandler(async (err: Error & { statusCode?: number }, _req: FastifyRequest, reply: FastifyReply) => {
    const status = isRpaError(err) ? (err.code === "invalid_input" || err.code === "schema_invalid" ? 400 : 500) : (err.statusCode ?? 500);
    return ctx.page(reply, "error", { title: "Error", status, message: isRpaError(err) ? `[${err.code}] ${err.message}` : err.message }, status);
  });
  app.setNotFoundHandler(async (req, reply) => ctx.page(reply, "error", { title: "Not found", status: 404, message: `Nothing at ${req.url}.` }, 404));

  await app.register(fastifyStatic, { root: join(studioSrc, "public"), prefix: "/assets/", index: false, list: false });
  const htmx = dirname(createRequire(import.meta.url).resolve("htmx.org/dist/htmx.min.js"));
  app.get("/assets/htmx.min.js", async (_req, reply) => reply.sendFile("htmx.min.js", htmx));
  app.get("/assets/report.css", async (_req, reply) => reply.type("text/css; charset=utf-8").send(REPORT_CSS));

  app.get("/", async (_req, reply) => reply.redirect("/runs", 303));
  registerRunRoutes(app, ctx);
  registerWorkflowRoutes(app, ctx);
  registerAskRoutes(app, ctx);
  registerStartRoutes(app, ctx);
  registerPatchRoutes(app, ctx);
  registerPlanRoutes(app, ctx);
  return app;
}
