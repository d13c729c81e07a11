import type { Lead } from "@frontdesk/contracts";
import type { DomainEvents } from "./domain-events.js";

/** The conversation a conversation event is about. */
export interface ConversationOfEvent {
  workspaceId: string;
  agentId: string;
  conversationId: string;
  visitorId: string;
}

/**
 * The changes other domains react to, each raised by the use case that makes it (events/domain-events.ts).
 * Plain facts: subscribers (webhooks, the inbox) decide what they mean to them.
 */
export type FrontdeskEvent =
  /** A visitor left an e-mail not known for the agent (`created`), or a known one again. */
  | { type: "lead.saved"; workspaceId: string; lead: Lead; created: boolean }
  /** A conversation started waiting for a person; `outsideHours`: asked outside the agent's office hours (alert by e-mail, nobody is on duty). */
  | { type: "human.requested"; conversation: ConversationOfEvent; reason: string | null; requestedAt: string; outsideHours: boolean }
  /** A conversation was closed by its visitor or an operator. */
  | { type: "conversation.closed"; conversation: ConversationOfEvent; assignee: { id: string; name: string } | null; closedAt: string }
  /** A visitor rated their conversation. */
  | { type: "satisfaction.rated"; conversation: ConversationOfEvent; rating: "good" | "bad"; comment: string | null; ratedAt: string }
  /** A source's sync ended (one sync may settle more than once: `syncRequestedAt` names it). */
  | {
      type: "source.settled";
      workspaceId: string;
      agentId: string;
      sourceId: string;
      status: "indexed" | "failed";
      error: { code: string; message: string } | null;
      settledAt: string;
      syncRequestedAt: string;
      pages: { found: number; indexed: number; failed: number };
    };

/** The service's dispatcher of its events. */
export type FrontdeskEvents = DomainEvents<FrontdeskEvent>;
