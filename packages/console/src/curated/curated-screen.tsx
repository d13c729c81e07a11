import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { useAgentList } from "../agents/use-agents.js";
import { describeError } from "../api/client.js";
import { AgentPicker } from "../knowledge/agent-picker.js";
import { ConfirmDialog } from "../settings/confirm-dialog.js";
import { FixAnswerDialog, useDialogOpener, type CuratedDraft } from "./fix-answer-dialog.js";
import { useCuratedAnswerMutations, useCuratedAnswers, useCuratedLive, useKnowledgeGaps, type CuratedAnswer, type KnowledgeGap } from "./use-curated-answers.js";
import "./curated.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const shortDate = (iso: string) => dateFormat.format(new Date(iso));

/** Opens the Knowledge screen's add form for the agent: the screen is shown, then its form is scrolled to and focused. */
function useAddSource() {
  const [, navigate] = useLocation();
  return (agentId: string) => {
    navigate(`/knowledge?agent=${encodeURIComponent(agentId)}`);
    let frames = 0;
    const reach = () => {
      const form = document.getElementById("add-source-title")?.closest("form");
      const first = form?.querySelector<HTMLElement>("input:checked, input");
      if (form && first) {
        form.scrollIntoView({ block: "start" });
        first.focus();
      } else if ((frames += 1) < 120) window.requestAnimationFrame(reach);
    };
    window.requestAnimationFrame(reach);
  };
}

function GapList({ agentId, gaps, onAnswer }: { agentId: string; gaps: KnowledgeGap[]; onAnswer: (gap: KnowledgeGap, from: HTMLElement) => void }) {
  const addSource = useAddSource();
  if (gaps.length === 0) return <p className="muted">No low-confidence answers in the last 30 days.</p>;
  return (
    <ol className="curated-gaps" aria-label="Knowledge gaps, most frequent first">
      {gaps.map((gap) => (
        <li key={`${gap.question}-${gap.last_asked_at}`} className="curated-gap">
          <div className="curated-gap-top">
            <span className="curated-count" aria-label={`Asked ${gap.count} ${gap.count === 1 ? "time" : "times"}`}>
              {gap.count}×
            </span>
            <span className="curated-question">{gap.question}</span>
            {gap.curated_answer_id && <span className="badge badge-curated">Answered</span>}
          </div>
          {gap.questions.length > 1 && (
            <ul className="curated-examples" aria-label="Similar questions">
              {gap.questions.slice(1).map((example) => (
                <li key={example}>{example}</li>
              ))}
            </ul>
          )}
          <div className="curated-gap-actions">
            <span className="muted small">Last asked {shortDate(gap.last_asked_at)}</span>
            <button type="button" aria-haspopup="dialog" onClick={(event) => onAnswer(gap, event.currentTarget)}>
              Answer it<span className="visually-hidden">: {gap.question}</span>
            </button>
            <button type="button" onClick={() => addSource(agentId)}>
              Add a source<span className="visually-hidden"> for: {gap.question}</span>
            </button>
          </div>
        </li>
      ))}
    </ol>
  );
}

function CuratedList({ answers, onEdit }: { answers: CuratedAnswer[]; onEdit: (curated: CuratedAnswer, from: HTMLElement) => void }) {
  const { remove } = useCuratedAnswerMutations();
  const [deleting, setDeleting] = useState<CuratedAnswer | null>(null);
  if (answers.length === 0) return <p className="muted">None yet: use "Fix this answer" on a reply in a conversation, or "Answer it" on a gap.</p>;
  return (
    <>
      <ul className="curated-answers" aria-label="Curated answers, newest first">
        {answers.map((curated) => (
          <li key={curated.id} className="curated-answer">
            {curated.question ? (
              <p className="curated-question">{curated.question}</p>
            ) : (
              <p className="curated-question curated-question-erased">
                No question: it was a visitor's own words, erased with their data. Edit it to write the question in your own words; until then this answer is never used.
              </p>
            )}
            <p className="curated-text">{curated.answer}</p>
            {curated.source_url && (
              <a href={curated.source_url} target="_blank" rel="noreferrer noopener" className="curated-source">
                {curated.source_url}
              </a>
            )}
            <div className="curated-gap-actions">
              <span className="muted small">Changed {shortDate(curated.updated_at)}</span>
              <button type="button" aria-haspopup="dialog" onClick={(event) => onEdit(curated, event.currentTarget)}>
                Edit<span className="visually-hidden">: {curated.question || curated.answer.slice(0, 60)}</span>
              </button>
              <button type="button" className="curated-danger" onClick={() => setDeleting(curated)}>
                Delete<span className="visually-hidden">: {curated.question || curated.answer.slice(0, 60)}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      {deleting && (
        <ConfirmDialog
          title="Delete this curated answer?"
          confirmLabel="Delete"
          pending={remove.isPending}
          error={remove.error ? describeError(remove.error) : null}
          onCancel={() => {
            setDeleting(null);
            remove.reset();
          }}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}>
          <p>
            “{deleting.question}” will be answered from the knowledge again. Replies already sent keep their curated mark.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** Curated answers and knowledge gaps of an agent (`?agent=`), live from the workspace channel. */
export function CuratedScreen() {
  const agents = useAgentList();
  const [, navigate] = useLocation();
  const chosen = new URLSearchParams(useSearch()).get("agent");
  const agent = agents.data?.find((candidate) => candidate.id === chosen) ?? agents.data?.[0] ?? null;
  const curated = useCuratedAnswers(agent?.id ?? null);
  const gaps = useKnowledgeGaps(agent?.id ?? null);
  useCuratedLive();
  const dialog = useDialogOpener<CuratedDraft>();

  return (
    <div className="curated">
      <header className="knowledge-header">
        <h1>Curated answers</h1>
        {agents.data && agents.data.length > 0 && agent && (
          <AgentPicker agents={agents.data} value={agent.id} onChange={(agentId) => navigate(`/curated?agent=${encodeURIComponent(agentId)}`, { replace: true })} />
        )}
      </header>
      {agents.isPending && <p className="pane-message">Loading…</p>}
      {agents.isError && (
        <p className="pane-message" role="alert">
          {describeError(agents.error)}
        </p>
      )}
      {agents.data && !agent && <p className="pane-message">No agent yet: create one in Agents first.</p>}
      {agent && (
        <div className="curated-columns">
          <section aria-labelledby="gaps-title" className="curated-panel">
            <h2 id="gaps-title">Knowledge gaps</h2>
            <p className="muted small">Questions {agent.name} answered with low confidence in the last 30 days, similar ones together.</p>
            {gaps.isPending && <p className="muted">Loading the gaps…</p>}
            {gaps.isError && (
              <p className="error" role="alert">
                {describeError(gaps.error)}
              </p>
            )}
            {gaps.data && <GapList agentId={agent.id} gaps={gaps.data.gaps} onAnswer={(gap, from) => dialog.show({ kind: "question", agentId: agent.id, question: gap.question }, from)} />}
          </section>
          <section aria-labelledby="curated-title" className="curated-panel">
            <h2 id="curated-title">Curated answers of {agent.name}</h2>
            {curated.isPending && <p className="muted">Loading the curated answers…</p>}
            {curated.isError && (
              <p className="error" role="alert">
                {describeError(curated.error)}
              </p>
            )}
            {curated.data && <CuratedList answers={curated.data} onEdit={(answer, from) => dialog.show({ kind: "edit", curated: answer }, from)} />}
          </section>
        </div>
      )}
      {dialog.open && <FixAnswerDialog draft={dialog.open} onClose={() => dialog.close()} />}
    </div>
  );
}
