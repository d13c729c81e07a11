import type { BusEvent } from "../realtime/event-bus.js";
import type { Services } from "../services.js";

/** A conversation that no longer exists (announced to consoles after the commit). */
export interface DeletedConversation {
  id: string;
  workspaceId: string;
  agentId: string;
}

/** What is told, after the commit, that conversations no longer exist. */
export type DeletionAnnouncer = (conversations: DeletedConversation[], reason: "erasure" | "retention") => void | Promise<void>;

/**
 * `conversation.deleted` for each conversation (the workspace's consoles drop it, an open view of
 * it closes), after `forget` drops it from the session cache (its token fails at once in this
 * process, within the cache's two seconds in others).
 */
export function deletionAnnouncer(target: { publish: (event: BusEvent) => void; forget?: (conversationId: string) => void; now: () => Date }): DeletionAnnouncer {
  return (conversations, reason) => {
    const at = target.now().toISOString();
    for (const conversation of conversations) {
      target.forget?.(conversation.id);
      target.publish({ type: "conversation.deleted", workspaceId: conversation.workspaceId, agentId: conversation.agentId, conversationId: conversation.id, reason, at });
    }
  };
}

/**
 * The announcer of a process with services: `conversations.deleted`, raised on the store once the
 * deletion committed (its subscribers drop the conversations from the session cache, then tell the
 * consoles). The admin CLI, without services, publishes through `deletionAnnouncer` instead.
 */
export const servicesDeletionAnnouncer =
  (services: Pick<Services, "db" | "events" | "now">): DeletionAnnouncer =>
  (conversations, reason) =>
    services.events.raise(services.db, {
      type: "conversations.deleted",
      conversations: conversations.map((conversation) => ({ workspaceId: conversation.workspaceId, agentId: conversation.agentId, conversationId: conversation.id })),
      reason,
      deletedAt: services.now().toISOString(),
    });
