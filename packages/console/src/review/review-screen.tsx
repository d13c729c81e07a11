import { useId } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { describeError, type Schemas } from "../api/client.js";
import { useAgentList } from "../agents/use-agents.js";
import { FixAnswerButton } from "../curated/fix-answer-button.js";
import { AgentPicker } from "../knowledge/agent-picker.js";
import { explainAnswer } from "./explain-answer.js";
import { useAnswerReviews, type ReviewFilters } from "./use-answer-reviews.js";
import "./review.css";

type AnswerReview = Schemas["AnswerReview"];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function filtersOf(search: string): ReviewFilters {
  const parameters = new URLSearchParams(search);
  const rating = parameters.get("rating");
  const curated = parameters.get("curated");
  const day = (name: string) => (DAY.test(parameters.get(name) ?? "") ? parameters.get(name)! : "");
  return {
    agentId: parameters.get("agent") ?? "",
    rating: rating === "up" || rating === "down" ? rating : "",
    unsure: parameters.get("unsure") === "1",
    noCitation: parameters.get("uncited") === "1",
    curated: curated === "true" || curated === "false" ? curated : "",
    from: day("from"),
    to: day("to"),
  };
}

function queryOf(filters: ReviewFilters): string {
  const parameters = new URLSearchParams();
  if (filters.agentId) parameters.set("agent", filters.agentId);
  if (filters.rating) parameters.set("rating", filters.rating);
  if (filters.unsure) parameters.set("unsure", "1");
  if (filters.noCitation) parameters.set("uncited", "1");
  if (filters.curated) parameters.set("curated", filters.curated);
  if (filters.from) parameters.set("from", filters.from);
  if (filters.to) parameters.set("to", filters.to);
  const query = parameters.toString();
  return query ? `?${query}` : "";
}

