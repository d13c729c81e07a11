import { ANSWER_TEST_CSV_HEADER, answerTestQuestionSchema, answerTestTextSchema, answerTestUrlSchema, type ImportAnswerTestsBody } from "@frontdesk/contracts";
import type { z } from "zod";
import type { Database } from "../db/database.js";
import { parseCsv } from "../files/parse-csv.js";
import { AppError } from "../http/app-error.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import type { NewAnswerTest, StoredAnswerTest } from "./answer-test-repository.js";
import { insertWithinLimit } from "./create-answer-test.js";

export interface RowError {
  row: number;
  message: string;
}

const YES = new Set(["true", "yes", "y", "1", "x"]);
const NO = new Set(["", "false", "no", "n", "0"]);

const problemOf = (field: string, result: z.ZodSafeParseResult<string>): string | null =>
  result.success ? null : `${field}: ${result.error.issues.map((issue) => issue.message).join("; ")}`;

/** One data row as a test, or why not. */
function testOfRow(fields: string[]): NewAnswerTest | string {
  if (fields.length !== ANSWER_TEST_CSV_HEADER.length) return `has ${fields.length} fields; expected ${ANSWER_TEST_CSV_HEADER.length} (${ANSWER_TEST_CSV_HEADER.join(",")})`;
  const [questionText, url, text, unsure] = fields.map((field) => field.trim()) as [string, string, string, string];
  const question = answerTestQuestionSchema.safeParse(questionText);
  const questionProblem = problemOf("question", question);
  if (questionProblem !== null || !question.success) return questionProblem ?? "question: invalid";
  const unsureWord = unsure.toLowerCase();
  if (!YES.has(unsureWord) && !NO.has(unsureWord)) return `expect_unsure: must be true or false, not '${unsure.slice(0, 40)}'`;
  const given = [url !== "", text !== "", YES.has(unsureWord)].filter(Boolean).length;
  if (given !== 1) return given === 0 ? "no expectation: give one of expect_url, expect_text and expect_unsure" : "more than one expectation: give only one of expect_url, expect_text and expect_unsure";
  if (url !== "") {
    const parsed = answerTestUrlSchema.safeParse(url);
    return parsed.success ? { question: question.data, expect: { kind: "url", value: parsed.data }, origin: "csv" } : (problemOf("expect_url", parsed) ?? "expect_url: invalid");
  }
  if (text !== "") {
    const parsed = answerTestTextSchema.safeParse(text);
    return parsed.success ? { question: question.data, expect: { kind: "text", value: parsed.data }, origin: "csv" } : (problemOf("expect_text", parsed) ?? "expect_text: invalid");
  }
  return { question: question.data, expect: { kind: "unsure", value: null }, origin: "csv" };
}

/**
 * Imports an agent's tests from CSV (header `question,expect_url,expect_text,expect_unsure`): each
 * good row becomes a test, each bad row is reported with its row number (the header is row 1) and
 * why. A file that is not CSV, has another header or no good row at all is refused whole (422, the
 * rows' errors in `fields`).
 */
export async function importAnswerTests(db: Database, workspaceId: string, body: ImportAnswerTestsBody): Promise<{ created: StoredAnswerTest[]; errors: RowError[] }> {
  const agent = await findWorkspaceAgent(db, workspaceId, body.agent_id);
  if (!agent) throw new AppError("agent_not_found", `No agent ${body.agent_id} in this workspace.`);
  const parsed = parseCsv(body.csv);
  if (!parsed.ok) throw new AppError("validation_failed", `The CSV cannot be read: ${parsed.message} (line ${parsed.line}).`, { csv: [`line ${parsed.line}: ${parsed.message}`] });
  const [header, ...rows] = parsed.records;
  const names = header?.fields.map((name) => name.trim().toLowerCase()) ?? [];
  if (names.join(",") !== ANSWER_TEST_CSV_HEADER.join(",")) {
    throw new AppError("validation_failed", `The CSV's first line must be the header ${ANSWER_TEST_CSV_HEADER.join(",")}.`, {
      csv: [`row 1: the header must be ${ANSWER_TEST_CSV_HEADER.join(",")}`],
    });
  }
  if (rows.length === 0) throw new AppError("validation_failed", "The CSV has no test under its header.", { csv: ["no rows after the header"] });
  const tests: NewAnswerTest[] = [];
  const errors: RowError[] = [];
  rows.forEach((record, index) => {
    const outcome = testOfRow(record.fields);
    if (typeof outcome === "string") errors.push({ row: index + 2, message: outcome });
    else tests.push(outcome);
  });
  if (tests.length === 0) {
    const fields = Object.fromEntries(errors.map((error) => [`row ${error.row}`, [error.message]]));
    throw new AppError("validation_failed", `No row of the CSV is a valid test (${errors.length} bad).`, fields);
  }
  const created = await db.transaction((tx) => insertWithinLimit(tx, { workspaceId, agentId: agent.id }, tests));
  return { created, errors };
}
