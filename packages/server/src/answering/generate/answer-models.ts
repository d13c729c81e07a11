import type { AnswerInstructions } from "@frontdesk/contracts";
import { LRUCache } from "lru-cache";
import type { Database } from "../../db/database.js";
import { openWorkspaceModelProvider, type ModelProviderKeys, type OpenedModelProvider } from "../../tenants/workspace-model-providers.js";
import type { AnswerGenerator, AnswerLogger } from "./answer-generator.js";
import { ExtractiveAnswerGenerator } from "./extractive-answer-generator.js";
import { ModelAnswerGenerator } from "./model-answer-generator.js";
import type { ModelProviderNetwork } from "./model-provider-network.js";
import { withFallback } from "./with-fallback.js";
import { workspaceLanguageModel, workspaceModelId } from "./workspace-model.js";

/** What chooses an agent's generator: its workspace, its answer model and instructions. */
export interface AnsweringAgent {
  workspaceId: string;
  answerModel: string;
  instructions: AnswerInstructions;
}

/** The workspaces whose generators are kept (each holds at most a few models). */
const MAX_WORKSPACES = 1000;

interface WorkspaceGenerators {
  revision: string | null;
  provider: OpenedModelProvider | null;
  /** By model name. */
  models: Map<string, AnswerGenerator>;
}

/**
 * The generator of each agent's answers (issue 31): the workspace's provider and model (`default`),
 * another model of that provider (a name), the extractive answerer (`extractive`), or, when the
 * workspace sets no provider, the instance's generator (FRONTDESK_LLM_*). A workspace's generators
 * are kept per revision of its provider row: the caller passes the revision it read with the agent
 * (the same statement, no extra query), and a new revision (an edit in any process) builds them
 * again from the store; the key is unsealed then and kept in memory only. Workspace models stream
 * in this thread through the guarded network, and fall back to the extractive answer (logged) when
 * they fail, stay silent, or answer nothing, as the instance's do.
 */
export class AnswerModels {
  readonly extractive = new ExtractiveAnswerGenerator();
  private readonly workspaces = new LRUCache<string, WorkspaceGenerators>({ max: MAX_WORKSPACES });

  constructor(
    readonly keys: ModelProviderKeys,
    readonly network: ModelProviderNetwork,
    private readonly options: { timeoutMs: number; logger?: AnswerLogger | undefined },
  ) {}

  /**
   * The agent's generator. `instanceDefault` is the instance's generator (read by the caller, so a
   * test that swaps it is honoured); `revision` is the workspace provider's, as read with the agent.
   */
  async forAgent(db: Database, instanceDefault: AnswerGenerator, agent: AnsweringAgent, revision: string | null): Promise<AnswerGenerator> {
    if (agent.answerModel === "extractive") return this.extractive;
    if (revision === null) {
      this.workspaces.delete(agent.workspaceId);
      return instanceDefault;
    }
    let workspace = this.workspaces.get(agent.workspaceId);
    if (workspace === undefined || workspace.revision !== revision) {
      const provider = await openWorkspaceModelProvider(db, this.keys, agent.workspaceId);
      workspace = { revision: provider?.revision ?? null, provider, models: new Map() };
      this.workspaces.set(agent.workspaceId, workspace);
    }
    const { provider } = workspace;
    if (provider === null) return instanceDefault;
    const model = agent.answerModel === "default" ? provider.model : agent.answerModel;
    let generator = workspace.models.get(model);
    if (generator === undefined) {
      generator = this.modelGenerator({ ...provider, model });
      workspace.models.set(model, generator);
    }
    return generator;
  }

  private modelGenerator(settings: OpenedModelProvider): AnswerGenerator {
    const { timeoutMs, logger } = this.options;
    const primary = new ModelAnswerGenerator({
      id: workspaceModelId(settings),
      model: workspaceLanguageModel(settings, this.network.fetch),
      idleTimeoutMs: timeoutMs,
      ...(logger === undefined ? {} : { logger }),
    });
    return withFallback(primary, this.extractive, { firstTokenTimeoutMs: timeoutMs, ...(logger === undefined ? {} : { logger }) });
  }

  async close(): Promise<void> {
    this.workspaces.clear();
    await this.network.close();
  }
}
