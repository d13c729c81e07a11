import type { Queryable } from "../../db/database.js";
import { iso, isoOrNull } from "../../db/timestamps.js";

export type EmbeddingsProvider = "default" | "hashing" | "local" | "openai-compatible";
export type GenerationState = "reembedding" | "failed" | "active";

/** One choice of embedder for a workspace and the state of its vectors (migration 0039). */
export interface GenerationRecord {
  id: string;
  workspaceId: string;
  provider: EmbeddingsProvider;
  baseUrl: string | null;
  model: string | null;
  dimensions: number | null;
  apiKeyCiphertext: string | null;
  embedderId: string;
  state: GenerationState;
  done: number;
  total: number;
  error: { code: string; message: string } | null;
  createdAt: string;
  updatedAt: string;
  activatedAt: string | null;
}

interface GenerationRow {
  id: string;
  workspace_id: string;
  provider: EmbeddingsProvider;
  base_url: string | null;
  model: string | null;
  dimensions: number | null;
  api_key_ciphertext: string | null;
  embedder_id: string;
  state: GenerationState;
  done: number;
  total: number;
  error: { code: string; message: string } | null;
  created_at: Date;
  updated_at: Date;
  activated_at: Date | null;
}

const COLUMNS = `id, workspace_id, provider, base_url, model, dimensions, api_key_ciphertext, embedder_id, state, done, total, error, created_at, updated_at, activated_at`;

const recordOf = (row: GenerationRow): GenerationRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  provider: row.provider,
  baseUrl: row.base_url,
  model: row.model,
  dimensions: row.dimensions,
  apiKeyCiphertext: row.api_key_ciphertext,
  embedderId: row.embedder_id,
  state: row.state,
  done: row.done,
  total: row.total,
  error: row.error,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  activatedAt: isoOrNull(row.activated_at),
});

/** The workspace's active generation (none: the instance's default) and the one being built, if any. */
export interface WorkspaceGenerations {
  active: GenerationRecord | null;
  pending: GenerationRecord | null;
}

/**
 * Serialises, per workspace, what changes its generations (a change, a batch, the switch, a retry)
 * until the transaction ends; a workspace with no row yet is covered too.
 */
export async function lockWorkspaceGenerations(tx: Queryable, workspaceId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('embedding-generations:' || $1))`, [workspaceId]);
}

/** Both of a workspace's generations (`embedding_generations_workspace_idx`). */
export async function findWorkspaceGenerations(db: Queryable, workspaceId: string): Promise<WorkspaceGenerations> {
  const { rows } = await db.query<GenerationRow>(
    `SELECT ${COLUMNS} FROM embedding_generations WHERE workspace_id = $1 ORDER BY created_at`,
    [workspaceId],
  );
  const records = rows.map(recordOf);
  return { active: records.find((record) => record.state === "active") ?? null, pending: records.find((record) => record.state !== "active") ?? null };
}

/** One generation of the workspace by id. */
export async function findGeneration(db: Queryable, workspaceId: string, generationId: string): Promise<GenerationRecord | null> {
  const { rows } = await db.query<GenerationRow>(
    `SELECT ${COLUMNS} FROM embedding_generations WHERE id = $1 AND workspace_id = $2`,
    [generationId, workspaceId],
  );
  return rows[0] ? recordOf(rows[0]) : null;
}

export async function insertGeneration(
  tx: Queryable,
  record: Pick<GenerationRecord, "id" | "workspaceId" | "provider" | "baseUrl" | "model" | "dimensions" | "apiKeyCiphertext" | "embedderId" | "state" | "total">,
): Promise<void> {
  await tx.query(
    `INSERT INTO embedding_generations (id, workspace_id, provider, base_url, model, dimensions, api_key_ciphertext, embedder_id, state, total, activated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $9 = 'active' THEN now() END)`,
    [record.id, record.workspaceId, record.provider, record.baseUrl, record.model, record.dimensions, record.apiKeyCiphertext, record.embedderId, record.state, record.total],
  );
}

export async function deleteGeneration(tx: Queryable, workspaceId: string, generationId: string): Promise<void> {
  await tx.query(`DELETE FROM embedding_generations WHERE id = $1 AND workspace_id = $2`, [generationId, workspaceId]);
}

/** Counts chunks copied by a batch (`total` grows when documents added meanwhile made it too small). */
export async function addGenerationProgress(tx: Queryable, workspaceId: string, generationId: string, copied: number): Promise<void> {
  await tx.query(
    `UPDATE embedding_generations SET done = done + $3, total = greatest(total, done + $3), updated_at = now() WHERE id = $1 AND workspace_id = $2`,
    [generationId, workspaceId, copied],
  );
}

/** The provider failed: the old vectors keep answering, the error is shown until a retry or a new choice. */
export async function markGenerationFailed(db: Queryable, workspaceId: string, generationId: string, error: { code: string; message: string }): Promise<void> {
  await db.query(
    `UPDATE embedding_generations SET state = 'failed', error = $3::jsonb, updated_at = now() WHERE id = $1 AND workspace_id = $2 AND state = 'reembedding'`,
    [generationId, workspaceId, JSON.stringify(error)],
  );
}

/** A failed generation starts again where it stopped. */
export async function restartGeneration(tx: Queryable, workspaceId: string, generationId: string): Promise<void> {
  await tx.query(
    `UPDATE embedding_generations SET state = 'reembedding', error = NULL, updated_at = now() WHERE id = $1 AND workspace_id = $2 AND state = 'failed'`,
    [generationId, workspaceId],
  );
}

/**
 * The pending generation becomes the one answers use, in the caller's transaction: the old active
 * row goes; a change back to the instance's default leaves no row at all.
 */
export async function activateGeneration(tx: Queryable, workspaceId: string, generationId: string): Promise<void> {
  await tx.query(`DELETE FROM embedding_generations WHERE workspace_id = $1 AND state = 'active'`, [workspaceId]);
  await tx.query(
    `UPDATE embedding_generations SET state = 'active', done = greatest(done, total), total = greatest(done, total), error = NULL, activated_at = now(), updated_at = now()
     WHERE id = $1 AND workspace_id = $2`,
    [generationId, workspaceId],
  );
  await tx.query(`DELETE FROM embedding_generations WHERE id = $1 AND workspace_id = $2 AND provider = 'default'`, [generationId, workspaceId]);
}
