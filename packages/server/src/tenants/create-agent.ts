import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import type { Agent, Vertical } from "./agent.js";
import { DEFAULT_PRIMARY_COLOR, insertAgent } from "./agent-repository.js";
import { normalizeAllowedOrigin } from "./origin-policy.js";
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
  const origins: string[] = [];
  const invalid: string[] = [];
  for (const entry of input.origins) {
    const normalized = normalizeAllowedOrigin(entry);
    if (normalized) origins.push(normalized);
    else invalid.push(entry);
  }
  if (invalid.length > 0) {
    throw new AppError("validation_failed", `Not an origin: ${invalid.join(", ")}. Use https://example.com or https://*.example.com.`, {
      origin: invalid.map((entry) => `'${entry}' is not an origin`),
    });
  }
  return insertAgent(db, {
    workspaceId: input.workspaceId,
    name: input.name,
    allowedOrigins: [...new Set(origins)],
    published: !input.draft,
    vertical: input.vertical ?? "general",
    personaName: input.personaName ?? input.name,
    personaTone: input.tone ?? "friendly",
    primaryColor: input.primaryColor ?? DEFAULT_PRIMARY_COLOR,
    starterPrompts: input.starterPrompts ?? [],
    languageDefault: input.language ?? "en",
  });
}
