import type { ReactNode } from "react";
import { Link, Route, Switch, useLocation } from "wouter";
import { describeError } from "../api/client.js";
import { CreateAgentForm } from "../agents/create-agent-form.js";
import { InstallSnippet } from "../agents/install-snippet.js";
import { useAgent } from "../agents/use-agents.js";
import { WidgetPreview } from "../agents/widget-preview.js";
import { RealtimeProvider } from "../realtime/realtime-context.js";
import { SignInScreen } from "../screens/sign-in-screen.js";
import { OperatorProvider, useMeQuery } from "../session.js";
import { CreateAdminStep } from "./create-admin-step.js";
import { SitemapStep } from "./sitemap-step.js";
import "./setup.css";

const STEPS = ["Your account", "Your agent", "Your knowledge", "Install"] as const;

function Steps({ current }: { current: number }) {
  return (
    <ol className="setup-steps" aria-label="Setup steps">
      {STEPS.map((step, index) => (
        <li key={step} aria-current={index === current ? "step" : undefined} className={index < current ? "done" : undefined}>
          <span aria-hidden="true">{index + 1}</span> {step}
          {index < current && <span className="visually-hidden"> (done)</span>}
        </li>
      ))}
    </ol>
  );
}

function SetupPage({ step, children }: { step: number; children: ReactNode }) {
  return (
    <main className="setup-page">
      <p className="brand">Frontdesk</p>
      <Steps current={step} />
      {children}
    </main>
  );
}

/** The steps after the account: they need the new admin's session and the realtime connection. */
function SignedInSteps({ children }: { children: ReactNode }) {
  const me = useMeQuery();
  if (me.isPending) return <p className="pane-message">Loading…</p>;
  if (me.isError) {
    return (
      <p className="pane-message" role="alert">
        {describeError(me.error)}
      </p>
    );
  }
  if (!me.data) return <SignInScreen />;
  return (
    <OperatorProvider operator={me.data}>
      <RealtimeProvider key={me.data.id}>{children}</RealtimeProvider>
    </OperatorProvider>
  );
}

function AgentStep() {
  const [, navigate] = useLocation();
  return (
    <section className="setup-card" aria-labelledby="setup-agent-title">
      <h1 id="setup-agent-title">Create your first agent</h1>
      <p className="muted">The agent is the assistant on your site: it answers visitors from your pages and hands over to your team.</p>
      <CreateAgentForm submitLabel="Create the agent" onCreated={(agent) => navigate(`/agent/${agent.id}/knowledge`)} />
    </section>
  );
}

function InstallStep({ agentId }: { agentId: string }) {
  const agent = useAgent(agentId);
  return (
    <section className="setup-card wide" aria-labelledby="setup-install-title">
      <h1 id="setup-install-title">Put it on your site</h1>
      <div className="setup-install">
        <div>
          <p>Copy this tag into your site's pages. The widget appears at the bottom right.</p>
          <InstallSnippet agentId={agentId} />
          <p className="setup-next">
            <a href="/console/inbox" className="button-link primary">
              Open the inbox
            </a>{" "}
            <a href={`/console/agents/${agentId}`}>Change the agent's look and behaviour</a>
          </p>
        </div>
        <div>
          <h2>Preview</h2>
          {agent.data && <WidgetPreview agentId={agentId} version={agent.data.updated_at} />}
        </div>
      </div>
    </section>
  );
}

/** The first run, at /console/setup#token=… (the link `serve` prints): account, agent, knowledge, install. */
export function SetupFlow() {
  return (
    <Switch>
      <Route path="/">
        <SetupPage step={0}>
          <CreateAdminStep />
        </SetupPage>
      </Route>
      <Route path="/agent">
        <SetupPage step={1}>
          <SignedInSteps>
            <AgentStep />
          </SignedInSteps>
        </SetupPage>
      </Route>
      <Route path="/agent/:id/knowledge">
        {(params) => (
          <SetupPage step={2}>
            <SignedInSteps>
              <SitemapStep agentId={params.id} />
            </SignedInSteps>
          </SetupPage>
        )}
      </Route>
      <Route path="/agent/:id/install">
        {(params) => (
          <SetupPage step={3}>
            <SignedInSteps>
              <InstallStep agentId={params.id} />
            </SignedInSteps>
          </SetupPage>
        )}
      </Route>
      <Route>
        <SetupPage step={0}>
          <p className="pane-message">
            No such step. <Link href="/">Start the setup</Link>
          </p>
        </SetupPage>
      </Route>
    </Switch>
  );
}
