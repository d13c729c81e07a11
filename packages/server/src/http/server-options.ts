import type { FastifyServerOptions } from "fastify";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import type { Config } from "../config/config.js";
import { answerClientError, answerConnectRequest, answerFrameworkError, answerUnmetExpectation } from "./framework-errors.js";

/** How often Node looks for requests past their header or request deadline (its default is 30 s). */
const MAX_DEADLINE_CHECK_INTERVAL_MS = 1000;

/**
 * The HTTP server, its timeouts, and the handlers that answer, in our error shape, what fails
 * before any route runs.
 *
 * - `headersTimeout`: a client has this long to send the request line and headers (a slow-header
 *   client is answered 408 `request_timeout` and disconnected);
 * - `requestTimeout`: and this long for the whole request, body included. Node stops the clock
 *   once the request is received, so a long answer (the SSE stream) is never cut by it;
 * - a connection that sends nothing at all is closed after `headersTimeout` too;
 * - `keepAliveTimeout`: an idle kept-alive connection closes after this long (longer than the
 *   60 s idle timeout of common proxies, so the proxy closes first).
 *
 * Node answers an `Expect` it cannot meet, and drops a `CONNECT`, by itself unless someone
 * listens: we answer both, in our shape.
 */
export function serverOptions(timeouts: Config["http"]["timeouts"]): Pick<FastifyServerOptions, "serverFactory" | "frameworkErrors" | "clientErrorHandler" | "return503OnClosing"> {
  const requestTimeout = Math.max(timeouts.requestMs, timeouts.headersMs);
  return {
    serverFactory: (handler): Server => {
      const server = createServer(
        {
          headersTimeout: timeouts.headersMs,
          requestTimeout,
          connectionsCheckingInterval: Math.min(MAX_DEADLINE_CHECK_INTERVAL_MS, timeouts.headersMs),
        },
        handler,
      );
      server.keepAliveTimeout = timeouts.keepAliveMs;
      // Node's header deadline starts with the first byte: a connection that sends nothing at all
      // would stay open for ever. It gets the same deadline for its first request, lifted as that
      // request arrives (after a response, Node's keep-alive timeout takes over).
      server.on("connection", (socket: Socket) => socket.setTimeout(timeouts.headersMs));
      server.on("request", (request: IncomingMessage) => request.socket.setTimeout(0));
      server.on("checkExpectation", answerUnmetExpectation);
      server.on("connect", answerConnectRequest);
      return server;
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Requests arriving while the service closes get our 503 instead (refuse-while-closing.ts).
    return503OnClosing: false,
  };
}
