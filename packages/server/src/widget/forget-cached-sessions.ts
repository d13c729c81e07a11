import type { AfterCommitSubscriber } from "../events/domain-events.js";
import type { FrontdeskEvent } from "../events/frontdesk-events.js";
import type { SessionCache } from "./session-cache.js";

/**
 * The session cache's subscriber, after the commit: a conversation whose state changed or that was
 * deleted, and an agent that changed (with its sessions), are read again from the store by this
 * process's next request (others see it within the cache's two seconds).
 */
export const forgetCachedSessionsOf =
  (cache: SessionCache): AfterCommitSubscriber<FrontdeskEvent> =>
  (event) => {
    switch (event.type) {
      case "conversation.transitioned":
      case "human.requested":
        return cache.forget(event.conversation.conversationId);
      case "conversations.deleted":
        for (const conversation of event.conversations) cache.forget(conversation.conversationId);
        return;
      case "agent.changed":
        return cache.forgetAgent(event.agentId);
      default:
        return;
    }
  };
