import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError, type Schemas } from "../api/client.js";
import { SOURCES_QUERY_KEY } from "./use-sources.js";

type Source = Schemas["ConsoleSource"];

const linesOf = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

const patternsIn = (value: unknown): string => (Array.isArray(value) ? value.filter((item) => typeof item === "string").join("\n") : "");

/** The server's words about one list of patterns (`include_patterns`, `include_patterns.2`, …). */
function errorsOf(error: unknown, field: "include_patterns" | "exclude_patterns"): string[] {
  if (!(error instanceof ApiError) || !error.fields) return [];
  return Object.entries(error.fields)
    .filter(([name]) => name === field || name.startsWith(`${field}.`))
    .flatMap(([name, messages]) => {
      const line = name.split(".")[1];
      return messages.map((message) => (line === undefined ? message : `line ${Number(line) + 1}: ${message}`));
    });
}

/** Which of a sitemap's pages are crawled: one pattern a line (`/blog/*`), saved with the button; pages now left out leave at once. */
export function UrlPatternsForm({ source, name }: { source: Source; name: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [include, setInclude] = useState(patternsIn(source.config.include_patterns));
  const [exclude, setExclude] = useState(patternsIn(source.config.exclude_patterns));
  const save = useMutation({
    mutationFn: () =>
      dataOf(
        api.PATCH("/api/v1/console/knowledge/sources/{id}", {
          params: { path: { id: source.id } },
          body: { include_patterns: linesOf(include), exclude_patterns: linesOf(exclude) },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["knowledge-source-pages", source.id] }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: SOURCES_QUERY_KEY }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const field = (kind: "include_patterns" | "exclude_patterns", label: string, hint: string, value: string, set: (value: string) => void) => {
    const errors = errorsOf(save.error, kind);
    const fieldId = `${id}-${kind}`;
    return (
      <div className="knowledge-field">
        <label htmlFor={fieldId}>{label}</label>
        <textarea
          id={fieldId}
          rows={2}
          value={value}
          spellCheck={false}
          onChange={(event) => set(event.target.value)}
          aria-describedby={`${fieldId}-hint${errors.length > 0 ? ` ${fieldId}-error` : ""}`}
          {...(errors.length > 0 ? { "aria-invalid": true } : {})}
        />
        <span id={`${fieldId}-hint`} className="hint">
          {hint}
        </span>
        {errors.length > 0 && (
          <span id={`${fieldId}-error`} className="field-error">
            {errors.join("; ")}
          </span>
        )}
      </div>
    );
  };
  const otherError = save.error && errorsOf(save.error, "include_patterns").length === 0 && errorsOf(save.error, "exclude_patterns").length === 0 ? save.error : null;
  return (
    <details className="source-patterns">
      <summary>Which pages are read</summary>
      <form onSubmit={submit} aria-label={`URL patterns of ${name}`}>
        {field("include_patterns", "Only pages matching", "One pattern a line, such as /help/*; all pages when empty.", include, setInclude)}
        {field("exclude_patterns", "Never pages matching", "One pattern a line, such as /careers/*. Pages left out leave the index at once.", exclude, setExclude)}
        <div className="knowledge-form-actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save patterns"}
          </button>
          {save.isSuccess && <span className="muted" role="status">Saved; a re-sync reads the pages now let in.</span>}
          {otherError && (
            <span className="field-error" role="alert">
              {describeError(otherError)}
            </span>
          )}
        </div>
      </form>
    </details>
  );
}
