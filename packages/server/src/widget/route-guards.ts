import type { FastifyReply, FastifyRequest } from "fastify";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import type { LimitName } from "../ratelimit/rate-limiter.js";
import type { Services } from "../services.js";
import { authenticateSession, type WidgetSession } from "./authenticate-session.js";

declare module "fastify" {
  interface FastifyRequest {
    widgetSession?: WidgetSession;
  }
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Authenticates the session token, then counts the request against the token's `limit`. */
export function sessionGuard(services: Services, limit: LimitName): Guard {
  return async (request, reply) => {
    const session = await authenticateSession(services, request.headers.authorization);
    request.widgetSession = session;
    await enforceRateLimit(services.limiter, reply, [limit, session.tokenKey]);
  };
}

/** Counts the request against the client IP's `limit`. */
export function ipGuard(services: Services, limit: LimitName): Guard {
  return async (request, reply) => {
    await enforceRateLimit(services.limiter, reply, [limit, request.ip]);
  };
}

/** Authenticates the session token without counting it (the route is limited per IP). */
export function sessionOnly(services: Services): Guard {
  return async (request) => {
    request.widgetSession = await authenticateSession(services, request.headers.authorization);
  };
}

export function sessionOf(request: FastifyRequest): WidgetSession {
  if (!request.widgetSession) throw new Error("session guard did not run");
  return request.widgetSession;
}
