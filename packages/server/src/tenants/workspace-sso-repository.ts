import type { Queryable } from "../db/database.js";
import type { OperatorRole } from "./operator-repository.js";

/** A workspace's OpenID provider for its operators' sign-in (the client secret still sealed). */
export interface WorkspaceSso {
  workspaceId: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecretSealed: string | null;
  allowedDomains: string[];
  defaultRole: OperatorRole;
  passwordSignIn: boolean;
  updatedAt: Date;
}

interface SsoRow {
  workspace_id: string;
  display_name: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string | null;
  allowed_domains: string[];
  default_role: OperatorRole;
  password_sign_in: boolean;
  updated_at: Date;
}

const toSso = (row: SsoRow): WorkspaceSso => ({
  workspaceId: row.workspace_id,
  displayName: row.display_name,
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecretSealed: row.client_secret_sealed,
  allowedDomains: row.allowed_domains,
  defaultRole: row.default_role,
  passwordSignIn: row.password_sign_in,
  updatedAt: new Date(row.updated_at),
});

/** A Postgres array literal of text values (the driver takes no JS arrays): each quoted, `"` and `\` escaped. */
const textArray = (values: readonly string[]): string => `{${values.map((value) => `"${value.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;

export async function findWorkspaceSso(db: Queryable, workspaceId: string): Promise<WorkspaceSso | null> {
  const { rows } = await db.query<SsoRow>(`SELECT * FROM workspace_sso WHERE workspace_id = $1`, [workspaceId]);
  return rows[0] ? toSso(rows[0]) : null;
}

/** The provider that signs in operators of this e-mail domain (lower case), if a workspace has one (index workspace_sso_domains_idx). */
export async function findSsoOfDomain(db: Queryable, domain: string): Promise<WorkspaceSso | null> {
  const { rows } = await db.query<SsoRow>(`SELECT * FROM workspace_sso WHERE allowed_domains @> ARRAY[$1::text] ORDER BY workspace_id LIMIT 1`, [domain]);
  return rows[0] ? toSso(rows[0]) : null;
}

/** Which of these domains another workspace's provider already signs in (a domain has one provider). */
export async function domainsTakenElsewhere(db: Queryable, workspaceId: string, domains: string[]): Promise<string[]> {
  const { rows } = await db.query<{ domain: string }>(
    `SELECT DISTINCT d AS domain FROM workspace_sso, unnest(allowed_domains) AS d WHERE allowed_domains && $2::text[] AND workspace_id <> $1 AND d = ANY($2::text[])`,
    [workspaceId, textArray(domains)],
  );
  return rows.map((row) => row.domain);
}

export interface SsoSettings {
  displayName: string;
  issuer: string;
  clientId: string;
  /** Undefined: keep the stored one. Null: none (a public client). */
  clientSecretSealed: string | null | undefined;
  allowedDomains: string[];
  defaultRole: OperatorRole;
  passwordSignIn: boolean;
}

export async function upsertWorkspaceSso(db: Queryable, workspaceId: string, settings: SsoSettings, now: Date): Promise<WorkspaceSso> {
  const keepSecret = settings.clientSecretSealed === undefined;
  const { rows } = await db.query<SsoRow>(
    `INSERT INTO workspace_sso (workspace_id, display_name, issuer, client_id, client_secret_sealed, allowed_domains, default_role, password_sign_in, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9)
     ON CONFLICT (workspace_id) DO UPDATE SET display_name = $2, issuer = $3, client_id = $4,
       client_secret_sealed = CASE WHEN $10::boolean THEN workspace_sso.client_secret_sealed ELSE $5 END,
       allowed_domains = $6::text[], default_role = $7, password_sign_in = $8, updated_at = $9
     RETURNING *`,
    [workspaceId, settings.displayName, settings.issuer, settings.clientId, settings.clientSecretSealed ?? null, textArray(settings.allowedDomains), settings.defaultRole, settings.passwordSignIn, now, keepSecret],
  );
  return toSso(rows[0]!);
}

export async function deleteWorkspaceSso(db: Queryable, workspaceId: string): Promise<boolean> {
  const { rows } = await db.query(`DELETE FROM workspace_sso WHERE workspace_id = $1 RETURNING workspace_id`, [workspaceId]);
  return rows.length > 0;
}

/** Whether operators of the workspace may sign in with a password (true without a provider). */
export async function passwordSignInAllowed(db: Queryable, workspaceId: string): Promise<boolean> {
  const { rows } = await db.query<{ password_sign_in: boolean }>(`SELECT password_sign_in FROM workspace_sso WHERE workspace_id = $1`, [workspaceId]);
  return rows[0]?.password_sign_in ?? true;
}
