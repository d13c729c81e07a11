import type { Queryable } from "../db/database.js";
import type { QuestionAnswer } from "./extract/file-extract-input.js";

/**
 * Where a CSV's rows go when its owner chose curated answers: the curated answers' owner, given
 * to ingestion by the composition root (ingestion never imports it). Replaces the source's
 * curated answers with these rows; returns how many it holds.
 */
export interface FileQuestionsSink {
  replaceSourceQuestions(tx: Queryable, source: { workspaceId: string; agentId: string; sourceId: string; sourceUrl: string | null }, rows: readonly QuestionAnswer[]): Promise<number>;
}
