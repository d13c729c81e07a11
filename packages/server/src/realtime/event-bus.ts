import { EventEmitter } from "node:events";
import type { Citation } from "@frontdesk/contracts";

/** What the service tells operators in real time. One union, shared by every carrier. */
export type BusEvent =
  | { type: "human.requested"; workspaceId: string; agentId: string; conversationId: string; seq: number; reason: string | null; requestedAt: string }
  | { type: "visitor.typing"; workspaceId: string; agentId: string; conversationId: string; typing: boolean; at: string }
  | { type: "conversation.started"; workspaceId: string; agentId: string; conversationId: string; visitorId: string; at: string }
  | {
      type: "message.created";
      workspaceId: string;
      agentId: string;
      conversationId: string;
      /** `seq`: the message's place among its conversation's events. */
      message: { id: string; seq: number; role: "visitor" | "bot" | "operator" | "system"; content: string; citations: Citation[]; created_at: string };
    };

export type BusListener = (event: BusEvent) => void;

/** Publish/subscribe inside one process; the realtime server carries these events to operators. */
export interface EventBus {
  publish(event: BusEvent): void;
  subscribe(listener: BusListener): () => void;
}

export function createInProcessEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(event) {
      emitter.emit("event", event);
    },
    subscribe(listener) {
      emitter.on("event", listener);
      return () => emitter.off("event", listener);
    },
  };
}
