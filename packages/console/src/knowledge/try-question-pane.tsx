import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, dataOf, describeError } from "../api/client.js";

const score = (value: number, digits = 2) => value.toFixed(digits);

/** A signal against its threshold: the bound and whether the value meets it, in words (not only in colour). */
function Threshold({ met, bound }: { met: boolean; bound: string }) {
  return (
    <td>
      {bound} <span className={met ? "signal-met" : "signal-missed"}>{met ? "(met)" : "(missed)"}</span>
    </td>
  );
}

/** "Try a question": what the bot would retrieve (passages and their scores), how sure it would be, and what it would answer. Nothing is stored. */
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
  const signals = result?.confidence.signals;
  const thresholds = result?.confidence.thresholds;
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
      {result && signals && thresholds && (
        <div className="try-result" aria-live="polite">
          <section aria-labelledby="try-answer-title" className="try-answer">
            <h3 id="try-answer-title">
              The answer{" "}
              {result.answer.low_confidence ? <span className="badge badge-warning">Low confidence</span> : <span className="badge badge-indexed">Confident</span>}
            </h3>
            <p className="try-answer-text">{result.answer.content}</p>
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
            <p className="muted small">Written by {result.answer.generator}.</p>
          </section>
          <section aria-labelledby="try-confidence-title">
            <h3 id="try-confidence-title">Confidence: {score(result.confidence.score)}</h3>
            <p className="muted small">
              {result.confidence.low_confidence
                ? "Retrieval found nothing relevant enough: the bot says so and offers a person."
                : "Retrieval found enough to ground an answer."}
            </p>
            <p className="muted small">
              Grounded when the question's rare words are not missing from the knowledge and either the nearest passage is similar enough or the
              confidence score{" "}
              {thresholds.coverage_weight === 0
                ? "(the best passage's score, its words counted more where they stand together, over the most it could score)"
                : `(${score(thresholds.coverage_weight)} × rare words covered + ${score(1 - thresholds.coverage_weight)} × best passage)`}{" "}
              reaches its threshold.
            </p>
            <table className="signals">
              <caption className="visually-hidden">Confidence signals against their thresholds</caption>
              <thead>
                <tr>
                  <th scope="col">Signal</th>
                  <th scope="col">Value</th>
                  <th scope="col">Threshold</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Rare words unknown to the knowledge</th>
                  <td>{score(signals.unknown_rare_share)}</td>
                  <Threshold met={signals.unknown_rare_share <= thresholds.max_unknown_share} bound={`at most ${score(thresholds.max_unknown_share)}`} />
                </tr>
                <tr>
                  <th scope="row">Top similarity</th>
                  <td>{score(signals.top_similarity)}</td>
                  <Threshold met={signals.top_similarity >= thresholds.min_similarity} bound={`at least ${score(thresholds.min_similarity)}`} />
                </tr>
                <tr>
                  <th scope="row">Confidence score</th>
                  <td>{score(result.confidence.score)}</td>
                  <Threshold met={result.confidence.score >= thresholds.min_coverage} bound={`at least ${score(thresholds.min_coverage)}`} />
                </tr>
                <tr>
                  <th scope="row">Rare words covered</th>
                  <td>{score(signals.rare_coverage)}</td>
                  <td className="muted">{thresholds.coverage_weight === 0 ? "not in the score" : "in the score"}</td>
                </tr>
                <tr>
                  <th scope="row">Best passage (BM25 and proximity)</th>
                  <td>{score(signals.best_score)}</td>
                  <td className="muted">{thresholds.coverage_weight === 1 ? "not in the score" : "in the score"}</td>
                </tr>
                <tr>
                  <th scope="row">Coverage of the question</th>
                  <td>{score(signals.top_coverage)}</td>
                  <td className="muted">—</td>
                </tr>
                <tr>
                  <th scope="row">Words unknown to the knowledge</th>
                  <td>{score(signals.unknown_share)}</td>
                  <td className="muted">—</td>
                </tr>
              </tbody>
            </table>
          </section>
          <section aria-labelledby="try-passages-title">
            <h3 id="try-passages-title">Passages retrieved ({result.passages.length})</h3>
            {result.passages.length === 0 ? (
              <p className="muted">None: the knowledge has nothing on this.</p>
            ) : (
              <ol className="passages" aria-label="Passages">
                {result.passages.map((passage) => (
                  <li key={`${passage.document_id}-${passage.number}-${passage.heading ?? ""}-${passage.score}`} className="passage">
                    <div className="passage-top">
                      <span className="passage-number">[{passage.number}]</span>
                      <a href={passage.url} target="_blank" rel="noreferrer" className="passage-title">
                        {passage.title || passage.url}
                      </a>
                      <span className="passage-score" title="Fused rank score (reciprocal rank fusion)">
                        score {score(passage.score, 4)}
                      </span>
                    </div>
                    {passage.heading && <p className="muted small">{passage.heading}</p>}
                    <p className="passage-content">{passage.content}</p>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
