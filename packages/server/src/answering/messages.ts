/**
 * Messages as other domains write them (an operator's reply, a system message): `messages` is
 * owned by answering/, whose repository alone holds its SQL.
 */
export { insertMessage, insertVisitorQuestion } from "./message-repository.js";
export type { StoredQuestion } from "./message-repository.js";
