import { useEffect, useId, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { ConversationView } from "../conversation/conversation-view.js";
import { ConversationList } from "./conversation-list.js";
import { inboxFilterOf, inboxFilters } from "./inbox-filters.js";
import { useConversationList } from "./use-conversation-list.js";
import { useKeyboardShortcuts } from "../shortcuts/keyboard-shortcuts.js";
import { LabelFilter } from "../labels/label-filter.js";
import { useLabels } from "../labels/use-labels.js";

/** Words typed in the search box reach the URL (and the list's query) after this pause. */
const SEARCH_PAUSE_MS = 300;

/** `?filter=…&q=…&label=…` for the inbox's URLs. */
function inboxQuery(filterId: string, search: string, label: string | null = null): string {
  const parameters = new URLSearchParams({ filter: filterId });
  if (search) parameters.set("q", search);
  if (label) parameters.set("label", label);
  return `?${parameters.toString()}`;
}

/** The inbox: filters, search, the conversation list and the open conversation side by side (one at a time on a narrow screen). */
export function InboxScreen({ conversationId }: { conversationId: string | null }) {
  const parameters = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const filter = inboxFilterOf(parameters.get("filter"));
  const search = (parameters.get("q") ?? "").trim();
  const labels = useLabels();
  // A label deleted since the address was made filters nothing (the server would answer 404).
  const asked = parameters.get("label");
  const label = asked !== null && (!labels.data || labels.data.some((known) => known.id === asked)) ? asked : null;
  const [typed, setTyped] = useState(search);
  const searchId = useId();
  const base = conversationId ? `/inbox/${conversationId}` : "/inbox";
  // j and k open the next and the previous conversation of the list shown (the list's own query, shared).
  const listed = (useConversationList(filter, search).data?.pages ?? []).flatMap((page) => page.data.map((conversation) => conversation.id));
  const openNeighbour = (step: 1 | -1) => {
    const at = conversationId ? listed.indexOf(conversationId) : -1;
    const next = listed[at === -1 ? (step === 1 ? 0 : listed.length - 1) : at + step];
    if (next) navigate(`/inbox/${next}${inboxQuery(filter.id, search)}`);
  };
  useKeyboardShortcuts({ j: () => openNeighbour(1), k: () => openNeighbour(-1) });

  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = window.setTimeout(() => navigate(`${base}${inboxQuery(filter.id, typed.trim(), label)}`, { replace: true }), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [typed, search, label, base, filter.id, navigate]);

  return (
    <div className={`inbox${conversationId ? " has-selection" : ""}`}>
      <section className="inbox-list" aria-labelledby="inbox-title">
        <div className="inbox-list-header">
          <h1 id="inbox-title">Inbox</h1>
          <label htmlFor={searchId} className="visually-hidden">
            Search messages
          </label>
          <input id={searchId} type="search" placeholder="Search messages" value={typed} maxLength={200} onChange={(event) => setTyped(event.target.value)} />
        </div>
        <nav aria-label="Filters" className="filters">
          <ul>
            {inboxFilters.map((option) => (
              <li key={option.id}>
                <Link href={`${base}${inboxQuery(option.id, search, label)}`} className="chip" aria-current={option.id === filter.id ? "true" : undefined}>
                  {option.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <LabelFilter value={label} onChange={(labelId) => navigate(`${base}${inboxQuery(filter.id, search, labelId)}`, { replace: true })} />
        <div className="inbox-list-scroller">
          <ConversationList filter={filter} search={search} label={label} selectedId={conversationId} query={inboxQuery(filter.id, search, label)} />
        </div>
      </section>
      <div className="inbox-detail">
        {conversationId ? (
          <ConversationView key={conversationId} id={conversationId} backTo={`/inbox${inboxQuery(filter.id, search, label)}`} />
        ) : (
          <p className="pane-message">Choose a conversation to read it.</p>
        )}
      </div>
    </div>
  );
}
