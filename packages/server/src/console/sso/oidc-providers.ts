import * as oidc from "openid-client";
import type { SecretBoxes } from "../../auth/secret-box.js";
import type { WorkspaceSso } from "../../tenants/workspace-sso.js";
import type { SsoNetwork } from "./sso-network.js";

/** Seals workspaces' OpenID client secrets (the workspace's id as associated data). */
export const SSO_CLIENT_SECRET_PURPOSE = "workspace sso client secret";
/** Discovery documents are read again after this long (a provider's keys and endpoints may change). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

interface Cached {
  updatedAt: number;
  readAt: number;
  configuration: oidc.Configuration;
}

/**
 * openid-client's Configuration of each workspace's provider: its discovery document read (through
 * the guarded network) once an hour or when the settings change, its client authenticated with the
 * sealed secret (client_secret_basic), or none (a public client: PKCE alone).
 */
export class OidcProviders {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly network: SsoNetwork,
    private readonly secretBoxes: SecretBoxes,
  ) {}

  async configurationOf(sso: WorkspaceSso, now = Date.now()): Promise<oidc.Configuration> {
    const cached = this.cache.get(sso.workspaceId);
    if (cached && cached.updatedAt === sso.updatedAt.getTime() && now - cached.readAt < DISCOVERY_TTL_MS) return cached.configuration;
    const configuration = await this.discover(sso);
    this.cache.set(sso.workspaceId, { updatedAt: sso.updatedAt.getTime(), readAt: now, configuration });
    return configuration;
  }

  /** Reads the issuer's discovery document (refused when the guard refuses its address); throws on failure. */
  async discover(sso: Pick<WorkspaceSso, "workspaceId" | "issuer" | "clientId" | "clientSecretSealed">): Promise<oidc.Configuration> {
    const refusal = await this.network.refusal(sso.issuer);
    if (refusal) throw new Error(`the issuer's address is refused: ${refusal}`);
    const secret = sso.clientSecretSealed === null ? null : this.secretBoxes(SSO_CLIENT_SECRET_PURPOSE).open(sso.clientSecretSealed, sso.workspaceId);
    const authentication = secret === null ? oidc.None() : oidc.ClientSecretBasic(secret);
    // The ID token's signature is checked against the provider's published keys too (openid-client
    // leaves it to TLS by default for a token endpoint's answer): a forged or re-signed token is refused.
    return oidc.discovery(new URL(sso.issuer), sso.clientId, secret === null ? undefined : { client_secret: secret }, authentication, {
      [oidc.customFetch]: this.network.fetch,
      execute: [...(this.network.allowPrivateNetworks ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
    });
  }

  forget(workspaceId: string): void {
    this.cache.delete(workspaceId);
  }
}
