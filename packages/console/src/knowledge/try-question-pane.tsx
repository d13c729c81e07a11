import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, dataOf, describeError } from "../api/client.js";

/** The stages a question goes through, named for a site owner. */
const STAGE_NAMES: Record<string, string> = {
  curated_answer: "Curated answers",
  person_request: "Asking for a person",
  small_talk: "Small talk",
  follow_up: "Earlier messages",
  retrieval: "Your pages",
  confidence: "Sure or unsure",
  composition: "The answer",
};

/** The badge over the answer: how the bot would reply. */
function AnswerBadge({ decidedBy, lowConfidence, handsOver }: { decidedBy: string; lowConfidence: boolean; handsOver: boolean }) {
  if (handsOver) return <span className="badge badge-syncing">Hands over to a person</span>;
  if (decidedBy === "curated_answer") return <span className="badge badge-indexed">Curated answer</span>;
  if (decidedBy === "small_talk") return <span className="badge badge-indexed">Small talk</span>;
  return lowConfidence ? <span className="badge badge-warning">Unsure</span> : <span className="badge badge-indexed">Sure</span>;
}

/** "Try a question": what the bot would answer, and why, stage by stage and in words: the pages it read and the question's words they hold. Nothing is stored. */
export function TryQuestionPane({ agentId }: { agentId: string }) {
  const [question, setQuestion] = useState("");
  const questionId = useId();
  const attempt = useMutation({
    mutationFn: (asked: string) => dataOf(api.POST("/api/v1/console/knowledge/try", { body: { agent_id: agentId, question: asked } })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (question.trim()) attempt.mutate(question.trim());
  };
  const result = attempt.data?.data;
  return (
    <section className="try-pane" aria-labelledby="try-title">
      <h2 id="try-title">Try a question</h2>
      <form onSubmit={submit} className="try-form">
        <label htmlFor={questionId} className="visually-hidden">
          Question
        </label>
        <input id={questionId} type="text" placeholder="A question a visitor might ask" value={question} maxLength={2000} onChange={(event) => setQuestion(event.target.value)} />
        <button type="submit" className="primary" disabled={attempt.isPending || !question.trim()}>
          {attempt.isPending ? "Trying…" : "Try"}
        </button>
      </form>
      {attempt.isError && (
        <p className="error" role="alert">
          {describeError(attempt.error)}
        </p>
      )}
      {result && (
        <div className="try-result" aria-live="polite">
          <section aria-labelledby="try-answer-title" className="try-answer">
            <h3 id="try-answer-title">
              The answer <AnswerBadge decidedBy={result.decided_by} lowConfidence={result.answer.low_confidence} handsOver={result.answer.hands_over} />
            </h3>
            {result.answer.hands_over ? (
              <p className="muted">The bot would say nothing more: the conversation would wait for someone of your team.</p>
            ) : (
              <p className="try-answer-text">{result.answer.content}</p>
            )}
            {result.answer.error && <p className="error">The generator failed: {result.answer.error.message}</p>}
            {result.answer.citations.length > 0 && (
              <ol className="citations" aria-label="Citations">
                {result.answer.citations.map((citation) => (
                  <li key={citation.id}>
                    <a href={citation.url} target="_blank" rel="noreferrer">
                      {citation.title ?? citation.url}
                    </a>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="try-why-title">
            <h3 id="try-why-title">Why</h3>
            <ol className="try-steps" aria-label="How the bot decided">
              {result.steps.map((step) => (
                <li key={step.stage} className={step.stage === result.decided_by ? "try-step try-step-decided" : "try-step"}>
                  <span className="try-step-name">{STAGE_NAMES[step.stage] ?? step.stage}</span>
                  <span>{step.summary}</span>
                </li>
              ))}
            </ol>
            {result.unknown_words.length > 0 && (
              <p className="small">
                No page of your knowledge uses{" "}
                <span className="word-list">
                  {result.unknown_words.map((word) => (
                    <mark key={word} className="word-missing">
                      {word}
                    </mark>
                  ))}
                </span>
                . A page about it would let the bot answer.
              </p>
            )}
          </section>
          {result.passages.length > 0 && (
            <section aria-labelledby="try-passages-title">
              <h3 id="try-passages-title">What the bot read ({result.passages.length})</h3>
              <ol className="passages" aria-label="Passages">
                {result.passages.map((passage) => (
                  <li key={`${passage.document_id}-${passage.number}`} className="passage">
                    <div className="passage-top">
                      <span className="passage-number">[{passage.number}]</span>
                      <a href={passage.url} target="_blank" rel="noreferrer" className="passage-title">
                        {passage.title || passage.url}
                      </a>
                      {passage.cited && <span className="badge badge-indexed">Cited</span>}
                    </div>
                    {passage.heading && <p className="muted small">{passage.heading}</p>}
                    <p className="small passage-words">
                      {passage.matched_words.length === 0 ? (
                        <span className="muted">Shares no word with the question.</span>
                      ) : (
                        <>
                          Holds the question's{" "}
                          <span className="word-list">
                            {passage.matched_words.map((word) => (
                              <mark key={word} className="word-matched">
                                {word}
                              </mark>
                            ))}
                          </span>
                        </>
                      )}
                    </p>
                    <p className="passage-content">{passage.content}</p>
                  </li>
                ))}
              </ol>
            </section>
          )}
          <p className="muted small">Written by {result.answer.generator}.</p>
        </div>
      )}
    </section>
  );
}
