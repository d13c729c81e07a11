import { request, type Agent } from "undici";
import type { WebhookConfig } from "../config/webhooks.js";
import { createAddressGuard, type AddressGuard } from "../network/address-guard.js";
import { describeRequestFailure, hostRefusal, literalAddressRefusal } from "../network/outbound-request.js";
import { createGuardedAgent, systemResolver, type HostResolver } from "../network/guarded-agent.js";

/** The start of a receiver's answer that the delivery log keeps. */
export const RESPONSE_BODY_BYTES = 1024;

export interface WebhookResponse {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

/**
 * How webhooks reach receivers: the crawler's address guard (ingest/fetch/address-guard.ts), with
 * the webhooks' own exceptions, checked when an endpoint is saved and again on every delivery,
 * where the connection goes to exactly the addresses checked (the crawler's guarded agent: no
 * second DNS answer to rebind). Redirects are not followed: a 3xx is a failed attempt.
 */
export class WebhookTransport {
  readonly guard: AddressGuard;
  private readonly agent: Agent;

  constructor(
    private readonly settings: WebhookConfig,
    readonly resolve: HostResolver = systemResolver,
  ) {
    this.guard = createAddressGuard({ allowPrivateNetworks: settings.allowPrivateNetworks, allowedNetworks: settings.allowedNetworks });
    this.agent = createGuardedAgent({ guard: this.guard, resolve, connectTimeoutMs: settings.timeoutMs, responseTimeoutMs: settings.timeoutMs });
  }

  /**
   * Why a URL cannot be an endpoint, or null: http(s) only, no credentials, and every address its
   * host resolves to allowed by the guard.
   */
  async refusal(input: string): Promise<string | null> {
    const parsed = parseWebhookUrl(input);
    if (typeof parsed === "string") return parsed;
    return hostRefusal(parsed, this.guard, this.resolve);
  }

  /** POSTs one body; never throws: every failure is described in `error`. `stop` ends it early (the event was erased). */
  async post(url: string, body: string, headers: Record<string, string>, stop?: AbortSignal): Promise<WebhookResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const parsed = parseWebhookUrl(url);
    if (typeof parsed === "string") return { statusCode: null, durationMs: 0, error: parsed, responseBody: null };
    const literal = literalAddressRefusal(parsed, this.guard);
    if (literal) return { statusCode: null, durationMs: 0, error: `refused: ${literal}`, responseBody: null };
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      const response = await request(parsed, {
        method: "POST",
        dispatcher: this.agent,
        headers: { "content-type": "application/json", "user-agent": "Frontdesk-Webhooks/1", ...headers },
        body,
        signal: stop ? AbortSignal.any([deadline, stop]) : deadline,
      });
      const responseBody = await readStart(response.body, RESPONSE_BODY_BYTES);
      const { statusCode } = response;
      const error =
        statusCode >= 200 && statusCode < 300
          ? null
          : statusCode >= 300 && statusCode < 400
            ? `redirect (${statusCode}) not followed: webhook URLs must answer directly`
            : `the receiver answered ${statusCode}`;
      return { statusCode, durationMs: elapsed(), error, responseBody };
    } catch (error) {
      return { statusCode: null, durationMs: elapsed(), error: describeRequestFailure(error, deadline.aborted, this.settings.timeoutMs), responseBody: null };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** An http(s) URL without credentials, or why not. The fragment is dropped. */
export function parseWebhookUrl(input: string): URL | string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return "not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https URLs can receive webhooks";
  if (url.hostname === "") return "the URL has no host";
  if (url.username !== "" || url.password !== "") return "credentials in the URL are not accepted (the signature authenticates deliveries)";
  url.hash = "";
  return url;
}


/** The body's first `limit` bytes as text a store can keep (no U+0000, whole characters), the rest discarded. */
async function readStart(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, limit: number): Promise<string | null> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of body) {
    pieces.push(Buffer.from(piece));
    size += piece.length;
    if (size >= limit) break;
  }
  body.destroy();
  if (size === 0) return null;
  let text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(pieces).subarray(0, limit)).replace(/\u0000/g, "\uFFFD");
  while (Buffer.byteLength(text, "utf8") > limit) text = text.slice(0, -1);
  // A cut through a surrogate pair leaves half of it: drop it.
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  return text;
}

