/**
 * The messages' idempotency keys as other domains reach them: `message_idempotency_keys` is owned by
 * answering/ (see answer-message-once.ts). Privacy's erasure forgets a visitor's keys; the retention
 * job purges the expired ones.
 */
export { deleteVisitorIdempotencyKeys as forgetVisitorIdempotencyKeys, deleteExpiredIdempotencyKeys as purgeExpiredIdempotencyKeys } from "./idempotency-key-repository.js";
