import { fetch as undiciFetch, type Agent } from "undici";
import { createAddressGuard, type AddressGuard } from "../../network/address-guard.js";
import { FetchError } from "../../network/fetch-error.js";
import { createGuardedAgent, systemResolver, type HostResolver } from "../../network/guarded-agent.js";
import { hostRefusal, literalAddressRefusal } from "../../network/outbound-request.js";

/**
 * How a workspace's model provider is reached: through the webhooks' address guard, since its
 * base URL is given by a workspace's admin, not by whoever runs the instance (the instance's own
 * FRONTDESK_LLM_* are trusted and never come through here). Checked when the URL is saved, and
 * on every connection, which goes to exactly the addresses checked (no second DNS answer to
 * rebind). `allowPrivateNetworks` is FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: Ollama on the same host.
 */
export class ModelProviderNetwork {
  readonly guard: AddressGuard;
  private readonly agent: Agent;

  constructor(
    allowPrivateNetworks: boolean,
    timeoutMs: number,
    private readonly resolve: HostResolver = systemResolver,
  ) {
    this.guard = createAddressGuard({ allowPrivateNetworks });
    this.agent = createGuardedAgent({ guard: this.guard, resolve, connectTimeoutMs: timeoutMs, responseTimeoutMs: timeoutMs });
  }

  /** Why a base URL may not be called, or null: a loopback, private … address, or a host that does not resolve. */
  async refusal(baseUrl: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      return "not a valid URL";
    }
    return hostRefusal(url, this.guard, this.resolve);
  }

  /** The `fetch` the AI SDK's providers are given: every request through the guarded agent, an address literal checked first. */
  readonly fetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const refusal = literalAddressRefusal(url, this.guard);
    if (refusal !== null) throw new FetchError("blocked_address", refusal);
    // undici's own fetch takes its Agent; its Request and Response are the platform's in shape.
    return (await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: this.agent })) as unknown as Response;
  }) satisfies typeof fetch;

  async close(): Promise<void> {
    await this.agent.close();
  }
}
