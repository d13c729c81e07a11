import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "@frontdesk/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";

/** The request headers whose values reach a use case (and so, possibly, the store). */
const CHECKED_HEADERS = ["authorization", "origin"] as const;
const MAX_REPORTED_FIELDS = 20;

/** A field name fit for the answer: any unstorable character in a key shows as U+FFFD. */
function printable(name: string): string {
  return isStorableText(name) ? name : name.replace(/[\u0000\uD800-\uDFFF]/gu, "\uFFFD");
}

/** Collects the dotted path of every string (or object key) in `value` that cannot be stored. */
function collectUnstorable(value: unknown, path: string, found: string[]): void {
  if (found.length >= MAX_REPORTED_FIELDS) return;
  if (typeof value === "string") {
    if (!isStorableText(value)) found.push(path);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, member] of Object.entries(value)) {
    const memberPath = path ? `${path}.${printable(key)}` : printable(key);
    if (!isStorableText(key)) found.push(memberPath);
    collectUnstorable(member, memberPath, found);
  }
}

/**
 * Every string a request carries (path parameters, query, JSON body members and keys, and the
 * headers a use case reads) as the dotted field names that validation errors use: body members
 * bare, the others under `params.`, `querystring.`, `headers.`.
 */
export function unstorableFieldsOf(request: Pick<FastifyRequest, "params" | "query" | "body" | "headers">): string[] {
  const found: string[] = [];
  collectUnstorable(request.params, "params", found);
  collectUnstorable(request.query, "querystring", found);
  collectUnstorable(request.body, "", found);
  for (const name of CHECKED_HEADERS) collectUnstorable(request.headers[name], `headers.${name}`, found);
  return found.map((field) => field || "body");
}

/**
 * The one place where U+0000 and unpaired surrogates are refused, for every route: before any
 * guard, validation or use case sees the request, a string holding one is a 422 naming the field.
 */
export function registerStorableInput(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (request.is404) return; // no route: the answer is 404 whatever the URL holds
    const fields = unstorableFieldsOf(request);
    if (fields.length === 0) return;
    throw new AppError(
      "validation_failed",
      "Text may not contain the NUL character (U+0000) or an unpaired UTF-16 surrogate.",
      Object.fromEntries(fields.map((field) => [field, [UNSTORABLE_TEXT_MESSAGE]])),
    );
  });
}
