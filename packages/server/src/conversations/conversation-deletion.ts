/**
 * Erasure's and retention's door to the tables conversations/ owns (visitors, conversations,
 * messages, read marks): privacy/ deletes through these, in its transaction and lock order.
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
export type { RemovedConversation, StaleConversation, VisitorOfWorkspace } from "./conversation-deletion-repository.js";
