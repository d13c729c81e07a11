import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf, describeError } from "../api/client.js";

export const snippetQueryKey = (agentId: string) => ["agents", agentId, "snippet"] as const;

export function useSnippet(agentId: string) {
  return useQuery({
    queryKey: snippetQueryKey(agentId),
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/agents/{id}/snippet", { params: { path: { id: agentId } } }))).data,
  });
}

/** The script tag to paste into the site's pages, with a copy button. */
export function InstallSnippet({ agentId }: { agentId: string }) {
  const snippet = useSnippet(agentId);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  if (snippet.isPending) return <p className="muted">Loading the snippet…</p>;
  if (snippet.isError) return <p role="alert" className="error">{describeError(snippet.error)}</p>;
  const { html, allowed_origins: origins, published } = snippet.data;
  const copy = () => {
    navigator.clipboard.writeText(html).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  };
  return (
    <div className="install-snippet">
      <label htmlFor={`snippet-${agentId}`}>Script tag</label>
      <textarea id={`snippet-${agentId}`} readOnly rows={2} value={html} onFocus={(event) => event.currentTarget.select()} />
      <div className="snippet-actions">
        <button type="button" className="primary" onClick={copy}>
          Copy the script tag
        </button>
        <span role="status" className="muted">
          {copied === "yes" ? "Copied." : copied === "failed" ? "The browser refused to copy; select the text and copy it." : ""}
        </span>
      </div>
      <p className="muted">
        Paste it before <code>&lt;/body&gt;</code> on every page of{" "}
        {origins.length > 0 ? origins.join(", ") : "the allowed origins"}; it works on those origins only.
        {!published && " The agent is a draft: publish it for the widget to appear."}
      </p>
    </div>
  );
}
