import type { BusEvent } from "../realtime/event-bus.js";
import type { Services } from "../services.js";

/** A conversation that no longer exists (announced to consoles after the commit). */
export interface DeletedConversation {
  id: string;
  workspaceId: string;
  agentId: string;
}

/** What is told, after the commit, that conversations no longer exist. */
export type DeletionAnnouncer = (conversations: DeletedConversation[], reason: "erasure" | "retention") => void;

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

/** The announcer of a process with services: its bus and its session cache. */
export const servicesDeletionAnnouncer = (services: Pick<Services, "bus" | "sessionCache" | "now">): DeletionAnnouncer =>
  deletionAnnouncer({ publish: (event) => services.bus.publish(event), forget: (id) => services.sessionCache.forget(id), now: services.now });
