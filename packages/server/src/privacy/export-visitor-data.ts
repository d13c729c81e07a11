import type { VisitorExport } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso, isoOrNull } from "../db/timestamps.js";
import { findVisitorToExport, listConversationsToExport, listMessagesToExport, visitorIdentityOf } from "../conversations/visitor-data.js";
import { labelsOfConversations } from "../conversations/conversation-labels.js";
import { listEventsToExport } from "../widget/events.js";
import { listLeadsToExport } from "../widget/leads.js";
import { listAttachmentsOfConversations, presentAttachment, type AttachmentLinkContext } from "../attachments/attachments.js";

type ExportedMessage = VisitorExport["conversations"][number]["messages"][number];

/**
 * Everything the service holds about one visitor of the workspace (an access request): their
 * conversations with every message, satisfaction and coupon, their leads and their widget events.
 * Null when the workspace has no such visitor. Read in one transaction through each table's owner;
 * the leads, events and attachments are those of the conversations read first. An attachment's
 * `url` is a link signed for an hour when `links` signs them (the console's export, handed to the
 * visitor), else the console's route (the CLI: an operator opens it signed in).
 */
export async function exportVisitorData(
  db: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  request: { workspaceId: string; visitorId: string; now: Date; links?: AttachmentLinkContext },
): Promise<VisitorExport | null> {
  return db.transaction(async (tx) => {
    const visitor = await findVisitorToExport(tx, request.workspaceId, request.visitorId);
    if (!visitor) return null;
    const scope = { workspaceId: request.workspaceId, agentId: visitor.agent_id, visitorId: visitor.id };
    const conversations = await listConversationsToExport(tx, scope);
    const messages = await listMessagesToExport(tx, scope);
    const conversationIds = conversations.map((row) => row.id);
    const leads = await listLeadsToExport(tx, { ...scope, conversationIds });
    const events = await listEventsToExport(tx, { ...scope, conversationIds });
    const labels = await labelsOfConversations(tx, request.workspaceId, conversationIds);
    const attachments = await listAttachmentsOfConversations(tx, request.workspaceId, conversationIds);
    const links = request.links ?? { publicUrl: "" };
    const messagesOf = new Map<string, ExportedMessage[]>();
    for (const row of messages) {
      const list = messagesOf.get(row.conversation_id) ?? [];
      const rating = row.rating && row.rated_at ? { rating: row.rating, comment: row.rating_comment, rated_at: iso(row.rated_at) } : null;
      list.push({ id: row.id, role: row.role, content: row.content, citations: row.citations, author_name: row.author_name, rating, created_at: iso(row.created_at) });
      messagesOf.set(row.conversation_id, list);
    }
    return {
      format: "frontdesk.visitor-export.v1",
      exported_at: request.now.toISOString(),
      workspace_id: request.workspaceId,
      agent_id: visitor.agent_id,
      visitor: {
        id: visitor.id,
        anonymous_id: visitor.anon_id,
        identity: visitorIdentityOf(visitor),
        created_at: iso(visitor.created_at),
        last_seen_at: iso(visitor.last_seen_at),
      },
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
        labels: (labels.get(row.id) ?? []).map((label) => label.name),
        messages: messagesOf.get(row.id) ?? [],
      })),
      leads,
      events: events.map((row) => ({
        conversation_id: row.conversation_id,
        event: row.event,
        rule_id: row.rule_id,
        metadata: row.metadata,
        created_at: iso(row.created_at),
      })),
      attachments: attachments.map((attachment) => ({
        ...presentAttachment(links, attachment, "visitor"),
        conversation_id: attachment.conversationId,
        message_id: attachment.messageId,
        uploaded_by: attachment.uploadedBy,
        created_at: attachment.createdAt,
      })),
    };
  });
}
