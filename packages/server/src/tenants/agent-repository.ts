import { DEFAULT_ANSWER_INSTRUCTIONS, type AgentRouting, type AnswerInstructions, type BehaviorRule, type IdentityMode, type OfficeHours, type ReplyTime } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";
import { AGENT_DEFAULTS, type Agent, type Vertical } from "./agent.js";

interface AgentRow {
  id: string;
  workspace_id: string;
  name: string;
  published: boolean;
  vertical: Vertical;
  allowed_origins: string[];
  persona_name: string;
  persona_tone: string;
  theme: { primary?: string };
  starter_prompts: string[];
  language_default: string;
  branding: Agent["branding"];
  behavior_rules: BehaviorRule[];
  office_hours: OfficeHours | null;
  away_message: string | null;
  reply_time: ReplyTime | null;
  answer_model: string;
  instructions: Partial<AnswerInstructions>;
  identity_mode: IdentityMode;
  identity_secret_sealed: string | null;
  identity_secret_created_at: Date | null;
  routing: AgentRouting["mode"];
  routing_team: string[];
  created_at: Date;
  updated_at: Date;
}

function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    published: row.published,
    vertical: row.vertical,
    allowedOrigins: row.allowed_origins,
    personaName: row.persona_name,
    personaTone: row.persona_tone,
    theme: { primary: row.theme.primary ?? AGENT_DEFAULTS.primaryColor },
    starterPrompts: row.starter_prompts,
    languageDefault: row.language_default,
    branding: row.branding,
    behaviorRules: row.behavior_rules,
    officeHours: row.office_hours,
    awayMessage: row.away_message,
    replyTime: row.reply_time,
    answerModel: row.answer_model,
    instructions: { ...DEFAULT_ANSWER_INSTRUCTIONS, ...row.instructions },
    identityMode: row.identity_mode,
    identitySecretSealed: row.identity_secret_sealed,
    identitySecretCreatedAt: row.identity_secret_created_at ? iso(row.identity_secret_created_at) : null,
    routing: { mode: row.routing, team: row.routing_team },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** What an operator sets on an agent (at creation, or with `agent update`). */
export interface AgentSettings {
  name: string;
  allowedOrigins: string[];
  vertical: Vertical;
  personaName: string;
  personaTone: string;
  primaryColor: string;
  starterPrompts: string[];
  languageDefault: string;
}

export interface NewAgent extends AgentSettings {
  workspaceId: string;
  published: boolean;
}

export async function insertAgent(db: Queryable, agent: NewAgent): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(
    `INSERT INTO agents (id, workspace_id, name, published, vertical, allowed_origins, persona_name, persona_tone,
       theme, starter_prompts, language_default)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb, $10::jsonb, $11)
     RETURNING *`,
    [
      newId("agt"),
      agent.workspaceId,
      agent.name,
      agent.published,
      agent.vertical,
      JSON.stringify(agent.allowedOrigins),
      agent.personaName,
      agent.personaTone,
      JSON.stringify({ primary: agent.primaryColor }),
      JSON.stringify(agent.starterPrompts),
      agent.languageDefault,
    ],
  );
  return toAgent(rows[0]!);
}

/**
 * The agent with its workspace's monthly conversation quota (init needs both) and the revision of
 * its workspace's model provider (null: none; a question's generator is chosen by it): one round trip.
 */
export async function findAgentWithQuota(
  db: Queryable,
  agentId: string,
): Promise<{ agent: Agent; conversationQuota: number | null; modelProviderRevision: string | null } | null> {
  const { rows } = await db.query<AgentRow & { conversation_quota: number | null; model_provider_revision: string | null }>(
    `SELECT a.*, w.conversation_quota, p.revision::text AS model_provider_revision
     FROM agents a JOIN workspaces w ON w.id = a.workspace_id LEFT JOIN workspace_model_providers p ON p.workspace_id = a.workspace_id
     WHERE a.id = $1`,
    [agentId],
  );
  const row = rows[0];
  return row ? { agent: toAgent(row), conversationQuota: row.conversation_quota, modelProviderRevision: row.model_provider_revision } : null;
}

