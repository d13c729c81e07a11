import type { ChatMessage } from "./chat-message.js";
import type { UiStrings } from "./ui-strings.js";

/**
 * A system message in the widget's language, by the stable code the service sends with it
 * (`human_requested`, `operator_joined` with the operator as its author, …: the strings tables'
 * keys). A message without a code the widget knows is shown as the service wrote it.
 */
export function systemText({ code, content, author }: ChatMessage, strings: UiStrings): string {
  const text = code && strings[code];
  return typeof text == "function" ? text(author ?? "") : text || content;
}
