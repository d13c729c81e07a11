/**
 * A visitor's session as the widget reaches it: init's group commit (visitors, conversations and the
 * monthly counter in one statement), the conversation a token (or an e-mailed resume link) names, the page the visitor is on.
 */
export { findResumableConversation, findSessionConversation, recordVisitorPage, startSessions, visitorKey } from "./visitor-session-repository.js";
export type { SessionConversation, SessionStartRequest, SessionStartScope, StartedSession, Visitor } from "./visitor-session-repository.js";
