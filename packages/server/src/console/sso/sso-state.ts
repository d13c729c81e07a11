import type { FastifyReply, FastifyRequest } from "fastify";
import type { Services } from "../../services.js";
import { CONSOLE_PREFIX } from "../console-prefix.js";

/** The cookie that carries a single sign-on under way from its start to the provider's callback. */
export const SSO_STATE_COOKIE_NAME = "frontdesk_console_sso";
/** Ten minutes at the provider's sign-in page. */
export const SSO_STATE_LIFETIME_MS = 10 * 60 * 1000;

const PURPOSE = "console single sign-on state";
const OWNER = "sso-state";

/** What the callback must find again: the workspace, the state and nonce sent, the PKCE verifier. */
export interface SsoState {
  workspaceId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  expiresAt: number;
}

/** Sealed (AES-GCM) in an HttpOnly, SameSite=Lax cookie on the callback's path: the provider's redirect is a top-level GET, which carries it. */
export function setSsoState(services: Services, reply: FastifyReply, state: SsoState): void {
  const sealed = services.secretBoxes(PURPOSE).seal(JSON.stringify(state), OWNER);
  reply.setCookie(SSO_STATE_COOKIE_NAME, sealed, {
    httpOnly: true,
    sameSite: "lax",
    secure: new URL(services.config.publicUrl).protocol === "https:",
    path: `${CONSOLE_PREFIX}/sso`,
    expires: new Date(state.expiresAt),
  });
}

/** The request's single sign-on under way, or null: none, forged, sealed under another key, or expired. */
export function ssoStateOf(services: Services, request: FastifyRequest): SsoState | null {
  const value = request.cookies[SSO_STATE_COOKIE_NAME];
  if (!value) return null;
  const opened = services.secretBoxes(PURPOSE).open(value, OWNER);
  if (opened === null) return null;
  const state = JSON.parse(opened) as SsoState;
  return state.expiresAt > services.now().getTime() ? state : null;
}

export function clearSsoState(services: Services, reply: FastifyReply): void {
  reply.clearCookie(SSO_STATE_COOKIE_NAME, { path: `${CONSOLE_PREFIX}/sso`, maxAge: 0 });
}
