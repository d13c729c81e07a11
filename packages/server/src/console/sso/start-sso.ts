import * as oidc from "openid-client";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findSsoOfDomain, type WorkspaceSso } from "../../tenants/workspace-sso.js";
import type { OidcProviders } from "./oidc-providers.js";
import { ssoRedirectUri } from "./sso-settings.js";
import { SSO_STATE_LIFETIME_MS, type SsoState } from "./sso-state.js";

/** The provider that signs in this e-mail's domain, if a workspace set one. */
export async function ssoProviderOf(services: Services, email: string): Promise<WorkspaceSso | null> {
  const at = email.lastIndexOf("@");
  if (at < 1) return null;
  return findSsoOfDomain(services.db, email.slice(at + 1).trim().toLowerCase());
}

/**
 * Begins a single sign-on (authorization code with PKCE, state and nonce): the provider's
 * authorization URL to send the browser to, and what the callback must find again (kept in a
 * sealed cookie). The e-mail only chooses the provider and is passed on as `login_hint`.
 */
export async function startSso(services: Services, providers: OidcProviders, email: string): Promise<{ authorizationUrl: string; state: SsoState }> {
  const sso = await ssoProviderOf(services, email);
  if (!sso) throw new AppError("sso_not_configured", "No single sign-on is set up for this e-mail's domain; sign in with your password.");
  const configuration = await providers.configurationOf(sso).catch((error: unknown) => {
    throw new AppError("service_unavailable", `The identity provider cannot be reached (${error instanceof Error ? error.message : String(error)}); try again later.`);
  });
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state: SsoState = {
    workspaceId: sso.workspaceId,
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier,
    expiresAt: services.now().getTime() + SSO_STATE_LIFETIME_MS,
  };
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: ssoRedirectUri(services.config.publicUrl),
    scope: "openid email profile",
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state: state.state,
    nonce: state.nonce,
    login_hint: email,
  });
  return { authorizationUrl: url.toString(), state };
}
