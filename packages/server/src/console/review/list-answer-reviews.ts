import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { decodeCursor, encodeCursor } from "../../paging/page-cursor.js";
import { listAnswerReviews, type AnswerReviewFilter } from "../../conversations/conversation-reports.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { REVIEW_PAGE_DEFAULT } from "./schemas.js";

export interface AnswerReviewQuery {
  agent_id?: string | undefined;
  rating?: "up" | "down" | undefined;
  low_confidence?: boolean | undefined;
  no_citation?: boolean | undefined;
  curated?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

const DAY_MS = 86_400_000;
const startOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** GET /console/answers: a page of the workspace's bot answers for review, newest first. */
export async function listAnswerReviewPage(services: Services, operator: SignedInOperator, query: AnswerReviewQuery) {
  if (query.from && query.to && query.from > query.to) {
    throw new AppError("validation_failed", "The request is invalid.", { "querystring.from": ["must not be after `to`"] });
  }
  const limit = query.limit ?? REVIEW_PAGE_DEFAULT;
  const filter: AnswerReviewFilter = {
    workspaceId: operator.workspaceId,
    agentId: query.agent_id,
    rating: query.rating,
    lowConfidence: query.low_confidence,
    noCitation: query.no_citation,
    curated: query.curated,
    from: query.from ? startOf(query.from) : undefined,
    to: query.to ? new Date(startOf(query.to).getTime() + DAY_MS) : undefined,
    limit: limit + 1,
  };
  if (query.cursor) {
    const [createdMicroseconds, id] = decodeCursor(query.cursor, ["us", "id"] as const);
    filter.after = { createdMicroseconds, id };
  }
  const rows = await listAnswerReviews(services.db, filter);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map((row) => ({
      id: row.id,
      conversation_id: row.conversationId,
      agent_id: row.agentId,
      question: row.question,
      answer: row.answer,
      citations: row.citations,
      low_confidence: row.lowConfidence,
      curated_answer_id: row.curatedAnswerId,
      trace: row.trace,
      rating: row.rating ? { rating: row.rating.rating, comment: row.rating.comment, rated_at: row.rating.ratedAt.toISOString() } : null,
      created_at: row.createdAt.toISOString(),
    })),
    next_cursor: rows.length > limit && last ? encodeCursor([last.createdMicroseconds, last.id]) : null,
  };
}
