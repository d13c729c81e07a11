import type { Services } from "../services.js";
import { deleteWorkspaceSource } from "./source-repository.js";

/**
 * Deletes a source of the workspace with its documents and chunks; the agent stops citing it at
 * once (this process's lexical statistics of the agent are dropped). False: no such source.
 */
export async function deleteSource(services: Services, workspaceId: string, sourceId: string): Promise<boolean> {
  const deleted = await deleteWorkspaceSource(services.db, workspaceId, sourceId);
  if (!deleted) return false;
  services.lexical.statistics.invalidate(deleted.agentId);
  return true;
}
