import { Fragment } from "react";
import { CuratedBadge, FixAnswerButton, questionAnsweredBy } from "../curated/fix-answer-button.js";
import type { ConsoleMessage } from "./merge-messages.js";
import type { ConversationNote } from "./use-notes.js";
import { systemEventText } from "./system-event-text.js";
import { AttachmentList } from "./attachments.js";

const time = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

function authorOf(message: ConsoleMessage): string {
  switch (message.role) {
    case "visitor":
      return "Visitor";
    case "bot":
      return "Assistant";
    case "operator":
      return message.author?.name ?? "Operator";
    case "system":
      return "";
  }
}

function Citations({ message }: { message: ConsoleMessage }) {
  if (message.citations.length === 0) return null;
  return (
    <ol className="citations" aria-label="Sources">
      {message.citations.map((citation) => (
        <li key={citation.id} value={citation.id}>
          <a href={citation.url} target="_blank" rel="noreferrer noopener">
            {citation.title || citation.url}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** An operator's internal note, set apart from the messages: the team's only, never the visitor's. */
function NoteItem({ note }: { note: ConversationNote }) {
  return (
    <li className="note" aria-label={`Internal note by ${note.author.name}`}>
      <div className="message-meta">
        <span className="note-label">
          <svg className="lock-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
            <path d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 1 0-4 0v2z" fill="currentColor" />
          </svg> Internal note
        </span>
        <span className="author">{note.author.name}</span>
        <time dateTime={note.created_at}>{time.format(new Date(note.created_at))}</time>
      </div>
      <div className="note-body">{note.content}</div>
    </li>
  );
}

/** The notes to show before `message`: those written before it (after a seq below its seq). */
function notesBefore(notes: readonly ConversationNote[], shown: Set<string>, message: ConsoleMessage | null): ConversationNote[] {
  const due = notes.filter((note) => !shown.has(note.id) && (message === null || (message.seq !== null && note.after_seq < message.seq)));
  for (const note of due) shown.add(note.id);
  return due;
}

/**
 * The conversation's messages: the visitor's on one side, the assistant's and operators' on the
 * other, system events between them, and the team's notes where they were written (after the
 * message of their `after_seq`), in their own style.
 */
export function Transcript({ messages, lastReadSeq, notes = [] }: { messages: readonly ConsoleMessage[]; lastReadSeq: number | null; notes?: readonly ConversationNote[] }) {
  if (messages.length === 0 && notes.length === 0) return <p className="empty">No messages yet.</p>;
  const shown = new Set<string>();
  return (
    <ol className="transcript">
      {messages.map((message) => (
        <Fragment key={message.id}>
          {notesBefore(notes, shown, message).map((note) => (
            <NoteItem key={note.id} note={note} />
          ))}
          {message.role === "system" ? (
            <li className="system-event">
              <span>{systemEventText(message)}</span> <time dateTime={message.created_at}>{time.format(new Date(message.created_at))}</time>
            </li>
          ) : (
            <li className={`message from-${message.role}`} data-seq={message.seq ?? undefined}>
              <div className="message-meta">
                <span className="author">{authorOf(message)}</span>
                {message.low_confidence && (
                  <span className="badge badge-warning" title="The assistant was not confident in this answer">
                    Low confidence
                  </span>
                )}
                {message.curated_answer_id && <CuratedBadge />}
                <time dateTime={message.created_at}>{time.format(new Date(message.created_at))}</time>
                {message.role === "bot" && <FixAnswerButton reply={message} question={questionAnsweredBy(messages, message)} />}
                {lastReadSeq !== null && message.role === "visitor" && message.seq !== null && message.seq > lastReadSeq && <span className="badge">New</span>}
              </div>
              {message.content && <div className="message-body">{message.content}</div>}
              <AttachmentList attachments={message.attachments} />
              <Citations message={message} />
            </li>
          )}
        </Fragment>
      ))}
      {notesBefore(notes, shown, null).map((note) => (
        <NoteItem key={note.id} note={note} />
      ))}
    </ol>
  );
}
