import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { AGENT_DEFAULTS, type Agent, type Vertical } from "./agent.js";
import { insertAgent } from "./agent-repository.js";
import { normalizeAllowedOrigins } from "./origin-policy.js";
import { findWorkspace } from "./workspace-repository.js";

export interface CreateAgentInput {
  workspaceId: string;
  name: string;
  origins: string[];
  vertical?: Vertical;
  draft?: boolean;
  personaName?: string;
  tone?: string;
  primaryColor?: string;
  starterPrompts?: string[];
  language?: string;
}

/** Creates an agent in a workspace, its allowed origins validated and normalised. */
export async function createAgent(db: Queryable, input: CreateAgentInput): Promise<Agent> {
  if (!(await findWorkspace(db, input.workspaceId))) throw new AppError("not_found", `No workspace ${input.workspaceId}.`);
  return insertAgent(db, {
    workspaceId: input.workspaceId,
    name: input.name,
    allowedOrigins: normalizeAllowedOrigins(input.origins),
    published: !input.draft,
    vertical: input.vertical ?? AGENT_DEFAULTS.vertical,
    personaName: input.personaName ?? input.name,
    personaTone: input.tone ?? AGENT_DEFAULTS.personaTone,
    primaryColor: input.primaryColor ?? AGENT_DEFAULTS.primaryColor,
    starterPrompts: input.starterPrompts ?? [],
    languageDefault: input.language ?? AGENT_DEFAULTS.languageDefault,
  });
}
