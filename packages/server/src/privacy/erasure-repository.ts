import type { ErasureCounts, ErasureRequester } from "@frontdesk/contracts";
import type { Queryable, SqlValue } from "../db/database.js";
import { newId } from "../db/ids.js";
import { textArray } from "../db/text-array.js";
import { forgetVisitorQuestions } from "../console/curated/forget-visitor-questions.js";
import { forgetWebhookEventsAbout } from "../webhooks/forget-webhook-events.js";

/**
 * The SQL of erasure and retention. Every statement names the workspace and, where the table has
 * one, the agent, and reaches its rows through an index: conversations by visitor
 * (conversations_visitor_recent_idx) or by workspace and activity (conversations_workspace_activity_idx),
 * messages, notifications and reads by conversation, events and leads by visitor or conversation
 * (migration 0015 adds the missing ones).
 */

/** A visitor of one of the workspace's agents. */
export interface VisitorOfWorkspace {
  id: string;
  agentId: string;
  workspaceId: string;
}

/** A conversation that no longer exists (announced to consoles after the commit). */
export interface DeletedConversation {
  id: string;
  workspaceId: string;
  agentId: string;
}

export const NO_ERASURE: ErasureCounts = {
  visitors: 0,
  conversations: 0,
  messages: 0,
  leads: 0,
  events: 0,
  satisfaction_ratings: 0,
  coupons: 0,
  notifications: 0,
};

export const addCounts = (a: ErasureCounts, b: ErasureCounts): ErasureCounts => ({
  visitors: a.visitors + b.visitors,
  conversations: a.conversations + b.conversations,
  messages: a.messages + b.messages,
  leads: a.leads + b.leads,
  events: a.events + b.events,
  satisfaction_ratings: a.satisfaction_ratings + b.satisfaction_ratings,
  coupons: a.coupons + b.coupons,
  notifications: a.notifications + b.notifications,
});

async function countOf(db: Queryable, sql: string, params: readonly SqlValue[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`WITH removed AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM removed`, params);
  return rows[0]?.n ?? 0;
}

/**
 * The visitor `visitorId` when one of the workspace's agents has it (and it is `agentId`'s when
 * given), its row locked until the transaction ends: a concurrent erasure waits, then finds nothing.
 */
export async function lockVisitorOfWorkspace(tx: Queryable, workspaceId: string, visitorId: string, agentId?: string): Promise<VisitorOfWorkspace | null> {
  const { rows } = await tx.query<{ id: string; agent_id: string; workspace_id: string }>(
    `SELECT v.id, v.agent_id, a.workspace_id FROM visitors v JOIN agents a ON a.id = v.agent_id
     WHERE v.id = $1 AND a.workspace_id = $2 AND ($3::text IS NULL OR v.agent_id = $3::text)
     FOR UPDATE OF v`,
    [visitorId, workspaceId, agentId ?? null],
  );
  const row = rows[0];
  return row ? { id: row.id, agentId: row.agent_id, workspaceId: row.workspace_id } : null;
}

/** The workspace and agent of a visitor the session token names (the token's agent must be the visitor's). */
export async function findVisitorWorkspace(db: Queryable, visitorId: string, agentId: string): Promise<string | null> {
  const { rows } = await db.query<{ workspace_id: string }>(
    `SELECT a.workspace_id FROM visitors v JOIN agents a ON a.id = v.agent_id WHERE v.id = $1 AND v.agent_id = $2`,
    [visitorId, agentId],
  );
  return rows[0]?.workspace_id ?? null;
}

/** The visitor's conversations with the agent, as a subquery of $1 workspace, $2 agent, $3 visitor. */
const VISITOR_CONVERSATIONS = `SELECT c.id FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3`;

/**
 * Deletes everything of one visitor with one agent: their conversations with all they hold (messages,
 * inbox notifications, operators' read marks, satisfaction, coupon, pages, browser), their widget
 * events, their leads, the visitor, the webhook events about them (and what receivers answered to
 * them), and curated questions that are still their words. Runs in the caller's transaction, after
 * lockVisitorOfWorkspace. `webhookAttemptsUnderWay`: to wait for after the commit (waitForAttemptsToStop).
 */
