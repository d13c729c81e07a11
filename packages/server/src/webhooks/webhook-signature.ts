import { createHmac, timingSafeEqual } from "node:crypto";

/** The header receivers verify, in the Stripe / Svix convention: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = "frontdesk-signature";

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The signature header's value for a body sent at `timestamp` (seconds). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

export interface VerifyOptions {
  /** How old a timestamp may be (replays), in seconds; 300 by default. */
  toleranceSeconds?: number;
  nowSeconds?: number;
}

/**
 * What a receiver does (docs/api.md's example is the same in plain Node): any `v1` matching the
 * HMAC of `${t}.${raw body}`, compared in constant time, and `t` within the tolerance.
 */
export function verifyWebhookSignature(secret: string, header: string, body: string, options: VerifyOptions = {}): boolean {
  const parts = header.split(",").map((part) => part.trim().split("=", 2) as [string, string | undefined]);
  const timestamp = Number(parts.find(([name]) => name === "t")?.[1]);
  if (!Number.isInteger(timestamp)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, body), "hex");
  return parts.some(([name, value]) => {
    if (name !== "v1" || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, "hex"), expected);
  });
}
