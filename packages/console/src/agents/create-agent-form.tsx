import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { FieldError, fieldErrorsOf, invalidProps } from "./field-errors.js";
import { AGENTS_QUERY_KEY, agentQueryKey, type ConsoleAgent } from "./use-agents.js";

/** A new agent from its name and the site's address (whose origin the widget may run on). */
export function CreateAgentForm({ onCreated, submitLabel = "Create the agent" }: { onCreated: (agent: ConsoleAgent) => void; submitLabel?: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [siteUrl, setSiteUrl] = useState("");
  const create = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/agents", { body: { name: name.trim(), site_url: siteUrl.trim() } }))).data,
    onSuccess: (agent) => {
      queryClient.setQueryData(agentQueryKey(agent.id), agent);
      void queryClient.invalidateQueries({ queryKey: AGENTS_QUERY_KEY });
      onCreated(agent);
    },
  });
  const fields = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="stacked-form" onSubmit={submit} noValidate>
      <div className="field-row">
        <label htmlFor="new-agent-name">Agent name</label>
        <input id="new-agent-name" value={name} required onChange={(event) => setName(event.target.value)} placeholder="Acme support" {...invalidProps(fields, "name", "new-agent-name")} />
        <FieldError fields={fields} field="name" id="new-agent-name" />
      </div>
      <div className="field-row">
        <label htmlFor="new-agent-site">Your site's address</label>
        <input
          id="new-agent-site"
          type="url"
          value={siteUrl}
          required
          placeholder="https://www.example.com"
          onChange={(event) => setSiteUrl(event.target.value)}
          aria-describedby="new-agent-site-hint"
          {...invalidProps(fields, "site_url", "new-agent-site")}
        />
        <span id="new-agent-site-hint" className="muted hint">
          The widget will run on this site's pages (its origin is allowed).
        </span>
        <FieldError fields={fields} field="site_url" id="new-agent-site" />
        <FieldError fields={fields} field="origins" id="new-agent-origins" />
      </div>
      {create.isError && (
        <p role="alert" className="error">
          {describeError(create.error)}
        </p>
      )}
      <button type="submit" className="primary" disabled={create.isPending}>
        {create.isPending ? "Creating…" : submitLabel}
      </button>
    </form>
  );
}
