import { FetchError } from "../../network/fetch-error.js";

/** Network error codes worth retrying later. DNS "not found" and TLS failures are not. */
const transientCodes = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/**
 * Turns whatever a request threw into a FetchError: a FetchError anywhere in the cause
 * chain wins (the guarded lookup throws `blocked_address` inside undici), a deadline
 * becomes a transient `fetch_failed`, other network errors become `fetch_failed`.
 */
export function toFetchError(error: unknown, url: string, timedOut: boolean): FetchError {
  const found = findInCauses(error, (candidate) => candidate instanceof FetchError);
  if (found instanceof FetchError) return found;
  if (timedOut) return new FetchError("fetch_failed", `timed out fetching ${url}`, { transient: true, cause: error });
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return new FetchError("fetch_failed", `could not fetch ${url}: ${code ?? message}`, {
    transient: code !== undefined && transientCodes.has(code),
    cause: error,
  });
}

function errorCode(error: unknown): string | undefined {
  const withCode = findInCauses(
    error,
    (candidate) => typeof candidate === "object" && candidate !== null && "code" in candidate,
  );
  if (typeof withCode !== "object" || withCode === null || !("code" in withCode)) return undefined;
  return typeof withCode.code === "string" ? withCode.code : undefined;
}

function findInCauses(error: unknown, test: (candidate: unknown) => boolean): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    if (test(current)) return current;
    current = typeof current === "object" && "cause" in current ? current.cause : undefined;
  }
  return undefined;
}
