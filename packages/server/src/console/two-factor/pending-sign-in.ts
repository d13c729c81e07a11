import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config/config.js";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { sessionCookieOptions } from "../session-cookie.js";

/** The cookie of a sign-in whose password was right and whose second step is still due. */
export const PENDING_COOKIE_NAME = "frontdesk_console_pending";
/** Five minutes to type the code (or to enrol an authenticator the workspace requires). */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;

/** What is still due: a code of the operator's authenticator, or enrolling one (the workspace requires it). */
export type PendingStep = "totp" | "enrol_totp";

export interface PendingSignIn {
  operatorId: string;
  step: PendingStep;
  expiresAt: Date;
}

const PURPOSE = "console sign-in pending second step";
const OWNER = "pending-sign-in";

/**
 * The pending state travels sealed in its own cookie (AES-GCM under the service's secret): not a
 * session, it opens only the second step's routes, for five minutes. Guessing codes with it is
 * held back by sign-in's back-off (the same keys as wrong passwords).
 */
export function issuePendingSignIn(services: Services, reply: FastifyReply, operatorId: string, step: PendingStep): PendingSignIn {
  const expiresAt = new Date(services.now().getTime() + PENDING_SIGN_IN_MS);
  const sealed = services.secretBoxes(PURPOSE).seal(JSON.stringify({ o: operatorId, s: step, e: expiresAt.getTime() }), OWNER);
  reply.setCookie(PENDING_COOKIE_NAME, sealed, sessionCookieOptions(services.config, expiresAt));
  return { operatorId, step, expiresAt };
}

/** The request's pending sign-in; 401 `sign_in_expired` when there is none, or it expired, or it was made with another key. */
export function pendingSignInOf(services: Services, request: FastifyRequest): PendingSignIn {
  const expired = new AppError("sign_in_expired", "The sign-in has expired (the second step is due within 5 minutes of the password); sign in again.");
  const value = request.cookies[PENDING_COOKIE_NAME];
  if (!value) throw expired;
  const opened = services.secretBoxes(PURPOSE).open(value, OWNER);
  if (opened === null) throw expired;
  const parsed = JSON.parse(opened) as { o: string; s: PendingStep; e: number };
  if (parsed.e <= services.now().getTime()) throw expired;
  return { operatorId: parsed.o, step: parsed.s, expiresAt: new Date(parsed.e) };
}

export function clearPendingSignIn(config: Config, reply: FastifyReply): void {
  reply.clearCookie(PENDING_COOKIE_NAME, { ...sessionCookieOptions(config, new Date(0)), maxAge: 0 });
}
