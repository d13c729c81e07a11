import { lookup as systemLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { Agent } from "undici";
import type { AddressGuard } from "./address-guard.js";
import { FetchError } from "./fetch-error.js";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every A and AAAA record. Injectable so tests can play DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const records = await systemLookup(hostname, { all: true, verbatim: true });
  return records.map((record) => ({ address: record.address, family: record.family === 6 ? 6 : 4 }));
};

export interface GuardedAgentOptions {
  guard: AddressGuard;
  resolve: HostResolver;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
}

/**
 * An undici agent whose every new connection resolves its host once, refuses the host
 * when any of its addresses is blocked, and connects to exactly the addresses it checked:
 * there is no second lookup that DNS rebinding could answer differently. (IP literals do
 * not go through a lookup; the fetcher checks those before each request.)
 */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  return new Agent({
    connect: { timeout: options.connectTimeoutMs, lookup: createGuardedLookup(options.guard, options.resolve) },
    headersTimeout: options.responseTimeoutMs,
    bodyTimeout: options.responseTimeoutMs,
  });
}

/** The `lookup` given to `net.connect`/`tls.connect`: resolve, validate, hand back the same addresses. */
export function createGuardedLookup(guard: AddressGuard, resolve: HostResolver): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveChecked(hostname, guard, resolve, familyOf(lookupOptions.family)).then(
      (addresses) => {
        const [first] = addresses;
        if (lookupOptions.all === true) callback(null, addresses);
        else if (first !== undefined) callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ""),
    );
  };
}

async function resolveChecked(
  hostname: string,
  guard: AddressGuard,
  resolve: HostResolver,
  family: 0 | 4 | 6,
): Promise<ResolvedAddress[]> {
  const resolved = await resolve(hostname);
  for (const { address } of resolved) {
    const verdict = guard.verdict(address);
    if (!verdict.allowed) {
      throw new FetchError("blocked_address", `${hostname} resolves to ${address} (${verdict.reason})`);
    }
  }
  const usable = family === 0 ? resolved : resolved.filter((record) => record.family === family);
  if (usable.length === 0) {
    throw new FetchError("fetch_failed", `${hostname} has no usable address`, { cause: { code: "ENOTFOUND" } });
  }
  return usable;
}

function familyOf(family: number | "IPv4" | "IPv6" | undefined): 0 | 4 | 6 {
  if (family === 4 || family === "IPv4") return 4;
  if (family === 6 || family === "IPv6") return 6;
  return 0;
}
