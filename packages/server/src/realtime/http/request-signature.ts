import { createHash, createHmac } from "node:crypto";
import { AppError } from "../../http/app-error.js";
import { constantTimeEqual } from "../constant-time-equal.js";

/** How far `auth_timestamp` may be from our clock, either way. */
export const TIMESTAMP_TOLERANCE_SECONDS = 600;

export interface SignedRequest {
  method: string;
  /** The path, without the query string. */
  path: string;
  query: Record<string, unknown>;
  /** The body as received; empty for GET. */
  rawBody: string;
}

const refused = (message: string) => new AppError("invalid_signature", message);

/**
 * Pusher's request signing: `auth_signature` is HMAC_SHA256(secret, "METHOD\npath\nquery") over
 * every other query parameter (keys lowercased, sorted, `key=value` joined by `&`), with
 * `auth_key`, `auth_timestamp` (±600 s), `auth_version` and, with a body, `body_md5`.
 */
export function verifyRequestSignature(request: SignedRequest, credentials: { appKey: string; appSecret: string }, nowMs: number): void {
  const params = new Map<string, string>();
  for (const [key, value] of Object.entries(request.query)) {
    if (typeof value !== "string") throw refused(`The query parameter ${key} is given more than once.`);
    params.set(key.toLowerCase(), value);
  }
  const signature = params.get("auth_signature");
  const key = params.get("auth_key");
  const timestamp = params.get("auth_timestamp");
  if (signature === undefined || key === undefined || timestamp === undefined || params.get("auth_version") === undefined) {
    throw refused("auth_key, auth_timestamp, auth_version and auth_signature are required.");
  }
  if (!constantTimeEqual(key, credentials.appKey)) throw refused("auth_key is not this app's key.");
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  if (!(Math.abs(nowMs / 1000 - seconds) <= TIMESTAMP_TOLERANCE_SECONDS)) {
    throw refused(`auth_timestamp must be within ${TIMESTAMP_TOLERANCE_SECONDS} seconds of the server's time.`);
  }
  if (request.rawBody.length > 0) {
    const bodyMd5 = params.get("body_md5");
    if (bodyMd5 === undefined || !constantTimeEqual(bodyMd5, createHash("md5").update(request.rawBody).digest("hex"))) {
      throw refused("body_md5 is not the MD5 of the body.");
    }
  }
  params.delete("auth_signature");
  const query = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, value]) => `${name}=${value}`).join("&");
  const expected = createHmac("sha256", credentials.appSecret).update(`${request.method.toUpperCase()}\n${request.path}\n${query}`).digest("hex");
  if (!constantTimeEqual(signature, expected)) throw refused("auth_signature does not match the request.");
}
