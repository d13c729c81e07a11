import type { ErrorBody } from "@frontdesk/contracts";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Socket } from "node:net";
import { AppError } from "./app-error.js";
import { sendError } from "./error-handler.js";

/**
 * Errors Fastify raises while routing, before any hook or handler of ours runs (Fastify's
 * `frameworkErrors` option): answered in our error shape instead of Fastify's.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ err: error }, "request refused while routing");
  switch (error.code) {
    case "FST_ERR_MAX_PARAM_LENGTH":
      void sendError(reply, new AppError("uri_too_long", "A path parameter of the URL is too long."));
      return;
    case "FST_ERR_BAD_URL":
      void sendError(reply, new AppError("bad_request", "The URL is not valid (a malformed percent-encoding?)."));
      return;
    default:
      void sendError(reply, new AppError("bad_request", "The request could not be routed."));
  }
}

/** Our error for a request Node's HTTP parser refused (or a client too slow to send one). */
export function appErrorOfClientError(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new AppError("request_timeout", "The request was not received in time.");
    case "HPE_HEADER_OVERFLOW":
      return new AppError("header_too_large", "The request's headers are too large.");
    default:
      return new AppError("bad_request", "The request is not valid HTTP/1.1.");
  }
}

/** A whole HTTP/1.1 response carrying `error` in our shape, closing the connection. */
export function rawErrorResponse(error: AppError): string {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(json)}`,
    ...Object.entries(error.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    "Connection: close",
    "",
    json,
  ].join("\r\n");
}

type ClientSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Node's `clientError` (Fastify's `clientErrorHandler` option): a request the parser refused
 * (a control byte in a header, headers over the size limit, a header or request timeout) gets
 * our error shape, written on the socket, which then closes. Nothing is written when a response
 * has already started on the socket, or the client is gone.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const client = socket as ClientSocket;
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // A connection that never sent a byte is closed without an answer, whichever of Node's header
  // deadline and our idle timeout (server-options.ts) fires first: there is no request to answer.
  if (socket.bytesRead === 0) {
    socket.destroy();
    return;
  }
  if (socket.writable && !client._httpMessage?.headersSent) socket.write(rawErrorResponse(appErrorOfClientError(error)));
  socket.destroySoon();
}

/** A request whose `Expect` is not `100-continue`: 417, in our shape (Node's own answer has no body). */
export function answerUnmetExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const error = new AppError("expectation_failed", "Only 'Expect: 100-continue' is supported.");
  const json = JSON.stringify({ error: { code: error.code, message: error.message } } satisfies ErrorBody);
  response.writeHead(error.status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json), connection: "close" });
  response.end(json);
}

/** `CONNECT` (this is no proxy): 405 in our shape, where Node would drop the connection silently. */
export function answerConnectRequest(_request: IncomingMessage, socket: Duplex): void {
  socket.on("error", () => undefined);
  socket.end(rawErrorResponse(new AppError("method_not_allowed", "CONNECT is not supported: this is not a proxy.")));
}
