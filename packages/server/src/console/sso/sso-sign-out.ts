import * as oidc from "openid-client";
import type { Services } from "../../services.js";
import { findWorkspaceSso } from "../../tenants/workspace-sso.js";
import { SSO_ID_TOKEN_PURPOSE } from "./finish-sso.js";
import type { OidcProviders } from "./oidc-providers.js";
import { ssoPostLogoutRedirectUri } from "./sso-settings.js";

/**
 * The provider's sign-out URL for a console session that ended (RP-initiated logout: its
 * end_session_endpoint with the ID token as hint, the client id and where to come back), or null
 * when the session was not the provider's or the provider has no such endpoint.
 */
export async function ssoEndSessionUrl(
  services: Services,
  providers: OidcProviders,
  ended: { workspaceId: string; operatorId: string; ssoIdTokenSealed: string | null },
): Promise<string | null> {
  if (ended.ssoIdTokenSealed === null) return null;
  const sso = await findWorkspaceSso(services.db, ended.workspaceId);
  if (!sso) return null;
  const idToken = services.secretBoxes(SSO_ID_TOKEN_PURPOSE).open(ended.ssoIdTokenSealed, ended.operatorId);
  try {
    const configuration = await providers.configurationOf(sso);
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return oidc
      .buildEndSessionUrl(configuration, {
        ...(idToken ? { id_token_hint: idToken } : {}),
        client_id: sso.clientId,
        post_logout_redirect_uri: ssoPostLogoutRedirectUri(services.config.publicUrl),
      })
      .toString();
  } catch {
    return null;
  }
}
