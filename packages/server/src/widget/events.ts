/**
 * The visitor's widget events as other domains reach them (erasure, retention): `events` is owned
 * by widget/, whose repository alone holds its SQL.
 */
export { deleteEventsOfConversations, deleteEventsOfVisitors } from "./event-repository.js";
