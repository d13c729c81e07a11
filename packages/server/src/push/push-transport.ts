import { request, type Agent } from "undici";
import type { PushConfig } from "../config/push.js";
import { createAddressGuard, type AddressGuard } from "../network/address-guard.js";
import { describeRequestFailure, hostRefusal, literalAddressRefusal } from "../network/outbound-request.js";
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
    return hostRefusal(parsed, this.guard, this.resolve);
  }

  /** Sends one request web-push built; never throws: a failure is described in `error`. */
  async send(endpoint: string, headers: Record<string, string>, body: Buffer | null): Promise<PushResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const parsed = this.parse(endpoint);
    if (typeof parsed === "string") return { statusCode: null, durationMs: 0, error: `refused: ${parsed}` };
    const literal = literalAddressRefusal(parsed, this.guard);
    if (literal) return { statusCode: null, durationMs: 0, error: `refused: ${literal}` };
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      const response = await request(parsed, { method: "POST", dispatcher: this.agent, headers, body, signal: deadline });
      await response.body.dump({ limit: 4096 });
      const { statusCode } = response;
      return { statusCode, durationMs: elapsed(), error: statusCode >= 200 && statusCode < 300 ? null : `the push service answered ${statusCode}` };
    } catch (error) {
      return { statusCode: null, durationMs: elapsed(), error: describeRequestFailure(error, deadline.aborted, this.settings.timeoutMs) };
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


