import type { IncomingMessage } from "node:http";
import proxyAddr from "@fastify/proxy-addr";

/**
 * The address a WebSocket client connects from, read as Fastify reads `request.ip` for the HTTP
 * routes (the same proxy-addr, the same FRONTDESK_TRUSTED_PROXIES): the socket's peer, or, when
 * the peer is a trusted proxy, the right-most address of `X-Forwarded-For` that is not one.
 */
export function clientAddressOf(trustedProxies: string[]): (request: IncomingMessage) => string {
  if (trustedProxies.length === 0) return (request) => request.socket.remoteAddress ?? "unknown";
  const trusted = proxyAddr.compile(trustedProxies);
  return (request) => proxyAddr(request, trusted);
}
