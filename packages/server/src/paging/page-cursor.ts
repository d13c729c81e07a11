import { AppError } from "../http/app-error.js";

/**
 * The opaque `cursor` of the console's lists: the sort key of a page's last row (keyset
 * pagination), as base64url JSON. Timestamps travel as microseconds since the epoch in a decimal
 * string, so the next page starts exactly after that row (a JavaScript Date keeps milliseconds
 * only). Clients must not read or build one: its content may change.
 */

export type CursorValue = string | number;

export function encodeCursor(values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify(values), "utf8").toString("base64url");
}

/** Microseconds since 1970, up to 17 digits (the year 5138): always a timestamp Postgres can hold. */
const MICROSECONDS = /^\d{1,17}$/;

/**
 * The values of a cursor of `kinds` (`"us"`: microseconds string; `"id"`: an id; `"flag"`: 0 or 1),
 * or a 422 naming `querystring.cursor` when it is not a cursor of this list.
 */
export function decodeCursor<const Kinds extends readonly ("us" | "id" | "flag")[]>(
  cursor: string,
  kinds: Kinds,
): { [Index in keyof Kinds]: Kinds[Index] extends "flag" ? number : string } {
  const invalid = () => new AppError("validation_failed", "The request is invalid.", { "querystring.cursor": ["is not a cursor of this list"] });
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(values) || values.length !== kinds.length) throw invalid();
  kinds.forEach((kind, index) => {
    const value: unknown = values[index];
    const valid =
      kind === "flag"
        ? value === 0 || value === 1
        : typeof value === "string" && (kind === "us" ? MICROSECONDS.test(value) : /^[A-Za-z0-9_-]{1,64}$/.test(value));
    if (!valid) throw invalid();
  });
  return values as { [Index in keyof Kinds]: Kinds[Index] extends "flag" ? number : string };
}

/** SQL turning a microseconds parameter back into the exact timestamptz (integer arithmetic, no float rounding). */
export const timestampFromMicroseconds = (parameter: string) => `(timestamptz 'epoch' + ${parameter}::bigint * interval '1 microsecond')`;

/** SQL reading a timestamptz column as microseconds since the epoch, as text. */
export const microsecondsOf = (column: string) => `((extract(epoch from ${column}) * 1000000)::bigint)::text`;
