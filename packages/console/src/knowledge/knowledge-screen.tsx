import { useLocation, useSearch } from "wouter";
import { describeError } from "../api/client.js";
import { AddSourceForm } from "./add-source-form.js";
import { AgentPicker } from "./agent-picker.js";
import { FileUploads } from "./file-uploads.js";
import { SourceList } from "./source-list.js";
import { TryQuestionPane } from "./try-question-pane.js";
import { useAgentList } from "../agents/use-agents.js";
import { useSources, useSourcesLive } from "./use-sources.js";
import { useOperator } from "../session.js";
import "./knowledge.css";

/** The Knowledge screen: an agent's sources, live; add one; try a question. The agent is in the URL (`?agent=`). */
export function KnowledgeScreen() {
  const agents = useAgentList();
  const [, navigate] = useLocation();
  const chosen = new URLSearchParams(useSearch()).get("agent");
  const agent = agents.data?.find((candidate) => candidate.id === chosen) ?? agents.data?.[0] ?? null;
  const sources = useSources(agent?.id ?? null);
  useSourcesLive();
  const admin = useOperator().role === "admin";

  return (
    <div className="knowledge">
      <header className="knowledge-header">
        <h1>Knowledge</h1>
        {agents.data && agents.data.length > 0 && agent && (
          <AgentPicker agents={agents.data} value={agent.id} onChange={(agentId) => navigate(`/knowledge?agent=${encodeURIComponent(agentId)}`, { replace: true })} />
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
        <div className="knowledge-columns">
          <div className="knowledge-main">
            <section aria-labelledby="sources-title" className="knowledge-panel">
              <h2 id="sources-title">Sources of {agent.name}</h2>
              {sources.isPending && <p className="muted">Loading sources…</p>}
              {sources.isError && (
                <p className="error" role="alert">
                  {describeError(sources.error)}
                </p>
              )}
              {sources.data && <SourceList sources={sources.data} />}
            </section>
            <div className="knowledge-panel">
              <AddSourceForm key={agent.id} agentId={agent.id} />
            </div>
            {admin && (
              <div className="knowledge-panel">
                <FileUploads key={agent.id} agentId={agent.id} />
              </div>
            )}
          </div>
          <div className="knowledge-panel knowledge-side">
            <TryQuestionPane key={agent.id} agentId={agent.id} />
          </div>
        </div>
      )}
    </div>
  );
}
