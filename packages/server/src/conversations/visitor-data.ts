/**
 * Privacy's door to the tables conversations/ owns (visitors, conversations, messages, read marks):
 * erasure and retention delete through these, in their transaction and lock order, and the
 * visitor's export reads through them.
 */
export {
  deleteConversations,
  deleteMessagesOfConversations,
  deleteReadMarksOfConversations,
  deleteVisitor,
  deleteVisitorConversations,
  deleteVisitorMessages,
  deleteVisitorReadMarks,
  deleteVisitors,
  findVisitorWorkspace,
  listVisitorQuestions,
  lockStaleConversations,
  lockVisitorConversations,
  lockVisitorOfWorkspace,
  lockVisitorsWithoutConversations,
} from "./conversation-deletion-repository.js";
export type { RemovedConversation, RemovedMessages, StaleConversation, VisitorOfWorkspace } from "./conversation-deletion-repository.js";
export { findVisitorToExport, listConversationsToExport, listMessagesToExport } from "./visitor-export-repository.js";
export { findUserVisitorId, visitorIdentityOf } from "./visitor-identity-repository.js";
