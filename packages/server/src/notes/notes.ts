/**
 * Internal notes as other domains, the console and the CLI reach them: `conversation_notes` is
 * owned by notes/, whose repository alone holds its SQL. Erasure and retention delete a
 * conversation's notes through here; the conversation's detail lists them.
 */
export { addNote } from "./add-note.js";
export { deleteNotesOfConversations, findNote, listConversationNotes } from "./note-repository.js";
