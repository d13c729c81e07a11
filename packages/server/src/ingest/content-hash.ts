import { webcrypto } from "node:crypto";

/**
 * SHA-256 of a text, hex. WebCrypto's digest runs on libuv's thread pool, so hashing a large
 * body does not block the event loop.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await webcrypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Buffer.from(digest).toString("hex");
}
