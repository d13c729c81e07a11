import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Random bytes drawn from the cryptographic source 4 KiB at a time: an id takes a slice instead of
 * a call into OpenSSL of its own (POST /init makes two or three ids). Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** A random base62 string of `length` characters from a cryptographic source (no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export type IdPrefix = "ws" | "agt" | "op" | "vis" | "cnv" | "msg" | "lead" | "ntf" | "tok" | "src" | "anon" | "osn" | "pwt" | "stp" | "cur" | "era" | "whk" | "whd" | "evt" | "mail" | "mdi" | "mck" | "psh" | "ant" | "anr" | "emb" | "note" | "svr" | "lbl" | "orc" | "att";

const TIME_DIGITS = 8;

/** Milliseconds since the epoch in 8 base62 digits: sortable as text until the year 8800. */
function timeBase62(ms: number): string {
  let out = "";
  let rest = Math.floor(ms);
  for (let i = 0; i < TIME_DIGITS; i += 1) {
    out = ALPHABET[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/**
 * Identifiers are prefixed so that a log line or a support ticket says what an id is. They start
 * with the time, so new rows land at the end of their primary-key index instead of at random
 * pages (fewer page writes on busy tables), followed by 14 random base62 characters (83 bits).
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${timeBase62(Date.now())}${randomBase62(14)}`;
}
