import { z } from "zod";

/**
 * The stable codes of system messages (a conversation's state changes), which clients show in
 * their own words; the message's `content` stays the service's English text for older clients.
 * - `human_requested`: the visitor asked for a person ("Waiting for a person to join").
 * - `operator_joined`: an operator took the conversation; its `author` is who ("Ana joined the conversation").
 * - `bot_resumed`: handed back to the assistant ("The assistant is back").
 * - `conversation_closed` ("Conversation closed"), `conversation_reopened` (by the visitor's next message, "Conversation reopened").
 */
export const systemMessageCodes = ["human_requested", "operator_joined", "bot_resumed", "conversation_closed", "conversation_reopened"] as const;
export type SystemMessageCode = (typeof systemMessageCodes)[number];

export const systemMessageCodeSchema = z
  .enum(systemMessageCodes)
  .nullable()
  .describe(
    "A system message's stable code, to show it in the reader's language: `human_requested`, `operator_joined` (`author` is the operator), " +
      "`bot_resumed`, `conversation_closed`, `conversation_reopened`. Null for the other roles (and for a system text stored before codes existed that the service does not know).",
  );
