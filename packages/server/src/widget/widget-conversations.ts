/**
 * A visitor's conversation as the widget's session reads it, for other domains.
 */
export { findConversation } from "./conversation-repository.js";
export type { ConversationRecord } from "./conversation-repository.js";