function ReviewCard({ review, agentName }: { review: AnswerReview; agentName: string }) {
  const headingId = useId();
  const reasons = review.trace ? explainAnswer(review.trace) : [];
  return (
    <article className="review-card" aria-labelledby={headingId}>
      <header className="review-card-head">
        <h2 id={headingId} className="review-question">
          {review.question || <span className="muted">(no question)</span>}
        </h2>
        <p className="review-meta">
          <time dateTime={review.created_at}>{when.format(new Date(review.created_at))}</time> · {agentName}
        </p>
        <ul className="review-badges" aria-label="Flags">
          {review.rating && (
            <li className={`badge ${review.rating.rating === "down" ? "badge-danger" : "badge-success"}`}>{review.rating.rating === "down" ? "Rated down" : "Rated up"}</li>
          )}
          {review.low_confidence && <li className="badge badge-warning">Unsure</li>}
          {review.curated_answer_id && <li className="badge badge-curated">Curated</li>}
          {review.citations.length === 0 && <li className="badge">No citation</li>}
        </ul>
      </header>
      <p className="review-answer">{review.answer}</p>
      {review.rating?.comment && (
        <blockquote className="review-comment">
          <span className="visually-hidden">The visitor's comment: </span>
          {review.rating.comment}
        </blockquote>
      )}
      {review.citations.length > 0 && (
        <ul className="review-citations" aria-label="Cited pages">
          {review.citations.map((citation) => (
            <li key={citation.id}>
              <a href={citation.url} target="_blank" rel="noreferrer">
                {citation.title ?? citation.url}
              </a>
            </li>
          ))}
        </ul>
      )}
      <details className="review-why">
        <summary>Why this answer</summary>
        {review.trace ? (
          <>
            <ul>
              {reasons.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            {review.trace.passages.length > 0 && (
              <ol className="review-passages" aria-label="Passages it read">
                {review.trace.passages.map((passage, index) => (
                  <li key={`${passage.url}-${index}`}>
                    <a href={passage.url} target="_blank" rel="noreferrer">
                      {passage.title || passage.url}
                    </a>
                    {passage.heading && <span className="muted"> · {passage.heading}</span>}
                    {passage.cited && <span className="badge">Cited</span>}
                    <p>{passage.excerpt}</p>
                  </li>
                ))}
              </ol>
            )}
          </>
        ) : (
          <p className="muted">Not recorded for answers given before the reason was kept.</p>
        )}
      </details>
      <footer className="review-actions">
        <FixAnswerButton reply={{ id: review.id, content: review.answer }} question={review.question} />
        <Link href={`/inbox/${review.conversation_id}`}>Open the conversation</Link>
      </footer>
    </article>
  );
}

/** The review queue: every bot answer, newest first, filtered as the URL says, each with its question, reason and "Fix this answer". */
export function ReviewScreen() {
  const filters = filtersOf(useSearch());
  const [, navigate] = useLocation();
  const agents = useAgentList();
  const reviews = useAnswerReviews(filters);
  const ids = { rating: useId(), curated: useId(), from: useId(), to: useId() };
  const change = (patch: Partial<ReviewFilters>) => navigate(`/review${queryOf({ ...filters, ...patch })}`, { replace: true });
  const agentNames = new Map((agents.data ?? []).map((agent) => [agent.id, agent.name]));
  const rows = reviews.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = queryOf(filters) !== "";
  return (
    <div className="review">
      <header className="review-header">
        <h1>Review answers</h1>
      </header>
      <form className="review-filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        {agents.data && <AgentPicker agents={agents.data} value={filters.agentId} allLabel="All agents" onChange={(agentId) => change({ agentId })} />}
        <div className="review-field">
          <label htmlFor={ids.rating}>Rating</label>
          <select id={ids.rating} value={filters.rating} onChange={(event) => change({ rating: event.target.value as ReviewFilters["rating"] })}>
            <option value="">Any</option>
            <option value="down">Rated down</option>
            <option value="up">Rated up</option>
          </select>
        </div>
        <div className="review-field">
          <label htmlFor={ids.curated}>Source</label>
          <select id={ids.curated} value={filters.curated} onChange={(event) => change({ curated: event.target.value as ReviewFilters["curated"] })}>
            <option value="">Any</option>
            <option value="true">Curated answers</option>
            <option value="false">Not curated</option>
          </select>
        </div>
        <label className="review-check">
          <input type="checkbox" checked={filters.unsure} onChange={(event) => change({ unsure: event.target.checked })} /> Flagged unsure
        </label>
        <label className="review-check">
          <input type="checkbox" checked={filters.noCitation} onChange={(event) => change({ noCitation: event.target.checked })} /> No citation
        </label>
        <div className="review-field">
          <label htmlFor={ids.from}>From</label>
          <input id={ids.from} type="date" value={filters.from} onChange={(event) => change({ from: event.target.value })} />
        </div>
        <div className="review-field">
          <label htmlFor={ids.to}>To</label>
          <input id={ids.to} type="date" value={filters.to} onChange={(event) => change({ to: event.target.value })} />
        </div>
      </form>
      {reviews.isPending && <p className="pane-message">Loading answers…</p>}
      {reviews.isError && (
        <p className="pane-message" role="alert">
          {describeError(reviews.error)}
        </p>
      )}
      {reviews.data && rows.length === 0 && (
        <p className="pane-message">{filtered ? "No answer matches these filters." : "No answers yet: they appear as the bot answers visitors."}</p>
      )}
      {rows.length > 0 && (
        <div className="review-list">
          {rows.map((review) => (
            <ReviewCard key={review.id} review={review} agentName={agentNames.get(review.agent_id) ?? review.agent_id} />
          ))}
        </div>
      )}
      {reviews.hasNextPage && (
        <button type="button" className="load-more" disabled={reviews.isFetchingNextPage} onClick={() => void reviews.fetchNextPage()}>
          {reviews.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
    </div>
  );
}
