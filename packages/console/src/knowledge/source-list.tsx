import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, dataOf, describeError, type Schemas } from "../api/client.js";
import { useOperator } from "../session.js";
import { SourcePages } from "./source-pages.js";
import { UrlPatternsForm } from "./url-patterns-form.js";
import { SOURCES_QUERY_KEY, sourceQueryKey } from "./use-sources.js";

type Source = Schemas["ConsoleSource"];

const KIND_LABELS: Record<Source["kind"], string> = { url: "Page", sitemap: "Sitemap", text: "Text", wordpress: "WordPress", file: "File" };

/** What the source is called on screen: a text's title, else its address. */
export function sourceName(source: Source): string {
  if (source.kind === "text") return source.title?.trim() || source.url || "Untitled text";
  // A file is named by its owner's title, else its file name (its address is the stored file's).
  if (source.kind === "file") return source.title?.trim() || source.url || "Untitled file";
  return source.url ?? "(no address)";
}

function StatusLabel({ source }: { source: Source }) {
  if (source.syncing || source.status === "pending") return <span className="badge badge-syncing">Syncing</span>;
  if (source.status === "failed") return <span className="badge badge-failed">Failed</span>;
  return <span className="badge badge-indexed">Indexed</span>;
}

function Progress({ source }: { source: Source }) {
  const { pages_found: found, pages_indexed: indexed, pages_failed: failed, pages_pending: pending } = source.progress;
  const syncing = source.syncing || source.status === "pending";
  // A file is one document (a PDF's pages are its sections, not pages of a site).
  const [one, many] = source.kind === "file" ? ["document", "documents"] : ["page", "pages"];
  const words =
    found === 0
      ? syncing
        ? source.kind === "file"
          ? "Reading the file…"
          : "Looking for pages…"
        : `No ${many} found`
      : `${indexed} of ${found} ${found === 1 ? one : many} indexed${failed > 0 ? `, ${failed} failed` : ""}${syncing && pending > 0 ? `, ${pending} to go` : ""}`;
  return (
    <div className="knowledge-progress">
      {syncing && found > 0 && <progress value={indexed + failed} max={found} aria-label={`Progress of ${sourceName(source)}`} />}
      <span className="knowledge-progress-words">{words}</span>
    </div>
  );
}

