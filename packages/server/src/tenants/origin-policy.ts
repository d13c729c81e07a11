import { AppError } from "../http/app-error.js";

/**
 * Which page origins may start a widget session. An entry is an exact origin
 * (`https://shop.example.com`, `http://localhost:3000`) or a subdomain wildcard
 * (`https://*.example.com`, which matches `https://a.example.com` and `https://a.b.example.com`
 * but not `https://example.com` itself). Scheme, host and port must all match.
 */

const WILDCARD = "*.";

interface ParsedOrigin {
  protocol: string;
  hostname: string;
  port: string;
}

function parseOrigin(value: string): ParsedOrigin | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) return null;
    return { protocol: url.protocol, hostname: url.hostname, port: url.port };
  } catch {
    return null;
  }
}

/** The canonical form of an allowed-origin entry, or null when it is not a valid entry. */
export function normalizeAllowedOrigin(entry: string): string | null {
  const trimmed = entry.trim().replace(/\/$/, "");
  const wildcardAt = trimmed.indexOf("://*.");
  if (wildcardAt >= 0) {
    const concrete = parseOrigin(trimmed.replace("://*.", "://wildcard."));
    if (!concrete || !concrete.hostname.startsWith("wildcard.") || concrete.hostname.split(".").length < 3) return null;
    const suffix = concrete.hostname.slice("wildcard.".length);
    return `${concrete.protocol}//${WILDCARD}${suffix}${concrete.port ? `:${concrete.port}` : ""}`;
  }
  const parsed = parseOrigin(trimmed);
  if (!parsed) return null;
  return `${parsed.protocol}//${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}`;
}

/**
 * The canonical, de-duplicated form of an agent's allowed-origin list; a validation error naming
 * every invalid entry (field `origin`, the CLI flag) when one is not an origin.
 */
export function normalizeAllowedOrigins(entries: readonly string[]): string[] {
  const origins: string[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    const normalized = normalizeAllowedOrigin(entry);
    if (normalized) origins.push(normalized);
    else invalid.push(entry);
  }
  if (invalid.length > 0) {
    throw new AppError("validation_failed", `Not an origin: ${invalid.join(", ")}. Use https://example.com or https://*.example.com.`, {
      origin: invalid.map((entry) => `'${entry}' is not an origin`),
    });
  }
  return [...new Set(origins)];
}

export function isOriginAllowed(allowedOrigins: readonly string[], requestOrigin: string | undefined): boolean {
  if (!requestOrigin) return false;
  const origin = parseOrigin(requestOrigin);
  if (!origin) return false;
  return allowedOrigins.some((entry) => {
    const allowed = parseOrigin(entry.replace("://*.", "://wildcard."));
    if (!allowed || allowed.protocol !== origin.protocol || allowed.port !== origin.port) return false;
    if (!entry.includes("://*.")) return allowed.hostname === origin.hostname;
    const suffix = allowed.hostname.slice("wildcard".length);
    return origin.hostname.endsWith(suffix) && origin.hostname.length > suffix.length;
  });
}
