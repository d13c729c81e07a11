import type { ConsoleMessage } from "./merge-messages.js";

type SystemCode = NonNullable<ConsoleMessage["code"]>;

/** The console's words for each system message, by the stable code the server sends with it (one table to translate). */
const SYSTEM_EVENTS: Record<SystemCode, string | ((operator: string) => string)> = {
  human_requested: "Waiting for a person to join",
  operator_joined: (operator) => `${operator} joined the conversation`,
  bot_resumed: "The assistant is back",
  conversation_closed: "Conversation closed",
  conversation_reopened: "Conversation reopened",
};

/** A system message as the console shows it: by its code; one without a code the console knows, as the server wrote it. */
export function systemEventText(message: Pick<ConsoleMessage, "code" | "content" | "author">): string {
  const text = message.code ? SYSTEM_EVENTS[message.code] : undefined;
  if (typeof text === "function") return text(message.author?.name ?? "An operator");
  return text ?? message.content;
}