export async function findAgent(db: Queryable, agentId: string): Promise<Agent | null> {
  const { rows } = await db.query<AgentRow>(`SELECT * FROM agents WHERE id = $1`, [agentId]);
  return rows[0] ? toAgent(rows[0]) : null;
}

/** The agent, only when it belongs to `workspaceId`. */
export async function findWorkspaceAgent(db: Queryable, workspaceId: string, agentId: string): Promise<Agent | null> {
  const { rows } = await db.query<AgentRow>(`SELECT * FROM agents WHERE id = $1 AND workspace_id = $2`, [agentId, workspaceId]);
  return rows[0] ? toAgent(rows[0]) : null;
}

export async function setAgentPublished(db: Queryable, agentId: string, published: boolean): Promise<Agent | null> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET published = $2, updated_at = now() WHERE id = $1 RETURNING *`,
    [agentId, published],
  );
  return rows[0] ? toAgent(rows[0]) : null;
}

/** The workspace's agents in creation order (index agents_workspace_created_idx). */
export async function listWorkspaceAgents(db: Queryable, workspaceId: string): Promise<Agent[]> {
  const { rows } = await db.query<AgentRow>(`SELECT * FROM agents WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
  return rows.map(toAgent);
}

/** The agent, its row locked until the transaction ends (so two updates never lose each other's change). */
export async function findAgentForUpdate(tx: Queryable, agentId: string): Promise<Agent | null> {
  const { rows } = await tx.query<AgentRow>(`SELECT * FROM agents WHERE id = $1 FOR UPDATE`, [agentId]);
  return rows[0] ? toAgent(rows[0]) : null;
}

/** Replaces an agent's proactive rules (validated by the caller). */
export async function setAgentBehaviorRules(db: Queryable, agentId: string, rules: BehaviorRule[]): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(`UPDATE agents SET behavior_rules = $2::jsonb, updated_at = now() WHERE id = $1 RETURNING *`, [agentId, JSON.stringify(rules)]);
  return toAgent(rows[0]!);
}

/** Replaces what the agent overrides of the service's branding (`{}`: nothing). */
export async function setAgentBranding(db: Queryable, agentId: string, branding: Agent["branding"]): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(`UPDATE agents SET branding = $2::jsonb, updated_at = now() WHERE id = $1 RETURNING *`, [agentId, JSON.stringify(branding)]);
  return toAgent(rows[0]!);
}

/** When a person may answer: the office hours (null: always), the away message and the usual reply time. */
export interface AgentAvailabilitySettings {
  officeHours: OfficeHours | null;
  awayMessage: string | null;
  replyTime: ReplyTime | null;
}

export async function setAgentAvailability(db: Queryable, agentId: string, settings: AgentAvailabilitySettings): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET office_hours = $2::jsonb, away_message = $3, reply_time = $4, updated_at = now() WHERE id = $1 RETURNING *`,
    [agentId, settings.officeHours === null ? null : JSON.stringify(settings.officeHours), settings.awayMessage, settings.replyTime],
  );
  return toAgent(rows[0]!);
}

/** How the agent answers: its model (`default`, `extractive` or a name) and its instructions. */
export async function setAgentAnswering(db: Queryable, agentId: string, answerModel: string, instructions: AnswerInstructions): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET answer_model = $2, instructions = $3::jsonb, updated_at = now() WHERE id = $1 RETURNING *`,
    [agentId, answerModel, JSON.stringify(instructions)],
  );
  return toAgent(rows[0]!);
}

/** Sets how init treats visitors' identities: `off`, `optional` or `required`. */
export async function setAgentIdentityMode(db: Queryable, agentId: string, mode: IdentityMode): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(`UPDATE agents SET identity_mode = $2, updated_at = now() WHERE id = $1 RETURNING *`, [agentId, mode]);
  return toAgent(rows[0]!);
}

/** Replaces the agent's identity secret (sealed by the caller): every hash made with the previous one stops verifying. */
export async function setAgentIdentitySecret(db: Queryable, agentId: string, workspaceId: string | null, sealed: string): Promise<Agent | null> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET identity_secret_sealed = $3, identity_secret_created_at = now(), updated_at = now()
     WHERE id = $1 AND ($2::text IS NULL OR workspace_id = $2::text) RETURNING *`,
    [agentId, workspaceId, sealed],
  );
  return rows[0] ? toAgent(rows[0]) : null;
}

/** How new human requests find an operator (the turn's pointer is left as it is). */
export async function setAgentRouting(db: Queryable, agentId: string, routing: AgentRouting): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET routing = $2, routing_team = $3::jsonb, updated_at = now() WHERE id = $1 RETURNING *`,
    [agentId, routing.mode, JSON.stringify(routing.team)],
  );
  return toAgent(rows[0]!);
}

