import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";

function parseJson(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
}

/**
 * JSON bodies, where an empty body reads as `{}` (an empty POST to /typing is valid, and a
 * missing required member is reported by validation rather than as a parse error).
 * `text/plain` is read as JSON too, since `navigator.sendBeacon` and CORS-simple requests send it.
 * Strings a store cannot keep (U+0000, unpaired surrogates) are refused by storable-input.ts.
 */
export function registerJsonBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  const parser = (_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      done(null, parseJson(typeof body === "string" ? body : body.toString("utf8")));
    } catch (error) {
      done(error as Error);
    }
  };
  app.addContentTypeParser(["application/json", "text/plain"], { parseAs: "string", bodyLimit }, parser);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: "string", bodyLimit }, parser);
  // A POST with no body and no Content-Type validates as an empty object.
  app.addHook("preValidation", async (request) => {
    if (request.body === undefined || request.body === null) request.body = {};
  });
}
