import { SecretBox } from "../../auth/secret-box.js";
import type { Database, Queryable } from "../../db/database.js";
import type { EmbedderChoice, EmbedderRegistry } from "../../embeddings/embedder-registry.js";
import type { Embedder } from "../../embeddings/embedder.js";
import { EmbeddingError } from "../../embeddings/embedding-error.js";
import { findWorkspaceGenerations, type GenerationRecord } from "./embedding-generation-repository.js";

/** Seals the API keys of workspaces' embeddings servers (the generation's id is the associated data). */
export const embeddingsKeyBox = (serviceSecret: string): SecretBox => new SecretBox(serviceSecret, "workspace embeddings API key");

/** The embedder of each workspace: what questions and new documents are embedded with. */
export interface ActiveEmbedders {
  /** The embedder of the workspace's active generation (the instance's when it chose none). */
  active(workspaceId: string): Promise<Embedder>;
  /** Its id, read in `db` (a transaction sees its own switch). */
  activeId(db: Queryable, workspaceId: string): Promise<string>;
}

/**
 * Resolves workspaces' embedders from their generations (migration 0039) through the process's
 * EmbedderRegistry. Read on every call: a switch is seen by the next question, in every process.
 */
export class WorkspaceEmbedders implements ActiveEmbedders {
  constructor(
    private readonly db: Database,
    readonly registry: EmbedderRegistry,
    readonly keys: SecretBox,
  ) {}

  get instance(): Embedder {
    return this.registry.instance;
  }

  async active(workspaceId: string): Promise<Embedder> {
    const { active } = await findWorkspaceGenerations(this.db, workspaceId);
    return active === null ? this.registry.instance : this.embedderOf(active);
  }

  async activeId(db: Queryable, workspaceId: string): Promise<string> {
    const { active } = await findWorkspaceGenerations(db, workspaceId);
    return active === null ? this.registry.instance.id : active.embedderId;
  }

  /** The embedder a generation names (`default`: the instance's as it is now). */
  async embedderOf(generation: GenerationRecord): Promise<Embedder> {
    return this.registry.embedderFor(this.choiceOf(generation));
  }

  choiceOf(generation: GenerationRecord): EmbedderChoice {
    if (generation.provider !== "openai-compatible") return { provider: generation.provider };
    let apiKey: string | null = null;
    if (generation.apiKeyCiphertext !== null) {
      apiKey = this.keys.open(generation.apiKeyCiphertext, generation.id);
      if (apiKey === null) throw new EmbeddingError("invalid_config", "The embeddings API key cannot be read (the service's secret changed): set it again");
    }
    return { provider: "openai-compatible", baseUrl: generation.baseUrl ?? "", model: generation.model ?? "", dimensions: generation.dimensions, apiKey };
  }
}

/** An instance where workspaces choose no embedder (the evaluation scripts): the instance's for all. */
export function instanceEmbedderOnly(embedder: Embedder): ActiveEmbedders {
  return { active: async () => embedder, activeId: async () => embedder.id };
}
