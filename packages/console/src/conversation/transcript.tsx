import { Fragment } from "react";
import { CuratedBadge, FixAnswerButton, questionAnsweredBy } from "../curated/fix-answer-button.js";
import type { ConsoleMessage } from "./merge-messages.js";
import { systemEventText } from "./system-event-text.js";

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

/** The conversation's messages: the visitor's on one side, the assistant's and operators' on the other, system events between them. */
export function Transcript({ messages, lastReadSeq }: { messages: readonly ConsoleMessage[]; lastReadSeq: number | null }) {
  if (messages.length === 0) return <p className="empty">No messages yet.</p>;
  return (
    <ol className="transcript">
      {messages.map((message) => (
        <Fragment key={message.id}>
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
              <div className="message-body">{message.content}</div>
              <Citations message={message} />
            </li>
          )}
        </Fragment>
      ))}
    </ol>
  );
}
