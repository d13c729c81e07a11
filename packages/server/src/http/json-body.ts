import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";
import { assertUtf8Body } from "./body-charset.js";
import { MAX_JSON_NESTING_DEPTH, nestsDeeperThan } from "./json-nesting-depth.js";

function parseJson(text: string): unknown {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
  if (nestsDeeperThan(text, MAX_JSON_NESTING_DEPTH)) {
    throw new AppError("validation_failed", "The request body is nested too deeply.", {
      body: [`must not nest arrays and objects more than ${MAX_JSON_NESTING_DEPTH} levels deep`],
    });
  }
  return value;
}

/**
 * JSON bodies, where an empty body reads as `{}` (an empty POST to /typing is valid, and a
 * missing required member is reported by validation rather than as a parse error).
 * `text/plain` is read as JSON too, since `navigator.sendBeacon` and CORS-simple requests send it.
 * Strings a store cannot keep (U+0000, unpaired surrogates) are refused by storable-input.ts; a
 * body nested deeper than 64 levels is a 422. A charset other than UTF-8 is a 415 (body-charset.ts).
 */
export function registerJsonBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  const parser = (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      assertUtf8Body(request);
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
