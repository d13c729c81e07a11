import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { ApiError, api, dataOf, describeError, type Schemas } from "../api/client.js";
import { SOURCES_QUERY_KEY } from "./use-sources.js";

/** The kinds an operator adds here (a `wordpress` source is made by the WordPress sync). */
type Kind = Exclude<Schemas["ConsoleSource"]["kind"], "wordpress" | "file">;
type Body = Schemas["CreateSourceRequest"];
type Schedule = Schemas["ConsoleSource"]["schedule"];

const KINDS: { kind: Kind; label: string }[] = [
  { kind: "sitemap", label: "Sitemap" },
  { kind: "url", label: "Page" },
  { kind: "text", label: "Text" },
];

/** A labelled field with the server's words about it beside it (linked by aria-describedby). */
function Field({ label, error, hint, children }: { label: string; error?: string[]; hint?: string; children: (props: { id: string; "aria-describedby"?: string; "aria-invalid"?: true }) => ReactNode }) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className="knowledge-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(describedBy ? { "aria-describedby": describedBy } : {}), ...(error ? { "aria-invalid": true as const } : {}) })}
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error.join(" ")}
        </span>
      )}
    </div>
  );
}

/** Add a sitemap, a page or a text to an agent's knowledge; the server's 422 shows beside the field it names. */
export function AddSourceForm({ agentId }: { agentId: string }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>("sitemap");
  const [url, setUrl] = useState("");
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [sourceUrl, setSourceUrl] = useState("");
  const [schedule, setSchedule] = useState<Schedule>("off");
  const [added, setAdded] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: Body) => dataOf(api.POST("/api/v1/console/knowledge/sources", { body })),
    onSuccess: (answer) => {
      setAdded(answer.data.kind === "text" ? "The text was added; it is being indexed." : "Added: its pages are being fetched and indexed.");
      setUrl("");
      setTitle("");
      setContent("");
      setSourceUrl("");
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: [...SOURCES_QUERY_KEY, agentId] }),
  });
  const fields = create.error instanceof ApiError ? (create.error.fields ?? {}) : {};
  const fieldError = (name: string) => fields[name] ?? fields[`body.${name}`];
  const named = new Set(["url", "title", "content", "source_url", "schedule"].flatMap((name) => [name, `body.${name}`]));
  const generalError = create.error && !Object.keys(fields).some((name) => named.has(name)) ? describeError(create.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    const body: Body =
      kind === "text"
        ? { agent_id: agentId, kind, content, ...(title.trim() ? { title } : {}), ...(sourceUrl.trim() ? { source_url: sourceUrl.trim() } : {}) }
        : { agent_id: agentId, kind, url: url.trim(), ...(schedule !== "off" ? { schedule } : {}) };
    create.mutate(body);
  };

  return (
    <form className="add-source" onSubmit={submit} noValidate aria-labelledby="add-source-title">
      <h2 id="add-source-title">Add a source</h2>
      <fieldset className="kind-choice">
        <legend>Kind</legend>
        {KINDS.map((option) => (
          <label key={option.kind}>
            <input
              type="radio"
              name="source-kind"
              value={option.kind}
              checked={kind === option.kind}
              onChange={() => {
                setKind(option.kind);
                create.reset();
              }}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {kind === "text" ? (
        <>
          <Field label="Title (optional)" error={fieldError("title")}>
            {(props) => <input {...props} value={title} maxLength={500} onChange={(event) => setTitle(event.target.value)} />}
          </Field>
          <Field label="Text" error={fieldError("content")}>
            {(props) => <textarea {...props} rows={5} value={content} onChange={(event) => setContent(event.target.value)} />}
          </Field>
          <Field label="Cited as (a URL, optional)" error={fieldError("source_url")}>
            {(props) => <input {...props} type="url" inputMode="url" value={sourceUrl} onChange={(event) => setSourceUrl(event.target.value)} />}
          </Field>
        </>
      ) : (
        <Field
          label={kind === "sitemap" ? "Sitemap address" : "Page address"}
          error={fieldError("url")}
          hint={kind === "sitemap" ? "For example https://example.com/sitemap.xml: every page it lists on that host is indexed." : "One page, indexed on its own."}>
          {(props) => <input {...props} type="url" inputMode="url" value={url} onChange={(event) => setUrl(event.target.value)} />}
        </Field>
      )}
      {kind !== "text" && (
        <Field label="Re-sync automatically" error={fieldError("schedule")} hint="Only changed pages are fetched and re-embedded; pages gone from the site are removed.">
          {(props) => (
            <select {...props} value={schedule} onChange={(event) => setSchedule(event.target.value as Schedule)}>
              <option value="off">Off (re-sync by hand)</option>
              <option value="hourly">Every hour</option>
              <option value="daily">Every day</option>
              <option value="weekly">Every week</option>
            </select>
          )}
        </Field>
      )}
      <div className="knowledge-form-actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add source"}
        </button>
        <span role="status" className="muted">
          {added}
        </span>
      </div>
      {generalError && (
        <p className="error" role="alert">
          {generalError}
        </p>
      )}
    </form>
  );
}
