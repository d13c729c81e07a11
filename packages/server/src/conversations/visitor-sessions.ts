/**
 * A visitor's session as the widget reaches it: init's group commit (visitors, conversations and the
 * monthly counter in one statement), the conversation a token names, the page the visitor is on.
 */
export { findSessionConversation, recordVisitorPage, startSessions } from "./visitor-session-repository.js";
export type { SessionConversation, SessionStartRequest, SessionStartScope, StartedSession, Visitor } from "./visitor-session-repository.js";
