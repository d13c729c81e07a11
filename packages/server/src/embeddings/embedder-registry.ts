import { createHash } from "node:crypto";
import type { Agent } from "undici";
import { createAddressGuard, type AddressGuard } from "../network/address-guard.js";
import { createGuardedAgent, systemResolver, type HostResolver } from "../network/guarded-agent.js";
import { hostRefusal, literalAddressRefusal } from "../network/outbound-request.js";
import type { EmbedderConfig } from "./create-embedder.js";
import type { Embedder } from "./embedder.js";
import { EmbeddingError } from "./embedding-error.js";
import { HashingEmbedder } from "./hashing-embedder.js";
import { DEFAULT_LOCAL_MODEL, LocalEmbedder } from "./local-embedder.js";
import { LocalModelUnavailableError } from "./local-model-unavailable-error.js";
import { OpenAiCompatibleEmbedder } from "./openai-compatible-embedder.js";

/** A workspace's choice of embedder (the instance's own is `default`). */
export type EmbedderChoice =
  | { provider: "default" }
  | { provider: "hashing" }
  | { provider: "local" }
  | { provider: "openai-compatible"; baseUrl: string; model: string; dimensions: number | null; apiKey: string | null };

export interface EmbedderRegistryOptions {
  /** The instance's embedder (FRONTDESK_EMBEDDINGS_*), which `default` names and the others reuse when they are the same. */
  instance: Embedder;
  /** The instance's embedding configuration: where `local` finds its model files. */
  config: EmbedderConfig;
  /** FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: a workspace's server may be on loopback or a private network. */
  allowPrivateNetworks: boolean;
  /** Replaces DNS (tests). */
  resolve?: HostResolver;
  /** Override the compiled worker scripts (tests run from source). */
  localWorkerUrl?: URL;
  hashingWorkerUrl?: URL;
}

/** Connection and response deadline of a workspace's embeddings server. */
const REQUEST_TIMEOUT_MS = 60_000;
/** Servers kept open at once; the oldest is dropped past it (a dropped one is built again when asked). */
const MAX_REMOTE = 64;

/**
 * The embedders that workspaces chose, built once per process and shared: the instance's for
 * `default` (and for `hashing` or `local` when the instance's is the same), one hashing and one
 * local embedder for all workspaces, and one client per OpenAI-compatible server, model and key,
 * whose requests go through the SSRF guard (the instance's own variables stay trusted).
 */
export class EmbedderRegistry {
  private readonly guard: AddressGuard;
  private readonly agent: Agent;
  private hashing: Promise<Embedder> | null = null;
  private local: Promise<Embedder> | null = null;
  private readonly remote = new Map<string, OpenAiCompatibleEmbedder>();

  constructor(private readonly options: EmbedderRegistryOptions) {
    this.guard = createAddressGuard({ allowPrivateNetworks: options.allowPrivateNetworks });
    this.agent = createGuardedAgent({ guard: this.guard, resolve: options.resolve ?? systemResolver, connectTimeoutMs: 10_000, responseTimeoutMs: REQUEST_TIMEOUT_MS });
  }

  get instance(): Embedder {
    return this.options.instance;
  }

  /** Why a workspace's server URL is refused (not http(s), credentials, an address the guard refuses), or null. */
  async urlRefusal(input: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      return "not a valid URL";
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https URLs are accepted";
    if (url.username !== "" || url.password !== "") return "credentials in the URL are not accepted (give the key apart)";
    return hostRefusal(url, this.guard, this.options.resolve ?? systemResolver);
  }

  /** The embedder of a choice; throws EmbeddingError (`model_unavailable`, `invalid_config`) when it cannot be had. */
  async embedderFor(choice: EmbedderChoice): Promise<Embedder> {
    switch (choice.provider) {
      case "default":
        return this.options.instance;
      case "hashing":
        if (this.options.instance.status().provider === "hashing") return this.options.instance;
        this.hashing ??= Promise.resolve(new HashingEmbedder({ workerUrl: this.options.hashingWorkerUrl }));
        return this.hashing;
      case "local":
        if (this.options.instance.status().provider === "local" && !this.options.instance.status().degraded) return this.options.instance;
        this.local ??= this.openLocal();
        return this.local.catch((error: unknown) => {
          this.local = null;
          throw error;
        });
      case "openai-compatible":
        return this.remoteFor(choice);
    }
  }

  private async openLocal(): Promise<Embedder> {
    const { config } = this.options;
    try {
      return await LocalEmbedder.open({
        modelId: DEFAULT_LOCAL_MODEL,
        cacheDir: config.cacheDir,
        modelDir: config.modelDir,
        // Only files already present: a workspace's choice never downloads.
        allowRemoteModels: false,
        workerUrl: this.options.localWorkerUrl,
        ...(config.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: config.idleTimeoutMs }),
      });
    } catch (error) {
      if (error instanceof LocalModelUnavailableError) throw new EmbeddingError("model_unavailable", error.message, { cause: error });
      throw error;
    }
  }

  private remoteFor(choice: Extract<EmbedderChoice, { provider: "openai-compatible" }>): OpenAiCompatibleEmbedder {
    const key = createHash("sha256").update(JSON.stringify([choice.baseUrl, choice.model, choice.dimensions, choice.apiKey])).digest("hex");
    const known = this.remote.get(key);
    if (known) return known;
    const embedder = new OpenAiCompatibleEmbedder({
      baseUrl: choice.baseUrl,
      model: choice.model,
      ...(choice.dimensions === null ? {} : { dimensions: choice.dimensions }),
      ...(choice.apiKey === null ? {} : { apiKey: choice.apiKey }),
      timeoutMs: REQUEST_TIMEOUT_MS,
      guarded: { dispatcher: this.agent, refusal: (url) => literalAddressRefusal(url, this.guard) },
    });
    if (this.remote.size >= MAX_REMOTE) this.remote.delete(this.remote.keys().next().value!);
    this.remote.set(key, embedder);
    return embedder;
  }

  /** Closes what this registry opened (not the instance's embedder, which its owner closes). */
  async close(): Promise<void> {
    const opened = await Promise.allSettled([this.hashing, this.local].filter((pending) => pending !== null));
    for (const result of opened) if (result.status === "fulfilled" && result.value !== this.options.instance) await result.value.close();
    await this.agent.close();
  }
}
