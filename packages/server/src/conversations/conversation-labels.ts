/**
 * Which conversation carries which label, as other domains and the console reach it:
 * `conversation_labels` is owned by conversations/ (its rows go with their conversation, and with
 * their label: the foreign keys cascade). The labels themselves are labels/'s.
 */
export { labelConversation, labelsOfConversations, unlabelConversation } from "./label-conversation.js";
export type { LabellingActor, LabelScope } from "./label-conversation.js";
export { countLabelledConversations } from "./conversation-label-repository.js";
