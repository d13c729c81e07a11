import type { Database } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { AGENT_DEFAULTS, type Agent, type Vertical } from "./agent.js";
import { findAgentForUpdate, updateAgentSettings } from "./agent-repository.js";
import { normalizeAllowedOrigins } from "./origin-policy.js";

/**
 * A change to an agent's settings. An absent field is left as it is; `null` clears an optional
 * setting back to what `agent create` gives when it is not set (persona name: the agent's name;
 * tone: friendly; primary colour: #2563eb; language: en); `starterPrompts: []` removes them all.
 * `origins` replaces the whole list.
 */
export interface UpdateAgentInput {
  agentId: string;
  name?: string;
  origins?: string[];
  vertical?: Vertical;
  personaName?: string | null;
  tone?: string | null;
  primaryColor?: string | null;
  starterPrompts?: string[];
  language?: string | null;
}

/** Changes an agent's settings in one transaction (its row locked while read and written). */
export async function updateAgent(db: Database, input: UpdateAgentInput): Promise<Agent> {
  const allowedOrigins = input.origins === undefined ? undefined : normalizeAllowedOrigins(input.origins);
  return db.transaction(async (tx) => {
    const agent = await findAgentForUpdate(tx, input.agentId);
    if (!agent) throw new AppError("not_found", `No agent ${input.agentId}.`);
    const name = input.name ?? agent.name;
    return updateAgentSettings(tx, agent.id, {
      name,
      allowedOrigins: allowedOrigins ?? agent.allowedOrigins,
      vertical: input.vertical ?? agent.vertical,
      personaName: input.personaName === null ? name : (input.personaName ?? agent.personaName),
      personaTone: input.tone === null ? AGENT_DEFAULTS.personaTone : (input.tone ?? agent.personaTone),
      primaryColor: input.primaryColor === null ? AGENT_DEFAULTS.primaryColor : (input.primaryColor ?? agent.theme.primary),
      starterPrompts: input.starterPrompts ?? agent.starterPrompts,
      languageDefault: input.language === null ? AGENT_DEFAULTS.languageDefault : (input.language ?? agent.languageDefault),
    });
  });
}
