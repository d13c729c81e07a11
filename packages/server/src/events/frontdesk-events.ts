import type { ConversationStatus, Lead } from "@frontdesk/contracts";
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
  /** A visitor wrote in a conversation, in the state `status` (`human`: an operator has it). */
  | { type: "visitor.message.received"; conversation: ConversationOfEvent; seq: number; status: ConversationStatus; receivedAt: string }
  /** An operator's reply was stored in a conversation. */
  | { type: "operator.replied"; conversation: ConversationOfEvent; seq: number; author: { id: string; name: string }; repliedAt: string }
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
