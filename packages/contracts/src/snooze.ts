import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * POST /api/v1/console/conversations/{id}/snooze: until a time, or until the visitor writes
 * (`visitor_reply`). The visitor's next message ends any snooze, whichever comes first.
 */
export const snoozeConversationBodySchema = z.object({
  until: z
    .union([z.literal("visitor_reply"), z.iso.datetime({ offset: true, message: "must be an ISO 8601 date and time with a UTC offset, or visitor_reply" })])
    .describe("An ISO 8601 date and time in the future (at most a year ahead), or `visitor_reply`: until the visitor writes."),
});
export type SnoozeConversationBody = z.infer<typeof snoozeConversationBodySchema>;

/** A conversation's snooze; null when it is not snoozed. */
export const conversationSnoozeSchema = z.object({
  until: isoTimestampSchema.nullable().describe("When it comes back by itself; null: when the visitor writes."),
});
export type ConversationSnooze = z.infer<typeof conversationSnoozeSchema>;

export const conversationSnoozeResponseSchema = z.object({
  data: z.object({
    conversation_id: z.string(),
    snooze: conversationSnoozeSchema.nullable().describe("The conversation's snooze now; null: not snoozed (back in the open view)."),
  }),
});

/** `conversation.snoozed` on the workspace channel: the inbox's lists read again. */
export type ConversationSnoozedEvent = {
  conversation_id: string;
  agent_id: string;
  snooze: ConversationSnooze | null;
  /** Why it changed: an operator (`snoozed`, `unsnoozed`), its time came (`time`) or the visitor wrote (`visitor_message`). */
  cause: "snoozed" | "unsnoozed" | "time" | "visitor_message";
};
