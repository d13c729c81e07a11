/**
 * The visitor's widget events as other domains reach them (erasure, retention, export): `events` is owned
 * by widget/, whose repository alone holds its SQL.
 */
export { deleteEventsOfConversations, deleteEventsOfVisitors, listEventsToExport } from "./event-repository.js";
