import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { describeError } from "../api/client.js";
import { useOperator } from "../session.js";
import { lastSeqOf } from "./merge-messages.js";
import { StatusBadge } from "./status-badge.js";
import { VerifiedBadge, VerifiedVisitor, visitorName } from "./verified-visitor.js";
import { ReplyBox } from "./reply-box.js";
import { Transcript } from "./transcript.js";
import { useConversation, type Conversation } from "./use-conversation.js";
import { useConversationActions } from "./use-conversation-actions.js";
import { useReadNotificationsOf } from "../inbox/use-notifications.js";
import { AlsoHere, colleaguesTypingText } from "./collision.js";
import { useConversationPresence } from "./use-conversation-presence.js";
import { ComposerModes, type ComposerMode } from "./composer-modes.js";
import { NoteBox } from "./note-box.js";
import { useNotes } from "./use-notes.js";
import { useKeyboardShortcuts } from "../shortcuts/keyboard-shortcuts.js";
import "./workbench.css";
import { ConversationLabels } from "../labels/conversation-labels.js";
import { VisitorProfilePanel } from "./visitor-profile.js";
import { SnoozeMenu } from "./snooze-menu.js";

function VisitorDetails({ conversation }: { conversation: Conversation }) {
  const { satisfaction, coupon } = conversation;
  const rows: [string, string][] = [];
  if (conversation.human_request_reason) rows.push(["Asked for a person", conversation.human_request_reason]);
  if (satisfaction) rows.push(["Satisfaction", `${satisfaction.rating === "good" ? "Good" : "Bad"}${satisfaction.comment ? ` — “${satisfaction.comment}”` : ""}`]);
  if (coupon) rows.push(["Coupon", coupon.code]);
  return (
    <aside className="visitor-details" aria-label="About the visitor">
      <h3>About the visitor</h3>
      <VerifiedVisitor identity={conversation.visitor.identity} />
      {rows.length > 0 && (
        <dl>
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <VisitorProfilePanel conversationId={conversation.id} />
    </aside>
  );
}

/** One conversation: its transcript, live, and what the operator can do with it. */
export function ConversationView({ id, backTo }: { id: string; backTo: string }) {
  const operator = useOperator();
  const { query, live, visitorTyping, update } = useConversation(id);
  const actions = useConversationActions(id, update);
  const presence = useConversationPresence(id);
  const notes = useNotes(id, update, Boolean(query.data));
  const [mode, setMode] = useState<ComposerMode>("reply");
  const [replyFocus, setReplyFocus] = useState(0);
  const noteInput = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (mode === "note") noteInput.current?.focus();
  }, [mode]);
  useReadNotificationsOf(id);
  const scroller = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Handing back or closing removes the button that had the focus: it goes to the conversation's title.
  const settledAt = Math.max(actions.release.submittedAt, actions.close.submittedAt);
  const settled = actions.release.isSuccess || actions.close.isSuccess;
  useEffect(() => {
    if (settled) heading.current?.focus();
  }, [settled, settledAt]);
  const shortcuts = useRef<Record<string, (() => void) | undefined>>({});
  useKeyboardShortcuts({
    t: () => shortcuts.current["t"]?.(),
    r: () => shortcuts.current["r"]?.(),
    n: () => shortcuts.current["n"]?.(),
    h: () => shortcuts.current["h"]?.(),
    C: () => shortcuts.current["C"]?.(),
  });
  const conversation = query.data;
  const lastSeq = conversation ? lastSeqOf(conversation.messages) : 0;
  const messageCount = conversation?.messages.length ?? 0;

  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [id, messageCount, lastSeq, visitorTyping, conversation?.notes.length]);

  if (query.isPending) return <p className="pane-message">Loading the conversation…</p>;
  if (query.isError || !conversation) {
    return (
      <p className="pane-message" role="alert">
        {describeError(query.error)}
      </p>
    );
  }

  const mine = conversation.status === "human" && conversation.assignee?.id === operator.id;
  const takenByColleague = conversation.status === "human" && conversation.assignee !== null && !mine;
  // The server's rule: a `human` conversation whose assignee was removed may be taken over by anyone.
  const orphaned = conversation.status === "human" && conversation.assignee === null;
  const failed = [actions.assign, actions.release, actions.close].find((mutation) => mutation.isError);
  const busy = actions.assign.isPending || actions.release.isPending || actions.close.isPending;
  const title = visitorName(conversation.visitor);
  const canTakeOver = conversation.status === "bot" || conversation.status === "awaiting_human" || orphaned;
  // The keyboard's take over, reply, note, hand back and close (listed under `?`): what the buttons allow, nothing more.
  shortcuts.current = {
    t: canTakeOver && !busy ? () => actions.assign.mutate() : undefined,
    r: () => {
      setMode("reply");
      setReplyFocus((count) => count + 1);
    },
    n: () => (mode === "note" ? noteInput.current?.focus() : setMode("note")),
    h: mine && !busy ? () => actions.release.mutate() : undefined,
    C: conversation.status !== "closed" && !busy ? () => actions.close.mutate() : undefined,
  };

  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-header">
        <Link href={backTo} className="back-link">
          <span aria-hidden="true">←</span> Inbox
        </Link>
        <div className="conversation-title">
          <h2 id="conversation-title" ref={heading} tabIndex={-1}>
            {title}
          </h2>
          <p className="conversation-state">
            <StatusBadge status={conversation.status} />
            {conversation.visitor.identity && <VerifiedBadge />}
            {conversation.assignee && conversation.status !== "bot" && <span className="muted">Assigned to {mine ? "you" : conversation.assignee.name}</span>}
          </p>
          <AlsoHere others={presence.others} />
          <ConversationLabels conversationId={conversation.id} labels={conversation.labels} onChange={(labels) => update((current) => ({ ...current, labels }))} />
        </div>
        <div className="actions" role="group" aria-label="Conversation actions">
          {canTakeOver && (
            <button type="button" className="primary" disabled={busy} onClick={() => actions.assign.mutate()}>
              Take over
            </button>
          )}
          {mine && (
            <button type="button" disabled={busy} onClick={() => actions.release.mutate()}>
              Hand back to the assistant
            </button>
          )}
          {conversation.status !== "closed" && <SnoozeMenu conversationId={id} snooze={conversation.snooze} onChange={(snooze) => update((current) => ({ ...current, snooze }))} />}
          {conversation.status !== "closed" && (
            <button type="button" disabled={busy} onClick={() => actions.close.mutate()}>
              Close
            </button>
          )}
        </div>
      </header>
      {failed && (
        <p role="alert" className="error banner">
          {describeError(failed.error)}
        </p>
      )}
      <div className="conversation-body">
        <div className="transcript-column">
          <div className="transcript-scroller" ref={scroller} role="log" aria-label="Transcript" tabIndex={0} data-live={live}>
            {conversation.has_earlier_messages && <p className="muted centered">Earlier messages are not shown.</p>}
            <Transcript messages={conversation.messages} lastReadSeq={null} notes={conversation.notes} />
          </div>
          <p className="typing-indicator" aria-live="polite">
            {[visitorTyping ? "The visitor is typing…" : "", colleaguesTypingText(presence.others)].filter(Boolean).join(" ")}
          </p>
          <div className="composer">
            <ComposerModes mode={mode} onChange={setMode} />
            {mode === "note" ? (
              <NoteBox ref={noteInput} onAdd={(content) => notes.add.mutateAsync(content)} adding={notes.add.isPending} />
            ) : mine || takenByColleague ? (
              <ReplyBox
                onSend={(content, attachment_ids, idempotencyKey) => actions.reply.mutateAsync({ content, attachment_ids, idempotencyKey })}
                onKeystroke={() => {
                  actions.keystroke();
                  presence.keystroke();
                }}
                onStopTyping={() => {
                  actions.stopTyping();
                  presence.stopTyping();
                }}
                sending={actions.reply.isPending}
                focusOnShow={actions.assign.isSuccess}
                conversationId={id}
                focusRequest={replyFocus}
                disabledReason={takenByColleague ? `${conversation.assignee?.name ?? "Another operator"} has this conversation. Only the operator it is assigned to can reply.` : null}
              />
            ) : (
              <p className="composer-note">
                {conversation.status === "closed"
                  ? "This conversation is closed. It reopens with the assistant if the visitor writes again."
                  : orphaned
                    ? "Nobody has this conversation any more: take over to reply."
                    : conversation.status === "awaiting_human"
                      ? "The visitor is waiting for a person: take over to reply."
                      : "The assistant is answering. Take over to reply yourself."}
              </p>
            )}
          </div>
        </div>
        <VisitorDetails conversation={conversation} />
      </div>
    </section>
  );
}
