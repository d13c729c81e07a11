import type { ErrorBody } from "@frontdesk/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { sqlStateOf } from "../db/sql-state.js";
import { AppError } from "./app-error.js";

type ValidationIssue = { instancePath?: string; message?: string };

/**
 * Turns schema-validation issues into `fields`: a dotted path (or `body`) → its messages. Body
 * members are named bare; path parameters, query and headers under `params.`, `querystring.`, `headers.`.
 */
function fieldsOf(issues: readonly ValidationIssue[], context: string | undefined): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const prefix = context && context !== "body" ? [context] : [];
  for (const issue of issues) {
    const path = [...prefix, ...(issue.instancePath?.split("/").filter(Boolean) ?? [])];
    const name = path.length > 0 ? path.map(String).join(".") : "body";
    (fields[name] ??= []).push(issue.message ?? "is invalid");
  }
  return fields;
}

/** Maps Fastify's own error codes to ours. */
function fromFastifyError(error: FastifyError): AppError | null {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("invalid_json", "The request body is not valid JSON.");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new AppError("unsupported_media_type", "Send the body as application/json.");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError("payload_too_large", "The request body is too large.");
    default:
      break;
  }
  if (error instanceof SyntaxError || error.statusCode === 400 && error.message.includes("JSON")) {
    return new AppError("invalid_json", "The request body is not valid JSON.");
  }
  return null;
}

/**
 * A write that refers to a row deleted meanwhile (a foreign-key violation, SQLSTATE 23503): a
 * visitor erased, or a conversation purged by retention, in another process while its session
 * token was still cached there. The widget's session has ended (401, as any later request gets);
 * elsewhere, what the request refers to is gone (404). Never a 500.
 */
function fromVanishedRow(error: unknown, request: FastifyRequest): AppError | null {
  if (sqlStateOf(error) !== "23503") return null;
  request.log.info({ err: error }, "write to a row deleted meanwhile");
  if (request.url.startsWith("/api/v1/widget/")) return new AppError("invalid_token", "This conversation no longer exists. Start a new one.");
  return new AppError("not_found", "What this request refers to no longer exists.");
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  if (error.fields) body.error.fields = error.fields;
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.status).type("application/json; charset=utf-8").send(body);
}

/** One handler for every error: stable codes out, internal messages never. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return sendError(reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendError(reply, new AppError("validation_failed", "The request is invalid.", fieldsOf(error.validation, error.validationContext)));
    }
    if (error.validation) {
      return sendError(reply, new AppError("validation_failed", "The request is invalid.", fieldsOf(error.validation, error.validationContext)));
    }
    const mapped = fromFastifyError(error) ?? fromVanishedRow(error, request);
    if (mapped) return sendError(reply, mapped);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, "client error");
      return sendError(reply, new AppError("validation_failed", error.message));
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(reply, new AppError("internal_error", "Something went wrong on our side. Please retry."));
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new AppError("not_found", `No route for ${request.method} ${request.url.split("?")[0]}.`)),
  );
}
