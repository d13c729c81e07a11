import { createHash } from "node:crypto";
import type { Attachment, Citation } from "@frontdesk/contracts";
import { sendAttachments, withAttachments } from "../attachments/attachments.js";
import { insertMessage } from "./message-repository.js";
import { markConversationRead } from "./conversation-detail-repository.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { lockConversationState } from "./conversation-state-repository.js";
import type { OperatorActor } from "./operator-actor.js";
import { findKeptReply, keepReply } from "./operator-reply-key-repository.js";

export interface OperatorMessage {
  id: string;
  seq: number;
  role: "operator";
  content: string;
  citations: Citation[];
  author: { id: string; name: string };
  created_at: string;
  attachments?: Attachment[];
}

/**
 * POST /console/conversations/{id}/messages: the assignee of a `human` conversation writes to the
 * visitor. Anyone else (and anyone before a takeover) gets 409 `not_assignee`; a closed
 * conversation 409 `conversation_closed`. Checked under the row lock, so a reply cannot slip in
 * after a release or a hand-over commits. The reply moves its author's read marker to itself.
 * Files the operator uploaded to the conversation (`attachmentIds`) are sent with it, in its
 * transaction (one that is not their unsent upload here: 404 `attachment_not_found`, nothing stored).
 *
 * With an `idempotencyKey` (the console sends one per reply, the same one when it sends the reply
 * again), a repeat within 24 hours stores nothing and returns the reply stored the first time, even
 * after the conversation was handed back or closed meanwhile; a repeat by another operator, or with
 * another content or attachments, is 422 `idempotency_key_reused`. The key is read under the
 * conversation's row lock, so two sends at once store one reply. The reply is kept without its
 * files: a repeat presents them again, with links signed then (a signed link is never stored).
 */
export async function replyAsOperator(
  services: Services,
  actor: OperatorActor,
  conversationId: string,
  content: string,
  attachmentIds: readonly string[] = [],
  idempotencyKey?: string,
): Promise<OperatorMessage> {
  const author = { id: actor.id, name: actor.name };
  const requestHash = createHash("sha256").update(JSON.stringify([content, attachmentIds])).digest("hex");
  const outcome = await services.db.transaction(async (tx): Promise<{ replayed: boolean; reply: OperatorMessage }> => {
    const before = await lockConversationState(tx, actor.workspaceId, conversationId);
    if (!before) throw new AppError("conversation_not_found", "No conversation of this workspace has this id.");
    if (idempotencyKey !== undefined) {
      const kept = await findKeptReply<OperatorMessage>(tx, conversationId, idempotencyKey);
      if (kept && (kept.operatorId !== actor.id || kept.requestHash !== requestHash)) {
        throw new AppError("idempotency_key_reused", "This Idempotency-Key was sent before with another reply in this conversation; send a new key for a new reply.", {
          "headers.idempotency-key": ["was used with another reply"],
        });
      }
      if (kept) return { replayed: true, reply: kept.reply };
    }
    if (before.status === "closed") throw new AppError("conversation_closed", "The conversation is closed.");
    if (before.status !== "human" || before.assignee?.id !== actor.id) {
      throw new AppError(
        "not_assignee",
        before.status === "human" && before.assignee
          ? `${before.assignee.name} has this conversation: only the assignee may reply.`
          : "Take the conversation over first (POST …/assign): only its assignee may reply.",
      );
    }
    const stored = await insertMessage(tx, { conversationId, role: "operator", content, author });
    // Replying answers what the visitor wrote before: the author's unread count drops to zero.
    await markConversationRead(tx, actor.workspaceId, actor.id, conversationId, stored.seq);
    const attachments = await sendAttachments(services, tx, {
      workspaceId: actor.workspaceId,
      conversationId,
      messageId: stored.id,
      uploader: { kind: "operator", operatorId: actor.id },
      ids: attachmentIds,
    });
    await services.events.raise(tx, {
      type: "operator.replied",
      conversation: { workspaceId: before.workspaceId, agentId: before.agentId, conversationId, visitorId: before.visitorId },
      messageId: stored.id,
      seq: stored.seq,
      content,
      author,
      repliedAt: stored.createdAt,
      ...(attachments ? { attachments } : {}),
    });
    const reply: OperatorMessage = { id: stored.id, seq: stored.seq, role: "operator", content, citations: [], author, created_at: stored.createdAt };
    if (idempotencyKey !== undefined) await keepReply(tx, conversationId, idempotencyKey, { operatorId: actor.id, requestHash, reply });
    return { replayed: false, reply: attachments ? { ...reply, attachments } : reply };
  });
  if (!outcome.replayed || attachmentIds.length === 0) return outcome.reply;
  // Read after the transaction: the files were sent with the reply the first time, and are committed.
  const [replayed] = await withAttachments(services, conversationId, [outcome.reply], "visitor");
  return replayed ?? outcome.reply;
}
