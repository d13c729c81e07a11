/**
 * The console's reports on conversations: analytics (outcomes, funnel, top questions, first reply)
 * and the monthly counts the quota is kept in. conversations/ owns the tables they read most; the
 * funnel counts leads and widget events beside them in the same statement.
 */
export { countConversationsPerLabel, countDailyOutcomes, countFunnel, listTopQuestions, medianFirstOperatorReply } from "./conversation-analytics-repository.js";
export type { AnalyticsScope } from "./conversation-analytics-repository.js";
export { listMonthlyConversationCounts } from "./conversation-counter-repository.js";
export { listAnswerReviews } from "./answer-review-repository.js";
export type { AnswerReviewFilter, AnswerReviewRow } from "./answer-review-repository.js";