/** The pages whose last attempt failed, with why (read when the operator opens them). */
function FailedPages({ source }: { source: Source }) {
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: sourceQueryKey(source.id),
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/knowledge/sources/{id}", { params: { path: { id: source.id } } }))).data,
    enabled: open,
  });
  const failed = source.progress.pages_failed;
  return (
    <details className="failed-pages" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        {failed === 1 ? "1 page failed" : `${failed} pages failed`}: see why
      </summary>
      {detail.isPending && <p className="muted">Loading…</p>}
      {detail.isError && <p className="error">{describeError(detail.error)}</p>}
      {detail.data && (
        <ul>
          {detail.data.failed_pages.map((page) => (
            <li key={page.url}>
              <a href={page.url} target="_blank" rel="noreferrer">
                {page.url}
              </a>
              <span className="failed-reason">{page.error.message}</span>
              {page.indexed_before && <span className="muted"> (its earlier version still answers)</span>}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

const SCHEDULE_LABELS: Record<Source["schedule"], string> = { off: "Off", hourly: "Every hour", daily: "Every day", weekly: "Every week" };

/** How often a url or sitemap source is re-synced on its own; saved as soon as it is chosen. */
function ScheduleSelect({ source, name }: { source: Source; name: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const change = useMutation({
    mutationFn: (schedule: Source["schedule"]) =>
      dataOf(api.PATCH("/api/v1/console/knowledge/sources/{id}", { params: { path: { id: source.id } }, body: { schedule } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: SOURCES_QUERY_KEY }),
  });
  const shown = change.isPending && change.variables ? change.variables : source.schedule;
  return (
    <span className="source-schedule">
      <label htmlFor={id}>Re-sync</label>
      <select
        id={id}
        value={shown}
        disabled={change.isPending}
        aria-label={`Automatic re-sync of ${name}`}
        {...(change.error ? { "aria-describedby": `${id}-error`, "aria-invalid": true } : {})}
        onChange={(event) => change.mutate(event.target.value as Source["schedule"])}>
        {(Object.keys(SCHEDULE_LABELS) as Source["schedule"][]).map((schedule) => (
          <option key={schedule} value={schedule}>
            {SCHEDULE_LABELS[schedule]}
          </option>
        ))}
      </select>
      {source.next_sync_at && shown !== "off" && (
        <span className="muted">
          next <time dateTime={source.next_sync_at}>{new Date(source.next_sync_at).toLocaleString()}</time>
        </span>
      )}
      {change.error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {describeError(change.error)}
        </span>
      )}
    </span>
  );
}

function SourceRow({ source }: { source: Source }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: SOURCES_QUERY_KEY });
  const resync = useMutation({
    mutationFn: () => dataOf(api.POST("/api/v1/console/knowledge/sources/{id}/resync", { params: { path: { id: source.id } } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => dataOf(api.DELETE("/api/v1/console/knowledge/sources/{id}", { params: { path: { id: source.id } } })),
    onSuccess: () => {
      queryClient.setQueryData<Source[]>([...SOURCES_QUERY_KEY, source.agent_id], (sources) => sources?.filter((other) => other.id !== source.id));
    },
    onSettled: refresh,
  });
  const name = sourceName(source);
  const admin = useOperator().role === "admin";
  const error = resync.error ?? remove.error;
  return (
    <li className="source-row" aria-label={name} data-status={source.syncing || source.status === "pending" ? "syncing" : source.status}>
      <div className="source-top">
        <span className="badge">{KIND_LABELS[source.kind]}</span>
        <span className="source-name">
          {source.url && source.kind !== "text" ? (
            <a href={source.url} target="_blank" rel="noreferrer">
              {name}
            </a>
          ) : (
            name
          )}
        </span>
        <StatusLabel source={source} />
      </div>
      <Progress source={source} />
      {source.error && (
        <p className="source-error">
          <strong>Why it failed:</strong> {source.error.message}
        </p>
      )}
      {source.progress.pages_failed > 0 && <FailedPages source={source} />}
      <SourcePages source={source} />
      {source.kind === "sitemap" && admin && <UrlPatternsForm source={source} name={name} />}
      <div className="source-actions">
        {source.last_synced_at && (
          <span className="muted source-synced">
            Last synced <time dateTime={source.last_synced_at}>{new Date(source.last_synced_at).toLocaleString()}</time>
          </span>
        )}
        {(source.kind === "url" || source.kind === "sitemap") && <ScheduleSelect source={source} name={name} />}
        {confirming ? (
          <span className="knowledge-confirm" role="group" aria-label={`Confirm deleting ${name}`}>
            <span>Delete it with its pages? The assistant stops citing it at once.</span>
            <button type="button" className="knowledge-danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Deleting…" : "Delete"}
            </button>
            <button type="button" onClick={() => setConfirming(false)} autoFocus>
              Cancel
            </button>
          </span>
        ) : (
          <>
            <button type="button" disabled={resync.isPending || source.syncing} onClick={() => resync.mutate()} aria-label={`Re-sync ${name}`}>
              {resync.isPending ? "Queuing…" : "Re-sync"}
            </button>
            <button type="button" onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
              Delete
            </button>
          </>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {describeError(error)}
        </p>
      )}
    </li>
  );
}

/** An agent's sources with their live status and progress. */
export function SourceList({ sources }: { sources: Source[] }) {
  if (sources.length === 0) return <p className="muted">No sources yet: add the site's sitemap, a page, a text or files.</p>;
  return (
    <ul className="knowledge-sources" aria-label="Sources">
      {sources.map((source) => (
        <SourceRow key={source.id} source={source} />
      ))}
    </ul>
  );
}
