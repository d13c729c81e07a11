import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { api, dataOf, describeError } from "../api/client.js";
import { FieldError, fieldErrorsOf, invalidProps } from "../agents/field-errors.js";
import { useAgent } from "../agents/use-agents.js";
import { useAgentSources, type ConsoleSource } from "./use-agent-sources.js";

function SourceProgress({ source }: { source: ConsoleSource }) {
  const { pages_found: found, pages_indexed: indexed, pages_failed: failed } = source.progress;
  const settled = !source.syncing && source.status !== "pending";
  const label =
    source.status === "failed"
      ? "Failed"
      : settled
        ? `Indexed: ${indexed} of ${found} page${found === 1 ? "" : "s"}`
        : found === 0
          ? "Reading the sitemap…"
          : `Indexing: ${indexed} of ${found} pages`;
  return (
    <li className="source-progress" data-status={source.status} data-syncing={String(source.syncing)}>
      <p className="source-url">{source.url}</p>
      <progress max={Math.max(found, 1)} value={settled && found === 0 ? 1 : indexed + failed} aria-label={`Progress of ${source.url ?? "the source"}`} />
      <p className="source-status" aria-live="polite">
        {label}
        {failed > 0 && `, ${failed} failed`}
      </p>
      {source.error && (
        <p className="error" role="alert">
          {source.error.message}
        </p>
      )}
    </li>
  );
}

/** Step 3: push the site's sitemap (or skip), and watch the pages get indexed. */
export function SitemapStep({ agentId }: { agentId: string }) {
  const agent = useAgent(agentId);
  const origin = agent.data?.allowed_origins[0] ?? "";
  const [edited, setEdited] = useState<string | null>(null);
  const url = edited ?? (origin ? `${origin}/sitemap.xml` : "");
  const queryClient = useQueryClient();
  const sources = useAgentSources(agentId);
  const push = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/knowledge/sources", { body: { agent_id: agentId, kind: "sitemap", url: url.trim() } }))).data,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["setup-sources", agentId] }),
  });
  const fields = fieldErrorsOf(push.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    push.mutate();
  };
  const list = sources.data ?? [];
  const done = list.length > 0 && list.every((source) => !source.syncing && source.status !== "pending");
  return (
    <section className="setup-card wide" aria-labelledby="setup-sitemap-title">
      <h1 id="setup-sitemap-title">Teach it your site</h1>
      <p className="muted">The assistant answers from your pages. Push your sitemap and Frontdesk reads every page it lists.</p>
      <form className="inline-form" onSubmit={submit} noValidate>
        <div className="field-row">
          <label htmlFor="setup-sitemap">Sitemap address</label>
          <input id="setup-sitemap" type="url" value={url} onChange={(event) => setEdited(event.target.value)} {...invalidProps(fields, "url", "setup-sitemap")} />
          <FieldError fields={fields} field="url" id="setup-sitemap" />
        </div>
        <button type="submit" className="primary" disabled={push.isPending || !url}>
          {push.isPending ? "Pushing…" : "Push the sitemap"}
        </button>
      </form>
      {push.isError && (
        <p role="alert" className="error">
          {describeError(push.error)}
        </p>
      )}
      {list.length > 0 && (
        <ul className="source-list" aria-label="Sources">
          {list.map((source) => (
            <SourceProgress key={source.id} source={source} />
          ))}
        </ul>
      )}
      <p className="setup-next">
        <Link href={`/agent/${agentId}/install`} className={done ? "button-link primary" : "button-link"}>
          {done ? "Next: install the widget" : list.length > 0 ? "Continue while it indexes" : "Skip for now"}
        </Link>
      </p>
    </section>
  );
}
