/**
 * A conversation's messages after a seq, as the console reads them.
 */
export { listMessagesAfterSeq } from "./message-listing-repository.js";
