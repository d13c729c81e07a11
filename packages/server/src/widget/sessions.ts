/**
 * A visitor's session as other domains read it (the recent messages the answer reads, the page a
 * visitor is on): `visitors` is owned by widget/, whose repository alone holds its SQL.
 */
export { listRecentMessages, recordVisitorPage } from "./session-repository.js";
