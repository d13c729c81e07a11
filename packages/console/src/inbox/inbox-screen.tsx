import { Link, useSearch } from "wouter";
import { ConversationView } from "../conversation/conversation-view.js";
import { ConversationList } from "./conversation-list.js";
import { inboxFilterOf, inboxFilters } from "./inbox-filters.js";

/** The inbox: the filters, the conversation list and the open conversation side by side (one at a time on a narrow screen). */
export function InboxScreen({ conversationId }: { conversationId: string | null }) {
  const search = useSearch();
  const filter = inboxFilterOf(new URLSearchParams(search).get("filter"));
  return (
    <div className={`inbox${conversationId ? " has-selection" : ""}`}>
      <section className="inbox-list" aria-labelledby="inbox-title">
        <div className="inbox-list-header">
          <h1 id="inbox-title">Inbox</h1>
        </div>
        <nav aria-label="Filters" className="filters">
          <ul>
            {inboxFilters.map((option) => (
              <li key={option.id}>
                <Link href={`${conversationId ? `/inbox/${conversationId}` : "/inbox"}?filter=${option.id}`} className="chip" aria-current={option.id === filter.id ? "true" : undefined}>
                  {option.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="inbox-list-scroller">
          <ConversationList filter={filter} selectedId={conversationId} />
        </div>
      </section>
      <div className="inbox-detail">
        {conversationId ? (
          <ConversationView key={conversationId} id={conversationId} />
        ) : (
          <p className="pane-message">Choose a conversation to read it.</p>
        )}
      </div>
    </div>
  );
}
