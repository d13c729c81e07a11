/**
 * What the visitor has seen of a conversation (issue 30), as other domains reach it: mail/ reads it
 * to decide whether an operator's reply must be e-mailed, widget/ raises it when a resume link
 * reopens the conversation. `conversations.visitor_seen_seq` is written here only.
 */
export { findConversationOutline, raiseVisitorSeenSeq } from "./visitor-seen-repository.js";
export type { ConversationOutline } from "./visitor-seen-repository.js";
