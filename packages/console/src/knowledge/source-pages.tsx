import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf, describeError, type Schemas } from "../api/client.js";
import { useOperator } from "../session.js";
import { SOURCES_QUERY_KEY } from "./use-sources.js";

type Source = Schemas["ConsoleSource"];
type SourceDocument = Schemas["SourceDocument"];

const pagesQueryKey = (sourceId: string) => ["knowledge-source-pages", sourceId] as const;
const pageQueryKey = (sourceId: string, documentId: number) => ["knowledge-source-page", sourceId, documentId] as const;

const STATUS_LABELS: Record<SourceDocument["status"], string> = { pending: "Waiting", indexed: "Indexed", failed: "Failed", excluded: "Excluded" };

/** A size in words a person reads: bytes, KB or MB. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "–";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const pageName = (document: SourceDocument) => document.title?.trim() || document.url;

/** The text the page's last indexing extracted and the passages answers retrieve, read when opened. */
function PageContent({ source, document }: { source: Source; document: SourceDocument }) {
  const detail = useQuery({
    queryKey: pageQueryKey(source.id, document.id),
    queryFn: async () =>
      (await dataOf(api.GET("/api/v1/console/knowledge/sources/{id}/documents/{document_id}", { params: { path: { id: source.id, document_id: String(document.id) } } }))).data,
  });
  if (detail.isPending) return <p className="muted">Loading…</p>;
  if (detail.isError) return <p className="error">{describeError(detail.error)}</p>;
  const { text, chunks } = detail.data;
  return (
    <div className="page-content">
      <h4>Extracted text</h4>
      {text ? (
        // Scrolls when long: focusable so that a keyboard can scroll it too.
        <pre className="page-text" tabIndex={0} aria-label={`Extracted text of ${pageName(document)}`}>
          {text}
        </pre>
      ) : (
        <p className="muted">Nothing was extracted yet.</p>
      )}
      <h4>{chunks.length === 1 ? "1 passage in the index" : `${chunks.length} passages in the index`}</h4>
      {chunks.length === 0 ? (
        <p className="muted">{document.status === "excluded" ? "Excluded: none of it answers." : "None yet."}</p>
      ) : (
        <ol className="page-chunks" aria-label={`Passages of ${pageName(document)}`}>
          {chunks.map((chunk) => (
            <li key={chunk.index}>
              {chunk.heading && <strong className="chunk-heading">{chunk.heading}</strong>}
              <p>{chunk.content}</p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** One page: status, title, size, last fetch, its content on demand, and the Exclude switch (admins). */
function PageRow({ source, document }: { source: Source; document: SourceDocument }) {
  const queryClient = useQueryClient();
  const admin = useOperator().role === "admin";
  const [open, setOpen] = useState(false);
  const name = pageName(document);
  const toggle = useMutation({
    mutationFn: (excluded: boolean) =>
      dataOf(
        api.PATCH("/api/v1/console/knowledge/sources/{id}/documents/{document_id}", {
          params: { path: { id: source.id, document_id: String(document.id) } },
          body: { excluded },
        }),
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: pagesQueryKey(source.id) });
      void queryClient.invalidateQueries({ queryKey: pageQueryKey(source.id, document.id) });
      void queryClient.invalidateQueries({ queryKey: SOURCES_QUERY_KEY });
    },
  });
  const excluded = toggle.isPending && toggle.variables !== undefined ? toggle.variables : document.status === "excluded";
  const contentId = `page-content-${document.id}`;
  return (
    <li className="page-row" aria-label={name} data-status={document.status}>
      <div className="page-top">
        <span className={`badge page-status page-status-${document.status}`}>{STATUS_LABELS[document.status]}</span>
        <a className="page-name" href={document.url} target="_blank" rel="noreferrer">
          {name}
        </a>
        {admin && (
          <label className="page-exclude">
            <input
              type="checkbox"
              role="switch"
              checked={excluded}
              disabled={toggle.isPending}
              aria-label={`Exclude ${name}`}
              onChange={(event) => toggle.mutate(event.target.checked)}
            />
            <span aria-hidden="true">Exclude</span>
          </label>
        )}
      </div>
      <div className="page-facts muted">
        <span>{formatBytes(document.bytes)}</span>
        <span>
          {document.chunk_count === 1 ? "1 passage" : `${document.chunk_count} passages`}
        </span>
        <span>
          {document.last_fetched_at ? (
            <>
              Fetched <time dateTime={document.last_fetched_at}>{new Date(document.last_fetched_at).toLocaleString()}</time>
            </>
          ) : (
            "Not fetched yet"
          )}
        </span>
        <button type="button" className="link-button" aria-expanded={open} aria-controls={contentId} onClick={() => setOpen(!open)}>
          {open ? "Hide text" : "Show text"}
        </button>
      </div>
      {document.error && <p className="failed-reason">{document.error.message}</p>}
      {toggle.error && (
        <p className="error" role="alert">
          {describeError(toggle.error)}
        </p>
      )}
      <div id={contentId} hidden={!open}>
        {open && <PageContent source={source} document={document} />}
      </div>
    </li>
  );
}

/** A source's pages (posts, text), 50 at a time, read when the operator opens them. */
export function SourcePages({ source }: { source: Source }) {
  const [open, setOpen] = useState(false);
  const pages = useInfiniteQuery({
    queryKey: pagesQueryKey(source.id),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      dataOf(api.GET("/api/v1/console/knowledge/sources/{id}/documents", { params: { path: { id: source.id }, query: pageParam ? { cursor: pageParam } : {} } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: open,
  });
  const documents = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const found = source.progress.pages_found;
  const noun = source.kind === "file" ? "document" : "page";
  return (
    <details className="source-pages" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>What was indexed{found > 0 ? ` (${found === 1 ? `1 ${noun}` : `${found} ${noun}s`})` : ""}</summary>
      {pages.isPending && open && <p className="muted">Loading…</p>}
      {pages.isError && <p className="error">{describeError(pages.error)}</p>}
      {pages.data && documents.length === 0 && <p className="muted">No pages yet.</p>}
      {documents.length > 0 && (
        <ul className="source-page-list" aria-label={`Pages of ${(source.kind === "file" ? source.title : null) ?? source.url ?? source.title ?? source.id}`}>
          {documents.map((document) => (
            <PageRow key={document.id} source={source} document={document} />
          ))}
        </ul>
      )}
      {pages.hasNextPage && (
        <button type="button" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? "Loading…" : "Show more pages"}
        </button>
      )}
    </details>
  );
}
