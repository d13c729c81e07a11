import type { FastifyRequest } from "fastify";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { hashConsoleSecret, looksLikeConsoleSecret } from "./console-secret.js";
import { findActiveOperatorSession, SESSION_TOUCH_INTERVAL_MS, touchOperatorSession } from "../tenants/operator-sessions.js";
import type { OperatorAccount } from "../tenants/operators.js";
import { publicOrigin } from "./public-origin.js";
import { SESSION_COOKIE_NAME } from "./session-cookie.js";

/** The operator a console request acts for; every console query is scoped to `workspaceId`. */
export type SignedInOperator = OperatorAccount;

declare module "fastify" {
  interface FastifyRequest {
    signedInOperator?: SignedInOperator;
    /** The console session the guard found (what the realtime grants of this request are tied to). */
    operatorSessionId?: string;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The session cookie's value, when the request carries one. */
export function sessionSecretOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE_NAME];
  return value === undefined || value === "" ? undefined : value;
}

/**
 * A state-changing request (anything but GET, HEAD, OPTIONS) must come from a page of the public
 * URL's origin: browsers send `Origin` on every such request, and another site's page cannot
 * forge it, so a cookie sent along by a cross-site form or fetch is worth nothing (CSRF).
 */
export function requireSameOrigin(services: Services, request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  const expected = publicOrigin(services.config);
  if (origin !== expected) {
    throw new AppError(
      "csrf_origin_mismatch",
      origin === undefined
        ? `A console request that changes something must carry 'Origin: ${expected}' (FRONTDESK_PUBLIC_URL's origin).`
        : `A console request that changes something must come from ${expected} (FRONTDESK_PUBLIC_URL's origin), not from ${origin}.`,
    );
  }
}

/**
 * The console's guard: the operator of the session cookie, checked against the store on every
 * request (a session ended by sign-out, a password change or the operator's removal fails at once,
 * in every process). Throws 401 `unauthenticated` without a live session, 403
 * `csrf_origin_mismatch` when a state-changing request does not come from the public URL's origin.
 * Moves the session's idle deadline, writing at most once a minute.
 */
export async function authenticateOperator(services: Services, request: FastifyRequest): Promise<SignedInOperator> {
  if (request.signedInOperator) return request.signedInOperator;
  const secret = sessionSecretOf(request);
  if (secret === undefined) throw new AppError("unauthenticated", "Sign in first: POST /api/v1/console/session sets the session cookie.");
  requireSameOrigin(services, request);
  const now = services.now();
  const session = looksLikeConsoleSecret(secret) ? await findActiveOperatorSession(services.db, hashConsoleSecret(secret), now) : null;
  if (!session) throw new AppError("unauthenticated", "The session has ended (signed out, expired, or the password changed); sign in again.");
  if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) await touchOperatorSession(services.db, session.sessionId, now);
  request.signedInOperator = session.operator;
  request.operatorSessionId = session.sessionId;
  return session.operator;
}

/** Admins manage agents, sources, tokens and operators; agents handle conversations. */
export function requireAdmin(operator: SignedInOperator): void {
  if (operator.role !== "admin") throw new AppError("forbidden", "Only an admin of the workspace may do this.");
}

/** A preValidation hook authenticating the operator (then read with operatorOf). */
export function operatorGuard(services: Services) {
  return async (request: FastifyRequest): Promise<void> => {
    await authenticateOperator(services, request);
  };
}

/** The operator the guard authenticated. */
export function operatorOf(request: FastifyRequest): SignedInOperator {
  if (!request.signedInOperator) throw new Error("operator guard did not run");
  return request.signedInOperator;
}

/** The console session the guard authenticated the operator by. */
export function operatorSessionOf(request: FastifyRequest): string {
  if (!request.operatorSessionId) throw new Error("operator guard did not run");
  return request.operatorSessionId;
}
