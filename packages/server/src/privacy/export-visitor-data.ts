import type { VisitorExport } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso, isoOrNull } from "../db/timestamps.js";
import { type LeadRow, toLead } from "../widget/leads.js";

type ExportedConversation = VisitorExport["conversations"][number];
type ExportedMessage = ExportedConversation["messages"][number];

interface ConversationRow {
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

interface MessageRow {
  conversation_id: string;
  id: string;
  role: ExportedMessage["role"];
  content: string;
  citations: ExportedMessage["citations"];
  author_name: string | null;
  created_at: Date;
}

interface EventRow {
  conversation_id: string | null;
  event: string;
  rule_id: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
}

const VISITOR_CONVERSATIONS = `SELECT c.id FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3`;

/**
 * Everything the service holds about one visitor of the workspace (an access request): their
 * conversations with every message, satisfaction and coupon, their leads and their widget events.
 * Null when the workspace has no such visitor. Read in one transaction, so the parts agree.
 */
export async function exportVisitorData(
  db: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  request: { workspaceId: string; visitorId: string; now: Date },
): Promise<VisitorExport | null> {
  return db.transaction(async (tx) => {
    const { rows: visitors } = await tx.query<{ id: string; agent_id: string; anon_id: string; created_at: Date; last_seen_at: Date }>(
      `SELECT v.id, v.agent_id, v.anon_id, v.created_at, v.last_seen_at FROM visitors v JOIN agents a ON a.id = v.agent_id
       WHERE v.id = $1 AND a.workspace_id = $2`,
      [request.visitorId, request.workspaceId],
    );
    const visitor = visitors[0];
    if (!visitor) return null;
    const scope = [request.workspaceId, visitor.agent_id, visitor.id];
    const { rows: conversations } = await tx.query<ConversationRow>(
      `SELECT c.id, c.status, c.page_url, c.last_page_url, c.last_page_context, c.user_agent, c.human_requested_at, c.human_request_reason,
              c.satisfaction_rating, c.satisfaction_comment, c.satisfaction_at, c.coupon_code, c.coupon_applied_at, c.created_at,
              c.last_activity_at, c.closed_at
       FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3 ORDER BY c.created_at, c.id`,
      scope,
    );
    const { rows: messages } = await tx.query<MessageRow>(
      `SELECT m.conversation_id, m.id, m.role, m.content, m.citations, m.author_name, m.created_at
       FROM messages m WHERE m.conversation_id IN (${VISITOR_CONVERSATIONS}) ORDER BY m.conversation_id, m.seq`,
      scope,
    );
    const { rows: leads } = await tx.query<LeadRow>(
      `SELECT l.* FROM leads l WHERE l.workspace_id = $1 AND l.agent_id = $2
         AND l.id IN (SELECT v.id FROM leads v WHERE v.visitor_id = $3 UNION SELECT c.id FROM leads c WHERE c.conversation_id IN (${VISITOR_CONVERSATIONS}))
       ORDER BY l.created_at, l.id`,
      scope,
    );
    const { rows: events } = await tx.query<EventRow>(
      `SELECT e.conversation_id, e.event, e.rule_id, e.metadata, e.created_at FROM events e
       WHERE e.workspace_id = $1 AND e.agent_id = $2
         AND e.id IN (SELECT v.id FROM events v WHERE v.visitor_id = $3 UNION SELECT c.id FROM events c WHERE c.conversation_id IN (${VISITOR_CONVERSATIONS}))
       ORDER BY e.created_at, e.id`,
      scope,
    );
    const messagesOf = new Map<string, ExportedMessage[]>();
    for (const row of messages) {
      const list = messagesOf.get(row.conversation_id) ?? [];
      list.push({ id: row.id, role: row.role, content: row.content, citations: row.citations, author_name: row.author_name, created_at: iso(row.created_at) });
      messagesOf.set(row.conversation_id, list);
    }
    return {
      format: "frontdesk.visitor-export.v1",
      exported_at: request.now.toISOString(),
      workspace_id: request.workspaceId,
      agent_id: visitor.agent_id,
      visitor: { id: visitor.id, anonymous_id: visitor.anon_id, created_at: iso(visitor.created_at), last_seen_at: iso(visitor.last_seen_at) },
      conversations: conversations.map((row) => ({
        id: row.id,
        status: row.status,
        page_url: row.page_url,
        last_page_url: row.last_page_url,
        last_page_context: row.last_page_context,
        user_agent: row.user_agent,
        human_requested_at: isoOrNull(row.human_requested_at),
        human_request_reason: row.human_request_reason,
        satisfaction: row.satisfaction_rating
          ? { rating: row.satisfaction_rating, comment: row.satisfaction_comment, rated_at: isoOrNull(row.satisfaction_at) }
          : null,
        coupon: row.coupon_code ? { code: row.coupon_code, applied_at: isoOrNull(row.coupon_applied_at) } : null,
        created_at: iso(row.created_at),
        last_activity_at: iso(row.last_activity_at),
        closed_at: isoOrNull(row.closed_at),
        messages: messagesOf.get(row.id) ?? [],
      })),
      leads: leads.map(toLead),
      events: events.map((row) => ({
        conversation_id: row.conversation_id,
        event: row.event,
        rule_id: row.rule_id,
        metadata: row.metadata,
        created_at: iso(row.created_at),
      })),
    };
  });
}
