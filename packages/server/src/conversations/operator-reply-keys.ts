/**
 * Operators' reply keys as other domains reach them: `operator_reply_keys` is owned by
 * conversations/ (see reply-as-operator.ts). The retention job purges the expired ones.
 */
export { deleteExpiredReplyKeys as purgeExpiredReplyKeys } from "./operator-reply-key-repository.js";