export async function deleteVisitorData(
  tx: Queryable,
  visitor: VisitorOfWorkspace,
): Promise<{ counts: ErasureCounts; conversations: DeletedConversation[]; webhookAttemptsUnderWay: string[] }> {
  const scope = [visitor.workspaceId, visitor.agentId, visitor.id];
  const { rows: locked } = await tx.query<{ id: string }>(`${VISITOR_CONVERSATIONS} ORDER BY c.id FOR UPDATE`, scope);
  const webhookAttemptsUnderWay = await forgetWebhookEventsAbout(tx, visitor.workspaceId, { visitorIds: [visitor.id], conversationIds: locked.map((row) => row.id) });
  const { rows: asked } = await tx.query<{ content: string }>(
    `SELECT m.content FROM messages m WHERE m.role = 'visitor' AND m.conversation_id IN (${VISITOR_CONVERSATIONS})`,
    scope,
  );
  await forgetVisitorQuestions(tx, { workspaceId: visitor.workspaceId, agentId: visitor.agentId, questions: asked.map((row) => row.content) });
  const messages = await countOf(tx, `DELETE FROM messages m WHERE m.conversation_id IN (${VISITOR_CONVERSATIONS})`, scope);
  const notifications = await countOf(
    tx,
    `DELETE FROM inbox_notifications n WHERE n.workspace_id = $1 AND n.conversation_id IN (${VISITOR_CONVERSATIONS})`,
    scope,
  );
  await tx.query(`DELETE FROM conversation_reads r WHERE r.conversation_id IN (${VISITOR_CONVERSATIONS})`, scope);
  // By visitor, then by conversation: two statements, each on its own index (an OR would read the agent's whole history).
  const events =
    (await countOf(tx, `DELETE FROM events e WHERE e.workspace_id = $1 AND e.agent_id = $2 AND e.visitor_id = $3`, scope)) +
    (await countOf(tx, `DELETE FROM events e WHERE e.workspace_id = $1 AND e.agent_id = $2 AND e.conversation_id IN (${VISITOR_CONVERSATIONS})`, scope));
  const leads =
    (await countOf(tx, `DELETE FROM leads l WHERE l.workspace_id = $1 AND l.agent_id = $2 AND l.visitor_id = $3`, scope)) +
    (await countOf(tx, `DELETE FROM leads l WHERE l.workspace_id = $1 AND l.agent_id = $2 AND l.conversation_id IN (${VISITOR_CONVERSATIONS})`, scope));
  const { rows: removed } = await tx.query<{ id: string; rated: boolean; couponed: boolean }>(
    `DELETE FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3
     RETURNING c.id, c.satisfaction_rating IS NOT NULL AS rated, c.coupon_code IS NOT NULL AS couponed`,
    scope,
  );
  const visitors = await countOf(
    tx,
    `DELETE FROM visitors v USING agents a WHERE v.id = $3 AND v.agent_id = $2 AND a.id = v.agent_id AND a.workspace_id = $1`,
    scope,
  );
  if (removed.length !== locked.length) throw new Error("erasure: the visitor's conversations changed while locked");
  return {
    counts: {
      visitors,
      conversations: removed.length,
      messages,
      leads,
      events,
      satisfaction_ratings: removed.filter((row) => row.rated).length,
      coupons: removed.filter((row) => row.couponed).length,
      notifications,
    },
    conversations: removed.map((row) => ({ id: row.id, workspaceId: visitor.workspaceId, agentId: visitor.agentId })),
    webhookAttemptsUnderWay,
  };
}

/** A stale conversation chosen by the retention purge. */
interface StaleConversation {
  id: string;
  agent_id: string;
  visitor_id: string;
  rated: boolean;
  couponed: boolean;
}

/**
 * One batch of the retention purge in the caller's transaction: up to `limit` conversations of the
 * workspace with no activity since `before` (oldest first, rows another transaction holds are
 * skipped), with their messages, notifications, read marks and events; their leads too when
 * `includeLeads` (otherwise the leads stay, pointing at no conversation); then the visitors left
 * with no conversation, with their remaining events (and, when not kept, leads).
 */
