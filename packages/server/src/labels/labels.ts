/**
 * Labels as other domains and the console reach them: `labels` is owned by labels/, whose
 * repository alone holds its SQL. Which conversation carries which label is conversations/'s
 * (`conversation_labels`, conversations/conversation-labels.ts).
 */
export { findWorkspaceLabel, listWorkspaceLabels } from "./label-repository.js";
export type { StoredLabel } from "./label-repository.js";
export { presentConversationLabel, presentLabel } from "./present-label.js";
