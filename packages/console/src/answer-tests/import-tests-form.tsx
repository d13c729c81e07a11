import { useId, useState, type FormEvent } from "react";
import { ApiError, describeError } from "../api/client.js";
import type { useAnswerTestMutations } from "./use-answer-tests.js";

/** CSV import: a file of tests; what was created, and each refused row with why. */
export function ImportTestsForm({ importCsv }: { importCsv: ReturnType<typeof useAnswerTestMutations>["importCsv"] }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const outcome = importCsv.data;
  // A 422 lists each bad row (`row N`) or the file's own problem (`csv`) in `fields`.
  const refused = importCsv.error instanceof ApiError && importCsv.error.fields ? Object.entries(importCsv.error.fields) : [];
  const rowErrors = outcome ? outcome.errors.map((error) => [`row ${error.row}`, [error.message]] as const) : refused;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (file) importCsv.mutate(await file.text());
  };

  return (
    <form className="answer-tests-form" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import from CSV</h2>
      <p className="muted small">
        The first line is <code>question,expect_url,expect_text,expect_unsure</code>; each row gives one expectation (<code>expect_unsure</code>: true).
      </p>
      <div className="knowledge-field">
        <label htmlFor={`${id}-file`}>CSV file</label>
        <input id={`${id}-file`} type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
      </div>
      <div className="knowledge-form-actions">
        <button type="submit" disabled={!file || importCsv.isPending}>
          {importCsv.isPending ? "Importing…" : "Import"}
        </button>
        <span role="status" className="muted">
          {outcome ? `${outcome.created.length} test${outcome.created.length === 1 ? "" : "s"} imported${outcome.errors.length ? `, ${outcome.errors.length} row${outcome.errors.length === 1 ? "" : "s"} refused` : ""}.` : null}
        </span>
      </div>
      {importCsv.error && (
        <p className="error" role="alert">
          {describeError(importCsv.error)}
        </p>
      )}
      {rowErrors.length > 0 && (
        <ul className="answer-tests-row-errors" aria-label="Rows refused">
          {rowErrors.map(([row, messages]) => (
            <li key={row}>
              <strong>{row.replace(/^row/, "Row").replace(/^csv$/, "File")}</strong>: {messages.join("; ")}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
