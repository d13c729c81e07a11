import type { CustomFetch } from "openid-client";
import { fetch as undiciFetch, type Agent } from "undici";
import { createAddressGuard, type AddressGuard } from "../../network/address-guard.js";
import { FetchError } from "../../network/fetch-error.js";
import { createGuardedAgent, systemResolver, type HostResolver } from "../../network/guarded-agent.js";
import { hostRefusal, literalAddressRefusal } from "../../network/outbound-request.js";

const TIMEOUT_MS = 10_000;

/**
 * How a workspace's OpenID provider is reached (discovery, JWKS, the token endpoint): through the
 * outbound address guard, since its issuer is given by a workspace's admin. Loopback, private,
 * link-local and metadata addresses are refused, and only https is spoken, unless
 * FRONTDESK_SSO_ALLOW_PRIVATE_NETWORKS (an intranet provider, the tests' loopback one), which
 * allows http too. Every connection goes to exactly the addresses checked.
 */
export class SsoNetwork {
  readonly guard: AddressGuard;
  private readonly agent: Agent;

  constructor(
    readonly allowPrivateNetworks: boolean,
    private readonly resolve: HostResolver = systemResolver,
  ) {
    this.guard = createAddressGuard({ allowPrivateNetworks });
    this.agent = createGuardedAgent({ guard: this.guard, resolve, connectTimeoutMs: TIMEOUT_MS, responseTimeoutMs: TIMEOUT_MS });
  }

  /** Why an issuer URL may not be used, or null. */
  async refusal(issuer: string): Promise<string | null> {
    const url = new URL(issuer);
    const schemes = this.allowPrivateNetworks ? ["https:", "http:"] : ["https:"];
    if (!schemes.includes(url.protocol)) return "the issuer must be an https URL";
    return hostRefusal(url, this.guard, this.resolve);
  }

  /** openid-client's fetch: every request through the guarded agent, an address literal checked first. */
  readonly fetch: CustomFetch = async (input, init) => {
    const url = new URL(input);
    const refusal = literalAddressRefusal(url, this.guard);
    if (refusal !== null) throw new FetchError("blocked_address", refusal);
    return (await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: this.agent })) as unknown as Response;
  };

  async close(): Promise<void> {
    await this.agent.close();
  }
}
