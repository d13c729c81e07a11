import type { ModelProvider } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";

/** A workspace's answer model provider as stored: the key sealed (auth/secret-box.ts, the workspace's id as associated data). */
export interface WorkspaceModelProviderRecord {
  workspaceId: string;
  provider: ModelProvider;
  baseUrl: string | null;
  model: string;
  apiKeySealed: string | null;
  apiKeyLast4: string | null;
  /** Changes on every write (a sequence): what a cached generator is checked against. */
  revision: string;
  updatedAt: string;
}

interface ProviderRow {
  workspace_id: string;
  provider: ModelProvider;
  base_url: string | null;
  model: string;
  api_key_sealed: string | null;
  api_key_last4: string | null;
  revision: string;
  updated_at: Date;
}

const toRecord = (row: ProviderRow): WorkspaceModelProviderRecord => ({
  workspaceId: row.workspace_id,
  provider: row.provider,
  baseUrl: row.base_url,
  model: row.model,
  apiKeySealed: row.api_key_sealed,
  apiKeyLast4: row.api_key_last4,
  revision: String(row.revision),
  updatedAt: iso(row.updated_at),
});

const COLUMNS = `workspace_id, provider, base_url, model, api_key_sealed, api_key_last4, revision::text AS revision, updated_at`;

/** By the primary key. `forUpdate`: the row stays locked until the transaction ends. */
export async function findWorkspaceModelProvider(db: Queryable, workspaceId: string, forUpdate = false): Promise<WorkspaceModelProviderRecord | null> {
  const { rows } = await db.query<ProviderRow>(
    `SELECT ${COLUMNS} FROM workspace_model_providers WHERE workspace_id = $1${forUpdate ? " FOR UPDATE" : ""}`,
    [workspaceId],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export interface ModelProviderWrite {
  provider: ModelProvider;
  baseUrl: string | null;
  model: string;
  apiKeySealed: string | null;
  apiKeyLast4: string | null;
}

/** Writes the workspace's provider, with a new revision. */
export async function upsertWorkspaceModelProvider(db: Queryable, workspaceId: string, write: ModelProviderWrite): Promise<WorkspaceModelProviderRecord> {
  const { rows } = await db.query<ProviderRow>(
    `INSERT INTO workspace_model_providers (workspace_id, provider, base_url, model, api_key_sealed, api_key_last4)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (workspace_id) DO UPDATE SET provider = EXCLUDED.provider, base_url = EXCLUDED.base_url, model = EXCLUDED.model,
       api_key_sealed = EXCLUDED.api_key_sealed, api_key_last4 = EXCLUDED.api_key_last4,
       revision = nextval('workspace_model_provider_revisions'), updated_at = now()
     RETURNING ${COLUMNS}`,
    [workspaceId, write.provider, write.baseUrl, write.model, write.apiKeySealed, write.apiKeyLast4],
  );
  return toRecord(rows[0]!);
}

/** The removed row, or null when the workspace had none. */
export async function deleteWorkspaceModelProvider(db: Queryable, workspaceId: string): Promise<WorkspaceModelProviderRecord | null> {
  const { rows } = await db.query<ProviderRow>(`DELETE FROM workspace_model_providers WHERE workspace_id = $1 RETURNING ${COLUMNS}`, [workspaceId]);
  return rows[0] ? toRecord(rows[0]) : null;
}
