import type { Services } from "../services.js";
import { deleteWorkspaceSource } from "./source-repository.js";

/**
 * Deletes a source of the workspace with its documents and chunks; the agent stops citing it at
 * once (this process's lexical statistics of the agent are dropped). Null: no such source.
 */
export async function deleteSource(services: Services, workspaceId: string, sourceId: string): Promise<{ agentId: string } | null> {
  const deleted = await deleteWorkspaceSource(services.db, workspaceId, sourceId);
  if (deleted) services.lexical.statistics.invalidate(deleted.agentId);
  return deleted;
}
