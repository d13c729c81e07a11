import type { SsoSettings, SsoSettingsBody } from "@frontdesk/contracts";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { domainsTakenElsewhere, findWorkspaceSso, upsertWorkspaceSso, type WorkspaceSso } from "../../tenants/workspace-sso.js";
import { CONSOLE_PREFIX } from "../console-prefix.js";
import { SSO_CLIENT_SECRET_PURPOSE, type OidcProviders } from "./oidc-providers.js";

/** Where the provider sends the browser back: to register with the provider. */
export const ssoRedirectUri = (publicUrl: string): string => new URL(`${CONSOLE_PREFIX}/sso/callback`, new URL(publicUrl).origin).toString();
/** Where the provider's sign-out sends the browser back. */
export const ssoPostLogoutRedirectUri = (publicUrl: string): string => new URL("/console/", new URL(publicUrl).origin).toString();

export function presentSsoSettings(services: Services, sso: WorkspaceSso): SsoSettings {
  return {
    display_name: sso.displayName,
    issuer: sso.issuer,
    client_id: sso.clientId,
    has_client_secret: sso.clientSecretSealed !== null,
    allowed_domains: sso.allowedDomains,
    default_role: sso.defaultRole,
    password_sign_in: sso.passwordSignIn,
    redirect_uri: ssoRedirectUri(services.config.publicUrl),
    post_logout_redirect_uri: ssoPostLogoutRedirectUri(services.config.publicUrl),
    updated_at: sso.updatedAt.toISOString(),
  };
}

/**
 * PUT /workspace/sso: the workspace's provider. The issuer is checked at once: its address through
 * the outbound guard, its discovery document read (422 `fields.issuer` says why not). A domain
 * another workspace's provider signs in is refused (a domain has one provider). The client secret
 * is sealed; it never comes back.
 */
export async function saveSsoSettings(services: Services, providers: OidcProviders, workspaceId: string, body: SsoSettingsBody): Promise<SsoSettings> {
  const domains = [...new Set(body.allowed_domains)];
  const taken = await domainsTakenElsewhere(services.db, workspaceId, domains);
  if (taken.length > 0) throw new AppError("validation_failed", "A domain has one provider.", { allowed_domains: [`${taken.join(", ")}: another workspace signs in this domain`] });
  const existing = await findWorkspaceSso(services.db, workspaceId);
  const clientSecretSealed =
    body.client_secret === undefined ? (existing?.clientSecretSealed ?? null) : body.client_secret === null ? null : services.secretBoxes(SSO_CLIENT_SECRET_PURPOSE).seal(body.client_secret, workspaceId);
  const issuer = body.issuer;
  try {
    await providers.discover({ workspaceId, issuer, clientId: body.client_id, clientSecretSealed });
  } catch (error) {
    throw new AppError("validation_failed", "The provider cannot be used.", { issuer: [`cannot read its OpenID configuration: ${error instanceof Error ? error.message : String(error)}`] });
  }
  const saved = await upsertWorkspaceSso(
    services.db,
    workspaceId,
    {
      displayName: body.display_name,
      issuer,
      clientId: body.client_id,
      clientSecretSealed,
      allowedDomains: domains,
      defaultRole: body.default_role,
      passwordSignIn: body.password_sign_in,
    },
    services.now(),
  );
  providers.forget(workspaceId);
  return presentSsoSettings(services, saved);
}
