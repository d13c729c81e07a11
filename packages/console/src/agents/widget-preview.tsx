import { useSnippet } from "./install-snippet.js";

/**
 * The real widget on the service's demo page, framed: it shows the saved settings and reloads when
 * the agent changes (`version`: its updated_at, which the agent.updated event refreshes).
 */
export function WidgetPreview({ agentId, version }: { agentId: string; version: string }) {
  const snippet = useSnippet(agentId);
  if (!snippet.data) return null;
  if (!snippet.data.published) return <p className="muted preview-note">The preview shows once the agent is published.</p>;
  if (!snippet.data.demo_url) return <p className="muted preview-note">No preview: the demo page is off (FRONTDESK_DEMO=false).</p>;
  return (
    <iframe
      key={version}
      className="widget-preview"
      title="Widget preview"
      src={`${snippet.data.demo_url}?v=${encodeURIComponent(version)}`}
    />
  );
}
