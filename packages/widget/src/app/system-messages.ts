import { en, type UiStrings } from "./ui-strings.js";

/** The system messages' keys in the strings tables, whose English texts are the service's own. */
const FIXED = ["waitingForPerson", "assistantBack", "conversationClosed", "conversationReopened"] as const;
const JOINED = /^(.+) joined the conversation$/;

/**
 * A system message in the widget's language. The service stores the handoff's system messages in
 * English (conversations/apply-transition.ts: "Waiting for a person to join", "Ana joined the
 * conversation" …); the widget knows each by its English text and shows the visitor's words for it.
 * A text it does not know is shown as it is.
 */
export function systemText(content: string, strings: UiStrings): string {
  const key = FIXED.find((name) => en[name] === content);
  if (key) return strings[key];
  const joined = JOINED.exec(content);
  return joined ? strings.joined(joined[1] ?? "") : content;
}