export async function purgeStaleConversationBatch(
  tx: Queryable,
  options: { workspaceId: string; before: Date; limit: number; includeLeads: boolean },
): Promise<{ counts: ErasureCounts; conversations: DeletedConversation[] }> {
  const { rows: stale } = await tx.query<StaleConversation>(
    `SELECT c.id, c.agent_id, c.visitor_id, c.satisfaction_rating IS NOT NULL AS rated, c.coupon_code IS NOT NULL AS couponed
     FROM conversations c WHERE c.workspace_id = $1 AND c.last_activity_at < $2
     ORDER BY c.last_activity_at, c.id LIMIT $3 FOR UPDATE SKIP LOCKED`,
    [options.workspaceId, options.before, options.limit],
  );
  if (stale.length === 0) return { counts: NO_ERASURE, conversations: [] };
  const ids = textArray(stale.map((row) => row.id));
  const visitorIds = textArray([...new Set(stale.map((row) => row.visitor_id))]);
  // A text[] parameter: the planner sees how many ids there are and reads each through its index.
  const batch = `$2::text[]`;
  const scope = [options.workspaceId, ids];
  const messages = await countOf(
    tx,
    `DELETE FROM messages m USING conversations c WHERE m.conversation_id = c.id AND c.workspace_id = $1 AND c.id = ANY(${batch})`,
    scope,
  );
  const notifications = await countOf(tx, `DELETE FROM inbox_notifications n WHERE n.workspace_id = $1 AND n.conversation_id = ANY(${batch})`, scope);
  await tx.query(`DELETE FROM conversation_reads r USING conversations c WHERE r.conversation_id = c.id AND c.workspace_id = $1 AND c.id = ANY(${batch})`, scope);
  let events = await countOf(tx, `DELETE FROM events e WHERE e.workspace_id = $1 AND e.conversation_id = ANY(${batch})`, scope);
  const leads = options.includeLeads ? await countOf(tx, `DELETE FROM leads l WHERE l.workspace_id = $1 AND l.conversation_id = ANY(${batch})`, scope) : 0;
  await forgetWebhookEventsAbout(tx, options.workspaceId, { visitorIds: [], conversationIds: stale.map((row) => row.id) });
  await tx.query(`DELETE FROM conversations c WHERE c.workspace_id = $1 AND c.id = ANY(${batch})`, scope);

  // The visitors of the batch who have no conversation left. SKIP LOCKED: the purge holds conversations
  // here, and waiting on a visitor that a write of theirs holds (widget/visitor-lock.ts) would invert
  // erasure's order; a visitor busy writing keeps their row (their next init starts a new conversation with it).
  const { rows: orphans } = await tx.query<{ id: string; agent_id: string }>(
    `SELECT v.id, v.agent_id FROM visitors v JOIN agents a ON a.id = v.agent_id
     WHERE a.workspace_id = $1 AND v.id = ANY(${batch})
       AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.visitor_id = v.id)
     FOR UPDATE OF v SKIP LOCKED`,
    [options.workspaceId, visitorIds],
  );
  let visitors = 0;
  let orphanLeads = 0;
  if (orphans.length > 0) {
    const orphanScope = [options.workspaceId, textArray(orphans.map((row) => row.id))];
    events += await countOf(tx, `DELETE FROM events e WHERE e.workspace_id = $1 AND e.visitor_id = ANY(${batch})`, orphanScope);
    if (options.includeLeads) orphanLeads = await countOf(tx, `DELETE FROM leads l WHERE l.workspace_id = $1 AND l.visitor_id = ANY(${batch})`, orphanScope);
    visitors = await countOf(
      tx,
      `DELETE FROM visitors v USING agents a WHERE a.id = v.agent_id AND a.workspace_id = $1 AND v.id = ANY(${batch})`,
      orphanScope,
    );
  }
  return {
    counts: {
      visitors,
      conversations: stale.length,
      messages,
      leads: leads + orphanLeads,
      events,
      satisfaction_ratings: stale.filter((row) => row.rated).length,
      coupons: stale.filter((row) => row.couponed).length,
      notifications,
    },
    conversations: stale.map((row) => ({ id: row.id, workspaceId: options.workspaceId, agentId: row.agent_id })),
  };
}

/** The audit record of an erasure: counts and who asked, nothing that names the person. Returns its random id. */
export async function recordErasure(
  tx: Queryable,
  erasure: { workspaceId: string; agentId: string | null; scope: "visitor" | "retention"; requestedBy: ErasureRequester; operatorId: string | null; counts: ErasureCounts },
): Promise<string> {
  const id = newId("era");
  await tx.query(
    `INSERT INTO erasures (id, workspace_id, agent_id, scope, requested_by, operator_id, counts) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
    [id, erasure.workspaceId, erasure.agentId, erasure.scope, erasure.requestedBy, erasure.operatorId, JSON.stringify(erasure.counts)],
  );
  return id;
}

/** The workspaces the retention job visits, with their override: all of them when the deployment sets a period, else those with one. */
export async function listRetentionWorkspaces(db: Queryable, deploymentDays: number | null): Promise<{ id: string; retentionDays: number | null }[]> {
  const { rows } = await db.query<{ id: string; retention_days: number | null }>(
    deploymentDays === null
      ? `SELECT id, retention_days FROM workspaces WHERE retention_days IS NOT NULL ORDER BY id`
      : `SELECT id, retention_days FROM workspaces ORDER BY created_at, id`,
  );
  return rows.map((row) => ({ id: row.id, retentionDays: row.retention_days }));
}

/** Sets the workspace's retention override (null: the deployment's; 0: keep forever); false when there is no such workspace. */
export async function setWorkspaceRetention(db: Queryable, workspaceId: string, retentionDays: number | null): Promise<boolean> {
  const { rows } = await db.query(`UPDATE workspaces SET retention_days = $2 WHERE id = $1 RETURNING id`, [workspaceId, retentionDays]);
  return rows.length > 0;
}

/** An audit record of an erasure, as `admin erasure list` prints it. */
export interface ErasureRecord {
  id: string;
  agent_id: string | null;
  scope: "visitor" | "retention";
  requested_by: ErasureRequester;
  operator_id: string | null;
  counts: ErasureCounts;
  created_at: string;
}

/** The workspace's audit records, newest first (erasures_workspace_created_idx), at most `limit`. */
export async function listErasures(db: Queryable, workspaceId: string, limit: number): Promise<ErasureRecord[]> {
  const { rows } = await db.query<Omit<ErasureRecord, "created_at"> & { created_at: Date }>(
    `SELECT id, agent_id, scope, requested_by, operator_id, counts, created_at FROM erasures WHERE workspace_id = $1
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [workspaceId, limit],
  );
  return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
}
