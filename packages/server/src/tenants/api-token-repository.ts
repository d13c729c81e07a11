import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso, isoOrNull } from "../db/timestamps.js";

export interface ApiToken {
  id: string;
  workspaceId: string;
  name: string;
  /** The first characters of the plaintext, to recognise a token in the console. */
  prefix: string;
  abilities: string[];
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

interface ApiTokenRow {
  id: string;
  workspace_id: string;
  name: string;
  token_prefix: string;
  abilities: string[];
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  prefix: row.token_prefix,
  abilities: row.abilities,
  lastUsedAt: isoOrNull(row.last_used_at),
  revokedAt: isoOrNull(row.revoked_at),
  createdAt: iso(row.created_at),
});

const COLUMNS = "id, workspace_id, name, token_prefix, abilities, last_used_at, revoked_at, created_at";

export async function insertApiToken(
  db: Queryable,
  token: { workspaceId: string; name: string; tokenHash: string; prefix: string; abilities: string[] },
): Promise<ApiToken> {
  const { rows } = await db.query<ApiTokenRow>(
    `INSERT INTO api_tokens (id, workspace_id, name, token_hash, token_prefix, abilities)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING ${COLUMNS}`,
    [newId("tok"), token.workspaceId, token.name, token.tokenHash, token.prefix, JSON.stringify(token.abilities)],
  );
  return toApiToken(rows[0]!);
}

/** Revokes the token (idempotent: the first revocation time is kept); null when unknown. */
export async function revokeApiToken(db: Queryable, tokenId: string): Promise<ApiToken | null> {
  const { rows } = await db.query<ApiTokenRow>(
    `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
    [tokenId],
  );
  return rows[0] ? toApiToken(rows[0]) : null;
}

/** The workspace's tokens, revoked ones included, in creation order; never the hash (index api_tokens_workspace_created_idx). */
export async function listWorkspaceApiTokens(db: Queryable, workspaceId: string): Promise<ApiToken[]> {
  const { rows } = await db.query<ApiTokenRow>(
    `SELECT ${COLUMNS} FROM api_tokens WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows.map(toApiToken);
}

/**
 * The live token with this hash, stamping when it was last used (at most once a minute, so a
 * busy integration does not write on every call). Read from the store on every call: a revoked
 * token fails at once in every process.
 */
export async function useApiToken(db: Queryable, tokenHash: string): Promise<ApiToken | null> {
  const { rows } = await db.query<ApiTokenRow>(
    `SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
    [tokenHash],
  );
  const token = rows[0];
  if (!token) return null;
  if (!token.last_used_at || Date.now() - new Date(token.last_used_at).getTime() > 60_000) {
    await db.query(`UPDATE api_tokens SET last_used_at = now() WHERE id = $1`, [token.id]);
  }
  return toApiToken(token);
}
