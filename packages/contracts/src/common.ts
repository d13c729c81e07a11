import { z } from "zod";

export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL of at most 2,048 characters. */
export const httpUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");

export function jsonByteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** A JSON object whose serialized form is at most `maxBytes` and has at most `maxKeys` top-level keys. */
export function boundedObjectSchema(maxBytes: number, maxKeys = Number.POSITIVE_INFINITY) {
  return z
    .record(z.string(), z.unknown())
    .refine((value) => Object.keys(value).length <= maxKeys, `must have at most ${maxKeys} keys`)
    .refine((value) => jsonByteLength(value) <= maxBytes, `must be at most ${maxBytes} bytes as JSON`);
}

export const isoTimestampSchema = z.string();
