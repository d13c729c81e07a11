import type { Config } from "../../config/config.js";
import { resolveJwtSecret } from "../../config/jwt-secret.js";
import type { HostResolver } from "../../network/guarded-agent.js";
import { modelProviderKeys } from "../../tenants/workspace-model-providers.js";
import type { AnswerLogger } from "./answer-generator.js";
import { AnswerModels } from "./answer-models.js";
import { DEFAULT_ANSWER_TIMEOUT_SECONDS } from "./model-generator-settings.js";
import { ModelProviderNetwork } from "./model-provider-network.js";

/**
 * Workspaces' answer models from the configuration: keys sealed under the service's secret (every
 * process of a deployment shares it), the address guard as FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS
 * says, and the instance's answer timeout (FRONTDESK_LLM_TIMEOUT_S). `resolve` replaces DNS (tests).
 */
export function createAnswerModels(config: Config, serviceSecret: string, options: { logger?: AnswerLogger; resolve?: HostResolver } = {}): AnswerModels {
  const timeoutMs = Math.round((config.answers.timeoutSeconds ?? DEFAULT_ANSWER_TIMEOUT_SECONDS) * 1000);
  const network = new ModelProviderNetwork(config.models.allowPrivateNetworks, timeoutMs, options.resolve);
  return new AnswerModels(modelProviderKeys(serviceSecret), network, { timeoutMs, logger: options.logger });
}

/** What `workspace set-model` needs (the admin CLI, alone or over the admin socket): the key seal and the address guard. */
export interface ModelProviderAccess {
  keys: AnswerModels["keys"];
  refuseAddress: (url: string) => Promise<string | null>;
  close(): Promise<void>;
}

/** Built from the configuration: the seal's key comes from the service's secret, which every process shares. */
export async function openModelProviderAccess(config: Config): Promise<ModelProviderAccess> {
  const models = createAnswerModels(config, await resolveJwtSecret(config.auth.jwtSecret, config.dataDir));
  return { keys: models.keys, refuseAddress: (url) => models.network.refusal(url), close: () => models.close() };
}
