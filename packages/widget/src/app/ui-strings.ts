/**
 * The widget's own words in English, the reference table: every language in languages/ has the same
 * keys (test/ui-languages.test.ts), and a key it lacks falls back to this one.
 */
export const en = {
  launcher: "Open chat",
  openChat: (name: string) => `Open chat with ${name}`,
  closeChat: "Close chat",
  greeting: (name: string) => `Hi, I'm ${name}. How can I help?`,
  conversation: "Conversation",
  messageLabel: "Message",
  placeholder: "Write a message…",
  send: "Send",
  starting: "Connecting…",
  retry: "Try again",
  sources: "Sources",
  // The rating under each bot answer (rating-buttons.tsx).
  helpful: "Helpful",
  notHelpful: "Not helpful",
  networkProblem: "We couldn't reach the assistant. Check your connection and try again.",
  // The site requires its signed-in users' identity, and this page gave none the service could verify.
  signInToChat: "Sign in to your account to chat with us.",
  tooMany: (seconds: number | null) => `Too many messages at once. Please wait ${seconds ? `${seconds} seconds` : "a moment"} and try again.`,
  notSent: "Not sent",
  // Attachments (attachments.tsx).
  attach: "Attach a file",
  removeFile: (name: string) => `Remove ${name}`,
  fileRefused: "Can't send: images and PDFs only, within the size limit",
  // The human handoff (handoff/handoff-views.tsx).
  menu: "More options",
  talkToPerson: "Talk to a person",
  newConversation: "New conversation",
  operatorTyping: (name: string) => (name ? `${name} is typing…` : "Someone is typing…"),
  leadPrompt: "No one is available right now. Leave your e-mail and we'll get back to you.",
  emailLabel: "Your e-mail",
  leaveEmail: "Send e-mail",
  leadInvalid: "Please check the e-mail address.",
  leadSaved: "Thanks! We'll get back to you by e-mail.",
  // The transcript offered once the conversation closed (handoff/handoff-views.tsx).
  transcriptOffer: "Email me the transcript",
  transcriptSent: "We'll e-mail it to you.",
  transcriptLimit: "Too many requests. Try again later.",
  // Office hours (handoff/handoff-views.tsx): the usual reply time inside them, the next opening outside.
  reply_minutes: "Usually replies within a few minutes",
  reply_hours: "Usually replies within a few hours",
  reply_day: "Usually replies within a day",
  away: (when: string) => (when ? `We're away — back ${when}` : "We're away right now"),
  // The handoff's system messages, keyed by the service's stable codes (system-messages.ts).
  human_requested: "Waiting for a person to join",
  operator_joined: (name: string) => `${name} joined the conversation`,
  bot_resumed: "The assistant is back",
  conversation_closed: "Conversation closed",
  conversation_reopened: "Conversation reopened",
};
export type UiStrings = typeof en;

/** One language's words: the English table's keys (a missing one falls back to English). */
export type Translation = Partial<UiStrings>;
