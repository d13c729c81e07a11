import { isIP } from "node:net";
import { request, type Agent } from "undici";
import type { PushConfig } from "../config/push.js";
import { createAddressGuard, type AddressGuard } from "../network/address-guard.js";
import { FetchError } from "../network/fetch-error.js";
import { createGuardedAgent, systemResolver, type HostResolver } from "../network/guarded-agent.js";

/** A push service's answer to one send, or why there was none. */
export interface PushResponse {
  statusCode: number | null;
  durationMs: number;
  /** Null when the push service accepted the alert (2xx). */
  error: string | null;
}

/**
 * How alerts reach push services: the crawler's address guard, checked when a browser subscribes
 * (every address its endpoint's host resolves to) and again on every send, where the connection
 * goes to exactly the addresses checked. https only, unless FRONTDESK_PUSH_ALLOW_PRIVATE_NETWORKS
 * lifts the guard (a push service on loopback in tests): then http too. No redirect is followed.
 * web-push builds each request (VAPID JWT, aes128gcm body); this sends it, since web-push's own
 * sender takes neither a guarded connection nor http.
 */
export class PushTransport {
  private readonly guard: AddressGuard;
  private readonly agent: Agent;

  constructor(
    private readonly settings: PushConfig,
    private readonly resolve: HostResolver = systemResolver,
  ) {
    this.guard = createAddressGuard({ allowPrivateNetworks: settings.allowPrivateNetworks });
    this.agent = createGuardedAgent({ guard: this.guard, resolve, connectTimeoutMs: settings.timeoutMs, responseTimeoutMs: settings.timeoutMs });
  }

  /** Why an endpoint cannot be subscribed, or null. */
  async refusal(endpoint: string): Promise<string | null> {
    const parsed = this.parse(endpoint);
    if (typeof parsed === "string") return parsed;
    const host = literalHost(parsed);
    if (isIP(host) !== 0) {
      const verdict = this.guard.verdict(host);
      return verdict.allowed ? null : `${parsed.host} is not allowed (${verdict.reason})`;
    }
    let addresses: { address: string }[];
    try {
      addresses = await this.resolve(host);
    } catch {
      return `${host} does not resolve`;
    }
    if (addresses.length === 0) return `${host} does not resolve`;
    for (const { address } of addresses) {
      const verdict = this.guard.verdict(address);
      if (!verdict.allowed) return `${host} resolves to ${address} (${verdict.reason})`;
    }
    return null;
  }

  /** Sends one request web-push built; never throws: a failure is described in `error`. */
  async send(endpoint: string, headers: Record<string, string>, body: Buffer | null): Promise<PushResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const parsed = this.parse(endpoint);
    if (typeof parsed === "string") return { statusCode: null, durationMs: 0, error: `refused: ${parsed}` };
    const host = literalHost(parsed);
    if (isIP(host) !== 0) {
      const verdict = this.guard.verdict(host);
      if (!verdict.allowed) return { statusCode: null, durationMs: 0, error: `refused: ${parsed.host} is not allowed (${verdict.reason})` };
    }
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      const response = await request(parsed, { method: "POST", dispatcher: this.agent, headers, body, signal: deadline });
      await response.body.dump({ limit: 4096 });
      const { statusCode } = response;
      return { statusCode, durationMs: elapsed(), error: statusCode >= 200 && statusCode < 300 ? null : `the push service answered ${statusCode}` };
    } catch (error) {
      return { statusCode: null, durationMs: elapsed(), error: describeFailure(error, deadline.aborted, this.settings.timeoutMs) };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private parse(endpoint: string): URL | string {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return "not a valid URL";
    }
    const schemes = this.settings.allowPrivateNetworks ? ["https:", "http:"] : ["https:"];
    if (!schemes.includes(url.protocol)) return this.settings.allowPrivateNetworks ? "must be an http or https URL" : "must be an https URL";
    if (url.hostname === "") return "the URL has no host";
    if (url.username !== "" || url.password !== "") return "credentials in the URL are not accepted";
    return url;
  }
}

function literalHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

function describeFailure(error: unknown, timedOut: boolean, timeoutMs: number): string {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (current instanceof FetchError) return `refused: ${current.message}`;
    current = current.cause;
  }
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : null;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}