/** Writes every setting of an existing agent (other theme keys are kept). */
export async function updateAgentSettings(db: Queryable, agentId: string, settings: AgentSettings): Promise<Agent> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET name = $2, allowed_origins = $3::jsonb, vertical = $4, persona_name = $5, persona_tone = $6,
       theme = theme || jsonb_build_object('primary', $7::text), starter_prompts = $8::jsonb, language_default = $9, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      agentId,
      settings.name,
      JSON.stringify(settings.allowedOrigins),
      settings.vertical,
      settings.personaName,
      settings.personaTone,
      settings.primaryColor,
      JSON.stringify(settings.starterPrompts),
      settings.languageDefault,
    ],
  );
  return toAgent(rows[0]!);
}

/**
 * Marks the agent's vectors as meant for the HNSW index (`vectors_indexed_at`, migration 0022) once
 * it has at least `minChunks` 384-dimension chunks outside it, counted in the same statement.
 * `indexed`: they are (now) meant to be; `promoted`: this call passed the threshold. An agent with
 * an index of its own (claimOwnVectorIndex) is never promoted.
 */
export async function promoteAgentToVectorIndex(db: Queryable, agentId: string, minChunks: number): Promise<{ indexed: boolean; promoted: boolean }> {
  const { rows } = await db.query<{ indexed: boolean; promoted: boolean }>(
    `WITH agent AS (
       SELECT id, vectors_indexed_at IS NOT NULL AS indexed FROM agents WHERE id = $1
     ), promoted AS (
       UPDATE agents SET vectors_indexed_at = now()
       WHERE id = (SELECT id FROM agent WHERE NOT indexed) AND own_vector_index IS NULL
         AND (SELECT count(*) FROM (SELECT 1 FROM chunks WHERE agent_id = $1 AND dimensions = 384 AND NOT vector_indexed LIMIT $2) outside) >= $2
       RETURNING id
     )
     SELECT (SELECT indexed FROM agent) OR EXISTS (SELECT 1 FROM promoted) AS indexed, EXISTS (SELECT 1 FROM promoted) AS promoted`,
    [agentId, Math.max(0, minChunks)],
  );
  return rows[0] ?? { indexed: false, promoted: false };
}

/**
 * Claims for the agent an HNSW index of its own named `name` (migration 0051), unless its vectors
 * are in the shared index already. True when the agent's own index is `name` (claimed now or before).
 */
export async function claimOwnVectorIndex(db: Queryable, agentId: string, name: string): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE agents SET own_vector_index = $2
     WHERE id = $1 AND vectors_indexed_at IS NULL AND (own_vector_index IS NULL OR own_vector_index = $2)
     RETURNING 1`,
    [agentId, name],
  );
  return rows.length > 0;
}

/**
 * Where the agent's vectors are indexed: `shared`, in the shared HNSW index (migration 0022);
 * `own`, the name of its own index (migration 0051); neither while it is small.
 */
export async function findVectorIndexOf(db: Queryable, agentId: string): Promise<{ shared: boolean; own: string | null }> {
  const { rows } = await db.query<{ shared: boolean; own: string | null }>(`SELECT vectors_indexed_at IS NOT NULL AS shared, own_vector_index AS own FROM agents WHERE id = $1`, [agentId]);
  return rows[0] ?? { shared: false, own: null };
}

/** The agents with an HNSW index of their own: the workers check each is built when they start. */
export async function listAgentsWithOwnVectorIndex(db: Queryable): Promise<{ agentId: string; name: string }[]> {
  const { rows } = await db.query<{ id: string; own_vector_index: string }>(`SELECT id, own_vector_index FROM agents WHERE own_vector_index IS NOT NULL ORDER BY id`);
  return rows.map((row) => ({ agentId: row.id, name: row.own_vector_index }));
}
