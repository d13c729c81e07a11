import { parse } from "csv-parse/sync";
import type { ExtractedDocument } from "./extracted-document.js";
import { FileExtractionError, MAX_CSV_ROWS, type QuestionAnswer } from "./file-extract-input.js";
import { normalizeText } from "./normalize-text.js";

const HEADER = /^\s*(questions?|q)\s*$/i;

/**
 * The question,answer pairs of a CSV: the first two columns of each row (a header row naming
 * the first "question" is skipped, as are rows with either cell empty). The delimiter (comma or
 * semicolon, as spreadsheets export it) is the one of the first line.
 */
export function readQuestionAnswers(source: string): QuestionAnswer[] {
  const firstLine = source.slice(0, source.indexOf("\n") === -1 ? undefined : source.indexOf("\n"));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  let records: string[][];
  try {
    records = parse(source, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (error) {
    throw new FileExtractionError(`malformed CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (records[0] && HEADER.test(records[0][0] ?? "")) records = records.slice(1);
  const rows = records
    .map((record) => ({ question: normalizeText(record[0] ?? "").trim(), answer: normalizeText(record[1] ?? "").trim() }))
    .filter((row) => row.question !== "" && row.answer !== "");
  if (rows.length === 0) throw new FileExtractionError("the CSV has no question,answer rows (two columns: the question, then its answer)");
  if (rows.length > MAX_CSV_ROWS) throw new FileExtractionError(`the CSV has ${rows.length} rows; at most ${MAX_CSV_ROWS} are read`);
  return rows;
}

/** A CSV's rows as a document: each question a heading, its answer the section under it. */
export function questionAnswerDocument(rows: readonly QuestionAnswer[], title: string): ExtractedDocument {
  const sections = rows.map((row) => ({ heading: row.question, text: row.answer }));
  return { title, text: rows.map((row) => `${row.question}\n\n${row.answer}`).join("\n\n"), sections };
}
