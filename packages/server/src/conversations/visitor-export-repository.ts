import type { VisitorExport } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import type { VisitorIdentityColumns } from "./visitor-identity-repository.js";

/**
 * The SQL of a visitor's export (an access request) on the tables conversations/ owns: the visitor,
 * their conversations with the agent and every message of them. privacy/export-visitor-data.ts reads
 * these in one transaction with the leads and events (widget/).
 */

type ExportedConversation = VisitorExport["conversations"][number];
type ExportedMessage = ExportedConversation["messages"][number];

export interface ExportedVisitorRow extends VisitorIdentityColumns {
  id: string;
  agent_id: string;
  anon_id: string;
  created_at: Date;
  last_seen_at: Date;
}

export interface ExportedConversationRow {
  id: string;
  status: ExportedConversation["status"];
  page_url: string | null;
  last_page_url: string | null;
  last_page_context: Record<string, unknown> | null;
  user_agent: string | null;
  human_requested_at: Date | null;
  human_request_reason: string | null;
  satisfaction_rating: "good" | "bad" | null;
  satisfaction_comment: string | null;
  satisfaction_at: Date | null;
  coupon_code: string | null;
  coupon_applied_at: Date | null;
  created_at: Date;
  last_activity_at: Date;
  closed_at: Date | null;
}

export interface ExportedMessageRow {
  conversation_id: string;
  id: string;
  role: ExportedMessage["role"];
  content: string;
  citations: ExportedMessage["citations"];
  author_name: string | null;
  rating: "up" | "down" | null;
  rating_comment: string | null;
  rated_at: Date | null;
  created_at: Date;
}

/** A visitor of the workspace and one of its agents, their conversations with it: what the export reads. */
export interface VisitorExportScope {
  workspaceId: string;
  agentId: string;
  visitorId: string;
}

const VISITOR_CONVERSATIONS = `SELECT c.id FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3`;
const scopeOf = (scope: VisitorExportScope) => [scope.workspaceId, scope.agentId, scope.visitorId];

/** The visitor when one of the workspace's agents has it (visitors_pkey). */
export async function findVisitorToExport(tx: Queryable, workspaceId: string, visitorId: string): Promise<ExportedVisitorRow | null> {
  const { rows } = await tx.query<ExportedVisitorRow>(
    `SELECT v.id, v.agent_id, v.anon_id, v.user_id, v.user_email, v.user_name, v.user_verified_at, v.created_at, v.last_seen_at FROM visitors v JOIN agents a ON a.id = v.agent_id
     WHERE v.id = $1 AND a.workspace_id = $2`,
    [visitorId, workspaceId],
  );
  return rows[0] ?? null;
}

/** The visitor's conversations with the agent, oldest first (conversations_visitor_recent_idx). */
export async function listConversationsToExport(tx: Queryable, scope: VisitorExportScope): Promise<ExportedConversationRow[]> {
  const { rows } = await tx.query<ExportedConversationRow>(
    `SELECT c.id, c.status, c.page_url, c.last_page_url, c.last_page_context, c.user_agent, c.human_requested_at, c.human_request_reason,
            c.satisfaction_rating, c.satisfaction_comment, c.satisfaction_at, c.coupon_code, c.coupon_applied_at, c.created_at,
            c.last_activity_at, c.closed_at
     FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3 ORDER BY c.created_at, c.id`,
    scopeOf(scope),
  );
  return rows;
}

/** Every message of the visitor's conversations with the agent, by conversation then seq. */
export async function listMessagesToExport(tx: Queryable, scope: VisitorExportScope): Promise<ExportedMessageRow[]> {
  const { rows } = await tx.query<ExportedMessageRow>(
    `SELECT m.conversation_id, m.id, m.role, m.content, m.citations, m.author_name, m.rating, m.rating_comment, m.rated_at, m.created_at
     FROM messages m WHERE m.conversation_id IN (${VISITOR_CONVERSATIONS}) ORDER BY m.conversation_id, m.seq`,
    scopeOf(scope),
  );
  return rows;
}
