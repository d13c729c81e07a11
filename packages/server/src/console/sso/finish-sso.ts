import * as oidc from "openid-client";
import type { Services } from "../../services.js";
import { findWorkspaceOperatorByEmail, insertOperator, type Operator } from "../../tenants/operators.js";
import { findWorkspaceSso } from "../../tenants/workspace-sso.js";
import { operatorEvent } from "../../tenants/settings-events.js";
import { startOperatorSession, type StartedOperatorSession } from "../start-operator-session.js";
import type { OidcProviders } from "./oidc-providers.js";
import type { SsoState } from "./sso-state.js";

/** Seals the ID token a session keeps for the provider's sign-out (the operator's id as associated data). */
export const SSO_ID_TOKEN_PURPOSE = "operator session sso id token";

/** A callback refused, with the reason logged (never shown in full to the browser). */
export class SsoRefusal extends Error {
  constructor(
    readonly code: "sso_failed" | "sso_domain_not_allowed" | "sso_expired",
    readonly reason: string,
  ) {
    super(reason);
    this.name = "SsoRefusal";
  }
}

/** The error's message and its causes' (openid-client says "invalid response encountered"; its cause says which check failed). */
function messageOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    if (!(current instanceof Error)) {
      parts.push(typeof current === "object" ? JSON.stringify(current).slice(0, 300) : String(current));
      break;
    }
    const code = "code" in current && current.code ? ` (${String(current.code)})` : "";
    parts.push(`${current.message}${code}`);
    current = current.cause;
  }
  return parts.join(": ");
}

/**
 * The provider's redirect back: openid-client exchanges the code (with the PKCE verifier) and checks
 * the ID token — state, nonce, issuer, audience, signature against the provider's keys, expiry —
 * and every failure is an SsoRefusal with its reason. An e-mail of an allowed domain (and not marked
 * unverified) signs in its workspace's operator, created at first sign-in with the default role.
 */
export async function finishSso(
  services: Services,
  providers: OidcProviders,
  state: SsoState | null,
  callbackUrl: URL,
): Promise<{ operator: Operator; session: StartedOperatorSession; created: boolean }> {
  if (!state) throw new SsoRefusal("sso_expired", "no single sign-on under way (the state cookie is missing, forged or older than 10 minutes)");
  const sso = await findWorkspaceSso(services.db, state.workspaceId);
  if (!sso) throw new SsoRefusal("sso_failed", "the workspace's provider was removed meanwhile");
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  let claims: Record<string, unknown>;
  try {
    const configuration = await providers.configurationOf(sso);
    tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: state.codeVerifier,
      expectedState: state.state,
      expectedNonce: state.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error("no ID token");
    claims = { ...idToken };
    // A provider may keep the profile's claims out of the ID token (OpenID Connect Core 5.4): its userinfo endpoint, for the same subject, has them.
    if (typeof claims.email !== "string" && configuration.serverMetadata().userinfo_endpoint) {
      claims = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken };
    }
  } catch (error) {
    throw new SsoRefusal("sso_failed", messageOf(error));
  }
  const email = typeof claims.email === "string" ? claims.email.trim() : "";
  if (!email.includes("@")) throw new SsoRefusal("sso_failed", "neither the ID token nor the userinfo carries an e-mail (ask for the `email` scope)");
  if (claims.email_verified === false) throw new SsoRefusal("sso_failed", `the provider has not verified ${email}`);
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (!sso.allowedDomains.includes(domain)) throw new SsoRefusal("sso_domain_not_allowed", `${domain} is not among the workspace's allowed domains (${sso.allowedDomains.join(", ")})`);

  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 200) : email.slice(0, email.lastIndexOf("@"));
  let operator = await findWorkspaceOperatorByEmail(services.db, sso.workspaceId, email);
  let created = false;
  if (!operator) {
    operator = await insertOperator(services.db, { workspaceId: sso.workspaceId, email, name, role: sso.defaultRole });
    created = operator !== null;
    operator ??= await findWorkspaceOperatorByEmail(services.db, sso.workspaceId, email);
    if (!operator) throw new SsoRefusal("sso_failed", "the operator could not be created");
    if (created) await services.events.raise(services.db, operatorEvent("operator.invited", operator, services.now()));
  }
  const idToken = tokens.id_token ? services.secretBoxes(SSO_ID_TOKEN_PURPOSE).seal(tokens.id_token, operator.id) : null;
  return { operator, session: await startOperatorSession(services, operator.id, idToken), created };
}
