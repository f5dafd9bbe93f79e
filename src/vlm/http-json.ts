// JSON over HTTP for model servers: timeouts, the caller's AbortSignal, bounded retries on 5xx and
// connection resets, bounded answer size, and typed errors that say what to run.
import { AbortedError, ProviderUnavailableError, TimeoutError } from "../core/errors.js";

export interface HttpOptions {
  /** Per attempt, ms. */
  readonly timeoutMs: number;
  /** Extra attempts after a 5xx or a reset connection. */
  readonly retries: number;
  /** Delay before the first retry, doubled after each, ms. */
  readonly retryDelayMs?: number;
  readonly signal?: AbortSignal | undefined;
  /** Largest answer read, bytes. */
  readonly maxBytes?: number;
  readonly headers?: Record<string, string>;
}

/** A server that answered with an HTTP error status; `body` is its text (bounded). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly url: string,
  ) {
    super(`HTTP ${status} from ${url}: ${body.slice(0, 300)}`);
  }
}

const RETRYABLE_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "EADDRNOTAVAIL"]);

function errnoOf(e: unknown): string | undefined {
  let c: unknown = e;
  for (let i = 0; i < 4 && c; i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string") return code;
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(new AbortedError("The model request was aborted."))), { once: true });
  });
}

async function readBounded(res: Response, maxBytes: number, url: string): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > maxBytes) {
      await reader.cancel();
      throw new ProviderUnavailableError(`${url} sent more than ${maxBytes} bytes; this is not a model server answer.`, { details: { url } });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** GET (body undefined) or POST a JSON body; returns the parsed JSON answer. */
export async function requestJson(url: string, body: unknown, opts: HttpOptions): Promise<unknown> {
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  let delay = opts.retryDelayMs ?? 250;
  for (let attempt = 0; ; attempt++) {
    if (opts.signal?.aborted) throw new AbortedError("The model request was aborted.", { cause: opts.signal.reason });
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let retryable: unknown;
    try {
      const res = await fetch(url, {
        method: body === undefined ? "GET" : "POST",
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...opts.headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal,
      });
      const text = await readBounded(res, maxBytes, url);
      if (res.status >= 500 && attempt < opts.retries) retryable = new HttpStatusError(res.status, text, url);
      else if (!res.ok) throw new HttpStatusError(res.status, text, url);
      else {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new ProviderUnavailableError(`${url} answered with something that is not JSON (${JSON.stringify(text.slice(0, 80))}); is this a model server?`, { details: { url } });
        }
      }
    } catch (e) {
      if (e instanceof HttpStatusError || e instanceof ProviderUnavailableError) throw e;
      if (opts.signal?.aborted) throw new AbortedError("The model request was aborted.", { cause: opts.signal.reason });
      if (timeout.aborted) throw new TimeoutError(`${url} did not answer within ${opts.timeoutMs} ms (a model may be loading; raise the VLM timeout_ms in the config file if it is just slow).`, { cause: e, details: { url, timeoutMs: opts.timeoutMs } });
      const code = errnoOf(e);
      if (code && UNREACHABLE_CODES.has(code)) throw new ProviderUnavailableError(`No model server at ${url} (${code}).`, { cause: e, details: { url, errno: code, unreachable: true } });
      if (code && RETRYABLE_CODES.has(code) && attempt < opts.retries) retryable = e;
      else throw new ProviderUnavailableError(`The model server at ${url} failed: ${code ?? (e as Error).message}.`, { cause: e, details: { url, ...(code ? { errno: code } : {}) } });
    }
    if (retryable) {
      await sleep(delay, opts.signal);
      delay *= 2;
    }
  }
}
