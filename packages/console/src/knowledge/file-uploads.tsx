import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type DragEvent } from "react";
import { ApiError, describeError } from "../api/client.js";
import { formatBytes } from "./source-pages.js";
import { uploadFileSource } from "./upload-request.js";
import { SOURCES_QUERY_KEY } from "./use-sources.js";

type CsvMode = "curated" | "chunks";

interface Upload {
  key: number;
  file: File;
  state: "waiting" | "uploading" | "uploaded" | "failed";
  sent: number;
  total: number;
  /** Uploaded: the agent already had these bytes (the existing source was kept). */
  duplicate?: boolean;
  /** Failed: what the server said, in a person's words, and its code. */
  error?: { title: string; message: string };
}

/** Files uploaded at the same time; the others wait their turn. */
const AT_ONCE = 2;
/** What the file picker offers; the server decides by the bytes, whatever the name says. */
const ACCEPT = ".pdf,.docx,.md,.markdown,.txt,.html,.htm,.csv,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/markdown,text/plain,text/html,text/csv";

/** The most rows kept in the list (the oldest leave first). */
const KEPT = 20;

let nextKey = 1;

/** The server's refusal in words: what went wrong, then its own reason (or the fields it names). */
function describeFailure(error: unknown): { title: string; message: string } {
  if (!(error instanceof ApiError)) return { title: "Not uploaded", message: describeError(error) };
  const fieldWords = error.fields ? Object.values(error.fields).flat().join("; ") : "";
  const message = error.code === "validation_failed" && fieldWords ? `The file ${fieldWords}.` : error.message;
  switch (error.code) {
    case "file_too_large":
      return { title: "Too large", message };
    case "unsupported_media_type":
      return { title: "Not a kind of file Frontdesk reads", message };
    case "network_error":
      return { title: "Not sent", message };
    default:
      return { title: "Not uploaded", message };
  }
}

const percentOf = (upload: Upload) => (upload.total > 0 ? Math.round((upload.sent / upload.total) * 100) : 0);

function UploadRow({ upload }: { upload: Upload }) {
  const id = useId();
  const percent = percentOf(upload);
  const name = upload.file.name;
  return (
    <li className="upload-row" aria-label={name} data-state={upload.state} {...(upload.error ? { "aria-describedby": `${id}-error` } : {})}>
      <div className="upload-top">
        <span className="upload-name">{name}</span>
        <span className="muted upload-size">{formatBytes(upload.file.size)}</span>
      </div>
      {(upload.state === "waiting" || upload.state === "uploading") && (
        <div className="upload-progress">
          <progress max={100} value={percent} aria-label={`Upload of ${name}`} aria-valuetext={upload.state === "waiting" ? "waiting" : `${percent} %`} />
          <span className="muted">{upload.state === "waiting" ? "Waiting…" : `${percent} %`}</span>
        </div>
      )}
      {upload.state === "uploaded" && (
        <p className="upload-done">{upload.duplicate ? "Already a source of this agent: nothing new was added." : "Uploaded: it is being read and indexed below."}</p>
      )}
      {upload.error && (
        <p className="upload-error" id={`${id}-error`}>
          <strong>{upload.error.title}:</strong> {upload.error.message}
        </p>
      )}
    </li>
  );
}

/**
 * Upload files as sources (issue 32): dropped on the zone or chosen with the picker, several at
 * once, each with its progress and, when refused, the server's reason. Posted to the console's
 * sources route (the Sources API's use case); progress and outcomes are announced politely.
 */
export function FileUploads({ agentId }: { agentId: string }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [csvMode, setCsvMode] = useState<CsvMode>("curated");
  const [dragging, setDragging] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const hintId = useId();

  const update = (key: number, patch: Partial<Upload>) => setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const send = async (upload: Upload, mode: CsvMode) => {
    update(upload.key, { state: "uploading" });
    try {
      const { created } = await uploadFileSource({ agentId, csvMode: mode }, upload.file, (sent, total) => update(upload.key, { sent, total }));
      update(upload.key, { state: "uploaded", sent: upload.total, duplicate: !created });
      setAnnouncement(`${upload.file.name} uploaded${created ? "; it is being indexed" : ": the agent already had it"}.`);
    } catch (error) {
      const failure = describeFailure(error);
      update(upload.key, { state: "failed", error: failure });
      setAnnouncement(`${upload.file.name} was not uploaded. ${failure.title}: ${failure.message}`);
    }
    void queryClient.invalidateQueries({ queryKey: [...SOURCES_QUERY_KEY, agentId] });
  };

  const start = (files: File[]) => {
    if (files.length === 0) return;
    const added: Upload[] = files.map((file) => ({ key: nextKey++, file, state: "waiting", sent: 0, total: file.size }));
    setUploads((all) => [...all, ...added].slice(-KEPT));
    setAnnouncement(added.length === 1 ? `Uploading ${added[0]!.file.name}.` : `Uploading ${added.length} files.`);
    const queue = [...added];
    const mode = csvMode;
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await send(next, mode);
    };
    void Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    start(Array.from(event.dataTransfer?.files ?? []));
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };
  const busy = uploads.some((upload) => upload.state === "waiting" || upload.state === "uploading");

  return (
    <section className="file-uploads" aria-labelledby="file-uploads-title">
      <h2 id="file-uploads-title">Upload files</h2>
      <div
        className={`drop-zone${dragging ? " drop-zone-active" : ""}`}
        data-testid="drop-zone"
        onDragEnter={onDragOver}
        onDragOver={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}>
        <p id={hintId} className="drop-zone-words">
          Drop PDF, DOCX, Markdown, text, HTML or CSV files here
        </p>
        <button type="button" className="primary" aria-describedby={hintId} onClick={() => input.current?.click()}>
          Choose files…
        </button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          aria-label="Files to upload"
          onChange={(event) => {
            start(Array.from(event.currentTarget.files ?? []));
            event.currentTarget.value = "";
          }}
        />
      </div>
      <fieldset className="kind-choice csv-choice">
        <legend>A CSV of question,answer rows becomes</legend>
        <label>
          <input type="radio" name="csv-mode" value="curated" checked={csvMode === "curated"} onChange={() => setCsvMode("curated")} />
          Curated answers
        </label>
        <label>
          <input type="radio" name="csv-mode" value="chunks" checked={csvMode === "chunks"} onChange={() => setCsvMode("chunks")} />
          Passages to search
        </label>
      </fieldset>
      {uploads.length > 0 && (
        <ul className="upload-list" aria-label="Uploads" aria-busy={busy}>
          {uploads.map((upload) => (
            <UploadRow key={upload.key} upload={upload} />
          ))}
        </ul>
      )}
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
    </section>
  );
}
