/**
 * E-mail as other domains reach it: `mail_messages`, `mail_attempts`, `mail_alert_preferences` and
 * `mail_digest_items` are owned by mail/. Erasure calls forgetVisitorMails.
 */
export { forgetVisitorMails } from "./forget-visitor-mails.js";
