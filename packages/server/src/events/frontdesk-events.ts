import type { AnswerRating, Attachment, Citation, ConversationStatus, Lead, SystemMessageCode } from "@frontdesk/contracts";
import type { DomainEvents } from "./domain-events.js";

/** The conversation a conversation event is about. */
export interface ConversationOfEvent {
  workspaceId: string;
  agentId: string;
  conversationId: string;
  visitorId: string;
}

/** The system message a conversation's transition stored ("Conversation closed" …). */
export interface SystemMessageOfEvent {
  id: string;
  seq: number;
  code: SystemMessageCode;
  content: string;
  /** The operator who joined (`operator_joined`). */
  author: { id: string; name: string } | null;
  createdAt: string;
}

/** A conversation that no longer exists, with all it held. */
export interface DeletedConversationOfEvent {
  workspaceId: string;
  agentId: string;
  conversationId: string;
}

/**
 * The changes other domains react to, each raised by the use case that makes it (events/domain-events.ts).
 * Plain facts: subscribers (webhooks, e-mail, push, the realtime bus) decide what they mean to them.
 */
export type FrontdeskEvent =
  /** A visitor left an e-mail not known for the agent (`created`), or a known one again. */
  | { type: "lead.saved"; workspaceId: string; lead: Lead; created: boolean }
  /**
   * A conversation started waiting for a person (`awaiting_human`, no assignee), its system message
   * stored and every operator of the workspace notified in the inbox (`notifications`, one each);
   * `outsideHours`: asked outside the agent's office hours (alert by e-mail, nobody is on duty);
   * `seq`: the transition's place among the conversation's events; `routedTo`: the operator the
   * agent's round robin gave it to (only they were notified; a `conversation.transitioned` to
   * `human` with them follows in the same transaction), null when it waits for anyone.
   */
  | {
      type: "human.requested";
      conversation: ConversationOfEvent;
      seq: number;
      reason: string | null;
      requestedAt: string;
      outsideHours: boolean;
      systemMessage: SystemMessageOfEvent;
      notifications: { id: string; operatorId: string }[];
      routedTo: { id: string; name: string } | null;
    }
  /** A visitor's new conversation was stored (a resumed one is not new). */
  | { type: "conversation.started"; conversation: ConversationOfEvent; startedAt: string }
  /** A conversation changed state (taken over, released, closed, reopened; a hand-over is `human.requested`) and stored its system message. */
  | {
      type: "conversation.transitioned";
      conversation: ConversationOfEvent;
      /** The transition's place among the conversation's events; its system message comes right after. */
      seq: number;
      status: ConversationStatus;
      assignee: { id: string; name: string } | null;
      humanRequestedAt: string | null;
      systemMessage: SystemMessageOfEvent;
    }
  /**
   * A conversation's snooze changed (console/conversations/{id}/snooze): `snoozed` until
   * `snoozedUntil` (null: until the visitor writes), or back (`unsnoozed` by an operator, its
   * `time` came, or the visitor wrote: `visitor_message`). Only the consoles are told.
   */
  | { type: "conversation.snoozed"; conversation: ConversationOfEvent; snoozed: boolean; snoozedUntil: string | null; cause: "snoozed" | "unsnoozed" | "time" | "visitor_message"; at: string }
  /** A visitor wrote in a conversation, in the state `status` (`human`: an operator has it). */
  | { type: "visitor.message.received"; conversation: ConversationOfEvent; messageId: string; seq: number; content: string; status: ConversationStatus; receivedAt: string; attachments?: Attachment[] }
  /** An operator's reply was stored in a conversation. */
  | { type: "operator.replied"; conversation: ConversationOfEvent; messageId: string; seq: number; content: string; author: { id: string; name: string }; repliedAt: string; attachments?: Attachment[] }
  /** The bot's reply was stored (`curatedAnswerId`: served from that curated answer). */
  | {
      type: "bot.replied";
      conversation: ConversationOfEvent;
      message: { id: string; seq: number; content: string; citations: Citation[]; curatedAnswerId: string | null; createdAt: string };
    }
  /** Conversations and all they held were deleted: a visitor's erasure, or the retention purge. */
  | { type: "conversations.deleted"; conversations: DeletedConversationOfEvent[]; reason: "erasure" | "retention"; deletedAt: string }
  /** An agent was created or changed (published or not, its settings). */
  | { type: "agent.changed"; workspaceId: string; agentId: string; published: boolean; updatedAt: string }
  /** A curated answer was created, changed or deleted (`deleted`). */
  | { type: "curated_answer.changed"; workspaceId: string; agentId: string; curatedAnswerId: string; deleted: boolean }
  /** A source was added, re-synced or changed by a push: its state is read again. */
  | { type: "source.changed"; sourceId: string }
  /** A source was deleted with its documents. */
  | { type: "source.deleted"; workspaceId: string; agentId: string; sourceId: string }
  /** An operator was invited, changed (role, password set) or removed (settings-events.ts builds these). */
  | { type: "operator.invited" | "operator.updated" | "operator.removed"; workspaceId: string; operatorId: string; role: "admin" | "agent"; at: string }
  /** Console sessions of an operator ended (a sign-out, a password change, removal …). */
  | { type: "operator.signed_out"; workspaceId: string; operatorId: string; sessionIds: string[] }
  /** An API token was issued or revoked. */
  | { type: "token.created" | "token.revoked"; workspaceId: string; tokenId: string; at: string }
  /** A conversation was closed by its visitor or an operator. */
  | { type: "conversation.closed"; conversation: ConversationOfEvent; assignee: { id: string; name: string } | null; closedAt: string }
  /** A label was put on a conversation by an operator, or by an automation with a workspace API token. */
  | {
      type: "conversation.labelled";
      conversation: ConversationOfEvent;
      label: { id: string; name: string; colour: string };
      by: { kind: "operator" | "api_token"; id: string; name: string };
      labelledAt: string;
    }
  /** A label was taken off a conversation (the consoles read its labels again; no webhook). */
  | { type: "conversation.unlabelled"; conversation: ConversationOfEvent; labelId: string; unlabelledAt: string }
  /** A visitor rated their conversation. */
  | { type: "satisfaction.rated"; conversation: ConversationOfEvent; rating: "good" | "bad"; comment: string | null; ratedAt: string }
  /** A workspace's model provider, or agents' answer model or instructions, changed: these agents may answer differently now. */
  | { type: "agent.answering.changed"; workspaceId: string; agentIds: string[]; changedAt: string }
  /** A visitor rated one bot answer (a repeat replaces the rating and is raised again). */
  | { type: "message.rated"; conversation: ConversationOfEvent; messageId: string; rating: AnswerRating; comment: string | null; ratedAt: string }
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
    }
  /** What answers an agent gives may have changed: its model or instructions (raised by the agents' settings). */
  | { type: "agent.answering.changed"; workspaceId: string; agentIds: string[]; changedAt: string }
  /**
   * An operator wrote an internal note in a conversation: for operators only (never the visitor's
   * channel, mails or webhooks). `mentioned`: the operators it names, each notified in the inbox.
   */
  | {
      type: "note.added";
      conversation: ConversationOfEvent;
      note: { id: string; content: string; author: { id: string; name: string }; afterSeq: number; createdAt: string };
      mentioned: { operatorId: string; name: string; notificationId: string }[];
    }
  /** A run of an agent's answer tests finished with tests that passed in the previous run failing now. */
  | {
      type: "answer_tests.regressed";
      workspaceId: string;
      agentId: string;
      runId: string;
      finishedAt: string;
      tests: { id: string; question: string; reason: string }[];
    };

/** The service's dispatcher of its events. */
export type FrontdeskEvents = DomainEvents<FrontdeskEvent>;
