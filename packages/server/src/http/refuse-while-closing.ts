import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { AppError } from "./app-error.js";

/**
 * Once the service starts closing, a request that still arrives (on a kept-alive connection, or
 * one whose headers were under way) is refused with 503 `service_unavailable` in our shape, where
 * Fastify's own `return503OnClosing` (turned off in server-options.ts) would answer in its own.
 *
 * Requests already running finish normally, and no connection outlives them: Node's own idle
 * close spares a connection that has sent nothing yet, and one busy when closing starts (an
 * answer streaming) would stay open for the keep-alive timeout afterwards, either holding the
 * shutdown. So connections are counted here: a second after closing starts, each with no
 * response in progress is dropped, and the others end once their last response has gone. Watched on the raw
 * server, so hijacked replies (the SSE stream) count; upgraded sockets belong to the realtime layer.
 */
const HEADERS_GRACE_MS = 1000;

export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  const responsesInProgress = new Map<Socket, number>();

  app.server.on("connection", (socket: Socket) => {
    responsesInProgress.set(socket, 0);
    socket.once("close", () => responsesInProgress.delete(socket));
  });
  app.server.on("upgrade", (request: { socket: Socket }) => responsesInProgress.delete(request.socket));
  app.server.on("request", (request: { socket: Socket }, response: NodeJS.EventEmitter) => {
    const socket = request.socket;
    responsesInProgress.set(socket, (responsesInProgress.get(socket) ?? 0) + 1);
    response.once("close", () => {
      const left = Math.max(0, (responsesInProgress.get(socket) ?? 1) - 1);
      if (responsesInProgress.has(socket)) responsesInProgress.set(socket, left);
      if (closing && left === 0) socket.end();
    });
  });

  app.addHook("preClose", async () => {
    closing = true;
    // A request whose headers are under way gets its 503; what has sent nothing by then is dropped.
    setTimeout(() => {
      for (const [socket, inProgress] of responsesInProgress) if (inProgress === 0) socket.destroy();
    }, HEADERS_GRACE_MS).unref();
  });
  app.addHook("onRequest", async () => {
    if (closing) throw new AppError("service_unavailable", "The service is shutting down. Please retry.");
  });
}
