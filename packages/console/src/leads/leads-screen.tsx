import { useEffect, useId, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { describeError, type Schemas } from "../api/client.js";
import { AgentPicker } from "../knowledge/agent-picker.js";
import { useAgentList } from "../agents/use-agents.js";
import { leadsCsvHref, useLeads, useLeadsLive } from "./use-leads.js";
import "./leads.css";

type Lead = Schemas["ConsoleLead"];

/** Words typed in the search box reach the URL (and the query) after this pause. */
const SEARCH_PAUSE_MS = 300;

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function leadsQuery(search: string, agentId: string): string {
  const parameters = new URLSearchParams();
  if (search) parameters.set("q", search);
  if (agentId) parameters.set("agent", agentId);
  const query = parameters.toString();
  return query ? `?${query}` : "";
}

/** The extra fields a lead form asked for, as "name: value". */
function extraFields(lead: Lead): string {
  return Object.entries(lead.fields)
    .map(([name, value]) => `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
}

function LeadRow({ lead }: { lead: Lead }) {
  return (
    <tr>
      <th scope="row">
        <a href={`mailto:${lead.email}`}>{lead.email}</a>
      </th>
      <td>{lead.name ?? <span className="muted">—</span>}</td>
      <td className="lead-phone">{lead.phone ?? <span className="muted">—</span>}</td>
      <td>{lead.agent_name}</td>
      <td className="lead-fields">{extraFields(lead) || <span className="muted">—</span>}</td>
      <td>
        <time dateTime={lead.updated_at}>{when.format(new Date(lead.updated_at))}</time>
      </td>
      <td>{lead.conversation_id ? <Link href={`/inbox/${lead.conversation_id}`} aria-label={`Open the conversation of ${lead.email}`}>Open</Link> : <span className="muted">—</span>}</td>
    </tr>
  );
}

/** The Leads screen: search, an agent filter, pages of leads ("Load more") and their CSV export. Filters are in the URL. */
export function LeadsScreen() {
  const parameters = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const search = (parameters.get("q") ?? "").trim();
  const agentId = parameters.get("agent") ?? "";
  const [typed, setTyped] = useState(search);
  const searchId = useId();
  const agents = useAgentList();
  const leads = useLeads(search, agentId);
  useLeadsLive();

  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = window.setTimeout(() => navigate(`/leads${leadsQuery(typed.trim(), agentId)}`, { replace: true }), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [typed, search, agentId, navigate]);

  const rows = leads.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <div className="leads">
      <header className="leads-header">
        <h1>Leads</h1>
        <a className="leads-export" href={leadsCsvHref(search, agentId)} download>
          Export CSV
        </a>
      </header>
      <div className="leads-filters">
        <div className="leads-search">
          <label htmlFor={searchId}>Search</label>
          <input id={searchId} type="search" placeholder="E-mail or name" value={typed} maxLength={200} onChange={(event) => setTyped(event.target.value)} />
        </div>
        {agents.data && (
          <AgentPicker agents={agents.data} value={agentId} allLabel="All agents" onChange={(next) => navigate(`/leads${leadsQuery(search, next)}`, { replace: true })} />
        )}
      </div>
      {leads.isPending && <p className="pane-message">Loading leads…</p>}
      {leads.isError && (
        <p className="pane-message" role="alert">
          {describeError(leads.error)}
        </p>
      )}
      {leads.data && rows.length === 0 && (
        <p className="pane-message">{search || agentId ? "No lead matches." : "No leads yet: they appear when visitors leave their e-mail in the widget."}</p>
      )}
      {rows.length > 0 && (
        <div className="leads-table-wrap">
          <table className="leads-table">
            <caption className="visually-hidden">Leads, newest first</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Name</th>
                <th scope="col">Phone</th>
                <th scope="col">Agent</th>
                <th scope="col">Other fields</th>
                <th scope="col">Last submitted</th>
                <th scope="col">Conversation</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((lead) => (
                <LeadRow key={lead.id} lead={lead} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {leads.hasNextPage && (
        <button type="button" className="load-more" disabled={leads.isFetchingNextPage} onClick={() => void leads.fetchNextPage()}>
          {leads.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
    </div>
  );
}
