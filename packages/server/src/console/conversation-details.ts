/**
 * The console's read marks of a conversation, for other domains (an operator's reply marks it
 * read).
 */
export { markConversationRead } from "./conversation-detail-repository.js";
