import type { FastifyRequest } from "fastify";
import type { Config } from "../config/config.js";

/**
 * The origins init admits for every agent because only this service's own pages live there: the
 * public URL's origin and the origin the request itself was sent to (a same-origin request, e.g.
 * the demo page opened as http://localhost:8080 while FRONTDESK_PUBLIC_URL says 127.0.0.1). None when
 * FRONTDESK_DEMO=false. A browser cannot send either from another site's page.
 */
export function demoPageOrigins(config: Config, request: FastifyRequest): string[] {
  if (!config.demo) return [];
  return [new URL(config.publicUrl).origin, `${request.protocol}://${request.host}`];
}
