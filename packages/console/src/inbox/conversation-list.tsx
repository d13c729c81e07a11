import { useEffect, useState } from "react";
import { Link } from "wouter";
import { describeError, type Schemas } from "../api/client.js";
import { StatusBadge } from "../conversation/status-badge.js";
import { snoozeTimeLabel } from "../conversation/snooze-times.js";
import { VerifiedBadge, visitorName } from "../conversation/verified-visitor.js";
import type { InboxFilter } from "./inbox-filters.js";
import { LabelChips } from "../labels/label-chip.js";
import { useConversationList } from "./use-conversation-list.js";

type Summary = Schemas["ConsoleConversationSummary"];

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto", style: "short" });
function ago(iso: string): string {
  const seconds = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  if (Math.abs(seconds) < 60) return relative.format(0, "minute");
  if (Math.abs(seconds) < 3600) return relative.format(Math.round(seconds / 60), "minute");
  if (Math.abs(seconds) < 86400) return relative.format(Math.round(seconds / 3600), "hour");
  return relative.format(Math.round(seconds / 86400), "day");
}

const ROLE_PREFIX: Record<NonNullable<Summary["last_message"]>["role"], string> = { visitor: "", bot: "Assistant: ", operator: "Team: ", system: "" };

function ConversationRow({ conversation, selected, query }: { conversation: Summary; selected: boolean; query: string }) {
  const unread = conversation.unread_count;
  const name = visitorName(conversation.visitor);
  return (
    <li className={`conversation-row${selected ? " selected" : ""}${unread > 0 ? " unread" : ""}`}>
      <Link href={`/inbox/${conversation.id}${query}`} aria-current={selected ? "page" : undefined}>
        <span className="row-top">
          <span className="row-name">
            {name} {conversation.visitor.identity && <VerifiedBadge />}
          </span>
          <time dateTime={conversation.last_activity_at}>{ago(conversation.last_activity_at)}</time>
        </span>
        <span className="row-excerpt">
          {conversation.last_message ? `${ROLE_PREFIX[conversation.last_message.role]}${conversation.last_message.excerpt}` : "No messages yet"}
        </span>
        <span className="row-bottom">
          <StatusBadge status={conversation.status} />
          {conversation.assignee && conversation.status === "human" && <span className="muted">{conversation.assignee.name}</span>}
          <LabelChips labels={conversation.labels} />
          {conversation.snooze && (
            <span className="muted snoozed-until">{conversation.snooze.until ? `Snoozed until ${snoozeTimeLabel(new Date(conversation.snooze.until))}` : "Snoozed until the visitor replies"}</span>
          )}
          {unread > 0 && (
            <span className="unread-count" aria-label={`${unread} unread`}>
              {unread}
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}

/** The conversations of the chosen filter, kept current by the workspace channel. */
export function ConversationList({ filter, search, label = null, selectedId, query }: { filter: InboxFilter; search: string; label?: string | null; selectedId: string | null; query: string }) {
  const list = useConversationList(filter, search, label);
  // "2 min ago" stays true: the list re-renders every half minute.
  const [, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  if (list.isPending) return <p className="pane-message">Loading conversations…</p>;
  if (list.isError) return <p className="pane-message" role="alert">{describeError(list.error)}</p>;
  const conversations = list.data.pages.flatMap((page) => page.data);
  if (conversations.length === 0) return <p className="pane-message">{search ? "No conversation matches these words." : label ? "No conversation here carries this label." : "No conversations here."}</p>;
  return (
    <>
      <ul className="conversation-list" aria-label={`Conversations: ${filter.label}`}>
        {conversations.map((conversation) => (
          <ConversationRow key={conversation.id} conversation={conversation} selected={conversation.id === selectedId} query={query} />
        ))}
      </ul>
      {list.hasNextPage && (
        <button type="button" className="load-more" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
    </>
  );
}
