import { isIP } from "node:net";
import type { AddressGuard } from "./address-guard.js";
import { FetchError } from "./fetch-error.js";
import type { HostResolver } from "./guarded-agent.js";

/** A URL's host as the resolver and the guard take it (an IPv6 literal without its brackets). */
function literalHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Why a URL whose host is an address literal may not be sent to, or null (also for a name). The
 * guarded agent checks the addresses a name resolves to; a literal is never looked up, so a request
 * checks it with this first.
 */
export function literalAddressRefusal(url: URL, guard: AddressGuard): string | null {
  const host = literalHost(url);
  if (isIP(host) === 0) return null;
  const verdict = guard.verdict(host);
  return verdict.allowed ? null : `${url.host} is not allowed (${verdict.reason})`;
}

/**
 * Why a user-given URL's host may not be sent to, or null: an address literal the guard refuses,
 * a name that does not resolve, or one address it resolves to that the guard refuses. Checked when
 * the URL is saved, to say so at once; the guarded agent checks again on every connection.
 */
export async function hostRefusal(url: URL, guard: AddressGuard, resolve: HostResolver): Promise<string | null> {
  const host = literalHost(url);
  if (isIP(host) !== 0) return literalAddressRefusal(url, guard);
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch {
    return `${host} does not resolve`;
  }
  if (addresses.length === 0) return `${host} does not resolve`;
  for (const { address } of addresses) {
    const verdict = guard.verdict(address);
    if (!verdict.allowed) return `${host} resolves to ${address} (${verdict.reason})`;
  }
  return null;
}

/** A failed outbound request in a line an admin can read: the guard's refusal, a timeout, or the error's code and message. */
export function describeRequestFailure(error: unknown, timedOut: boolean, timeoutMs: number): string {
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
