import { Link, Route, Switch, useLocation } from "wouter";
import { describeError } from "../api/client.js";
import { AgentEditor } from "./agent-editor.js";
import { CreateAgentForm } from "./create-agent-form.js";
import { useAgent, useAgentList, useAgentsLive } from "./use-agents.js";
import "./agents.css";

function AgentList({ selected }: { selected: string | null }) {
  const agents = useAgentList();
  return (
    <nav className="agent-list" aria-label="Agents">
      <div className="agent-list-head">
        <h1>Agents</h1>
        <Link href="/new" className="button-link">
          New agent
        </Link>
      </div>
      {agents.isPending && <p className="muted">Loading…</p>}
      {agents.isError && (
        <p role="alert" className="error">
          {describeError(agents.error)}
        </p>
      )}
      {agents.data?.length === 0 && <p className="muted">No agent yet.</p>}
      <ul>
        {agents.data?.map((agent) => (
          <li key={agent.id}>
            <Link href={`/${agent.id}`} aria-current={agent.id === selected ? "page" : undefined}>
              <span className="swatch" ref={(element) => element?.style.setProperty("background", agent.theme.primary)} aria-hidden="true" />
              <span className="agent-list-name">{agent.name}</span>
              <span className={`badge ${agent.published ? "status-human" : "status-closed"}`}>{agent.published ? "Published" : "Draft"}</span>
              <span className="muted agent-list-origins">{agent.allowed_origins.join(", ")}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function AgentDetail({ agentId }: { agentId: string }) {
  const agent = useAgent(agentId);
  if (agent.isPending) return <p className="pane-message">Loading…</p>;
  if (agent.isError) {
    return (
      <p className="pane-message" role="alert">
        {describeError(agent.error)}
      </p>
    );
  }
  return <AgentEditor key={agent.data.id} agent={agent.data} />;
}

function NewAgent() {
  const [, navigate] = useLocation();
  return (
    <section className="new-agent" aria-labelledby="new-agent-title">
      <h2 id="new-agent-title">New agent</h2>
      <CreateAgentForm onCreated={(agent) => navigate(`/${agent.id}`)} />
    </section>
  );
}

/** The Agents section (/agents, /agents/new, /agents/{id}): the list beside the selected agent's settings. */
export function AgentsScreen() {
  useAgentsLive();
  return (
    <div className="agents-screen">
      <Switch>
        <Route path="/new">
          <AgentList selected={null} />
          <NewAgent />
        </Route>
        <Route path="/:id">
          {(params) => (
            <>
              <AgentList selected={params.id} />
              <AgentDetail agentId={params.id} />
            </>
          )}
        </Route>
        <Route>
          <AgentList selected={null} />
          <p className="pane-message">Choose an agent to change its settings, or create one.</p>
        </Route>
      </Switch>
    </div>
  );
}
