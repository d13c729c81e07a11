/**
 * Conversations as other domains reach them: the widget's rating, coupon and lead stamps, the
 * console's list, detail and read marks, the channel check. `visitors`, `conversations`,
 * `messages`, `conversation_reads` and `conversation_counters` are owned by conversations/, whose
 * repositories alone hold their SQL (the widget's writes lock the visitor first: visitor-lock.ts).
 */
export { findConversation, rateConversation, stampCoupon, touchConversationActivity } from "./widget-conversation-repository.js";
export type { ConversationRecord } from "./widget-conversation-repository.js";
export { lockedVisitorOf, lockSessionVisitor, sessionEnded } from "./visitor-lock.js";
export { listWorkspaceConversations } from "./conversation-list-repository.js";
export type { ConversationListFilter } from "./conversation-list-repository.js";
export { findConsoleConversation, findOperatorReadSeq, listLatestConsoleMessages, markConversationRead } from "./conversation-detail-repository.js";
export { isConversationOfWorkspace } from "./conversation-channel-repository.js";
export { lockConversationHead } from "./conversation-head-repository.js";
export type { ConversationHead } from "./conversation-head-repository.js";
export { findConversationVisitor, listVisitorAnswerRatings, listVisitorConversationSummaries } from "./visitor-profile-repository.js";
export type { ConversationVisitor, VisitorAnswerRating, VisitorConversationSummary } from "./visitor-profile-repository.js";
