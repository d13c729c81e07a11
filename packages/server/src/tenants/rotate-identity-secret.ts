import type { Database } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import type { Agent } from "./agent.js";
import { setAgentIdentitySecret } from "./agent-repository.js";
import { generateIdentitySecret, type IdentitySecretBox } from "./identity-secret-box.js";

/**
 * Creates the agent's identity secret, or replaces it (rotation): the new one is stored sealed and
 * returned this once; every `user_hash` made with the previous one stops verifying at once in this
 * process (the caller announces `agent.changed`, which drops the cached agent) and within the
 * session cache's two seconds in the others. `workspaceId` scopes the agent (another workspace's is
 * `agent_not_found`); the CLI, which is trusted with every workspace, leaves it out.
 */
export async function rotateIdentitySecret(
  db: Database,
  box: IdentitySecretBox,
  input: { agentId: string; workspaceId?: string },
): Promise<{ agent: Agent; secret: string }> {
  const secret = generateIdentitySecret();
  const agent = await setAgentIdentitySecret(db, input.agentId, input.workspaceId ?? null, box.seal(secret, input.agentId));
  if (!agent) throw new AppError("agent_not_found", `No agent ${input.agentId}${input.workspaceId === undefined ? "" : " in this workspace"}.`);
  return { agent, secret };
}
