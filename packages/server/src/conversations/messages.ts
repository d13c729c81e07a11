/**
 * Messages as other domains write and read them (the bot's reply, the recent turns an answer reads):
 * `messages` is owned by conversations/, whose repositories alone hold its SQL; every insert marks
 * its conversation active and takes its next event seq in the same statement.
 */
export { insertBotReply, insertMessage, insertVisitorQuestion, readVisitorQuestion } from "./message-repository.js";
export type { NewMessage, StoredMessage, StoredQuestion } from "./message-repository.js";
export { listRecentMessages } from "./visitor-session-repository.js";
export { findQuestionOfBotMessage, listLowConfidenceQuestions } from "./bot-reply-question-repository.js";
