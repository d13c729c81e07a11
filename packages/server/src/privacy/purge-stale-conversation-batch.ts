import type { ErasureCounts } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import {
  deleteConversations,
  deleteMessagesOfConversations,
  deleteReadMarksOfConversations,
  deleteVisitors,
  lockStaleConversations,
  lockVisitorsWithoutConversations,
} from "../conversations/visitor-data.js";
import { deleteNotificationsOfConversations } from "../inbox/notifications.js";
import { deleteNotesOfConversations } from "../notes/notes.js";
import { forgetWebhookEventsAbout } from "../webhooks/forget-webhook-events.js";
import { forgetVisitorMails } from "../mail/mails.js";
import { deleteEventsOfConversations, deleteEventsOfVisitors } from "../widget/events.js";
import { deleteLeadsOfConversations, deleteLeadsOfVisitors } from "../widget/leads.js";
import type { DeletedConversation } from "./announce-deleted-conversations.js";
import { NO_ERASURE } from "./erasure-counts.js";
import { deleteAttachmentsOfConversations } from "../attachments/attachments.js";

/**
 * One batch of the retention purge in the caller's transaction, each table through its owner: up
 * to `limit` conversations of the workspace with no activity since `before` (oldest first, rows
 * another transaction holds are skipped), with their attachments, messages, notifications, read marks and
 * events; their leads too when `includeLeads` (otherwise the leads stay, pointing at no
 * conversation); then the visitors left with no conversation (never waited for), with their
 * remaining events (and, when not kept, leads).
 */
export async function purgeStaleConversationBatch(
  tx: Queryable,
  options: { workspaceId: string; before: Date; limit: number; includeLeads: boolean },
): Promise<{ counts: ErasureCounts; conversations: DeletedConversation[] }> {
  const { workspaceId } = options;
  const stale = await lockStaleConversations(tx, options);
  if (stale.length === 0) return { counts: NO_ERASURE, conversations: [] };
  const ids = stale.map((row) => row.id);
  await deleteAttachmentsOfConversations(tx, workspaceId, ids);
  const messages = await deleteMessagesOfConversations(tx, workspaceId, ids);
  const notifications = await deleteNotificationsOfConversations(tx, workspaceId, ids);
  await deleteNotesOfConversations(tx, workspaceId, ids);
  await deleteReadMarksOfConversations(tx, workspaceId, ids);
  let events = await deleteEventsOfConversations(tx, workspaceId, ids);
  const leads = options.includeLeads ? await deleteLeadsOfConversations(tx, workspaceId, ids) : 0;
  await forgetWebhookEventsAbout(tx, workspaceId, { visitorIds: [], conversationIds: ids });
  await forgetVisitorMails(tx, workspaceId, { visitorIds: [], conversationIds: ids });
  await deleteConversations(tx, workspaceId, ids);

  const orphans = await lockVisitorsWithoutConversations(tx, workspaceId, [...new Set(stale.map((row) => row.visitor_id))]);
  let visitors = 0;
  let orphanLeads = 0;
  if (orphans.length > 0) {
    const orphanIds = orphans.map((row) => row.id);
    events += await deleteEventsOfVisitors(tx, workspaceId, orphanIds);
    if (options.includeLeads) orphanLeads = await deleteLeadsOfVisitors(tx, workspaceId, orphanIds);
    visitors = await deleteVisitors(tx, workspaceId, orphanIds);
  }
  return {
    counts: {
      visitors,
      conversations: stale.length,
      messages: messages.messages,
      leads: leads + orphanLeads,
      events,
      satisfaction_ratings: stale.filter((row) => row.rated).length,
      answer_ratings: messages.answerRatings,
      coupons: stale.filter((row) => row.couponed).length,
      notifications,
    },
    conversations: stale.map((row) => ({ id: row.id, workspaceId, agentId: row.agent_id })),
  };
}
