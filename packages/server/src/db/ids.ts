import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A random base62 string of `length` characters from a cryptographic source (no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export type IdPrefix = "ws" | "agt" | "op" | "vis" | "cnv" | "msg" | "lead" | "ntf" | "tok" | "src" | "anon";

/** Identifiers are prefixed so that a log line or a support ticket says what an id is. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
