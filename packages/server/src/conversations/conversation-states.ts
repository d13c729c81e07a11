/**
 * A conversation's handoff state, as other domains read it.
 */
export type { ConversationState } from "./conversation-state-repository.js";
export { findConversationState } from "./conversation-state-repository.js";
