import { ANSWER_TESTS_PER_AGENT_MAX, type CreateAnswerTestBody } from "@frontdesk/contracts";
import { findQuestionOfBotMessage } from "../conversations/messages.js";
import { findWorkspaceCuratedAnswer, type CuratedAnswer } from "../console/curated/curated-answers.js";
import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { insertAnswerTests, type AnswerTestOrigin, type Expectation, type NewAnswerTest, type StoredAnswerTest } from "./answer-test-repository.js";

const invalid = (field: string, message: string) => new AppError("validation_failed", "The request is invalid.", { [field]: [message] });

/** The one expectation given, or null. */
export function expectationOf(given: { expect_url?: string | undefined; expect_text?: string | undefined; expect_unsure?: boolean | undefined }): Expectation | null {
  if (given.expect_url !== undefined) return { kind: "url", value: given.expect_url };
  if (given.expect_text !== undefined) return { kind: "text", value: given.expect_text };
  if (given.expect_unsure === true) return { kind: "unsure", value: null };
  return null;
}

/** A curated answer's test expects its source page, else the first sentence of its answer (at most 200 characters). */
function curatedExpectation(curated: CuratedAnswer): Expectation {
  if (curated.sourceUrl) return { kind: "url", value: curated.sourceUrl };
  const sentence = (curated.answer.trim().match(/^[\s\S]*?[.!?](?=\s|$)/u)?.[0] ?? curated.answer).trim().replace(/\s+/gu, " ");
  return { kind: "text", value: sentence.length > 200 ? sentence.slice(0, 200).trim() : sentence };
}

/** Inserts the agent's tests unless that would make more than the limit (422 then). */
export async function insertWithinLimit(db: Queryable, scope: { workspaceId: string; agentId: string }, tests: NewAnswerTest[]): Promise<StoredAnswerTest[]> {
  const inserted = await insertAnswerTests(db, { ...scope, max: ANSWER_TESTS_PER_AGENT_MAX }, tests);
  if (inserted === null) throw invalid("agent_id", `an agent may have at most ${ANSWER_TESTS_PER_AGENT_MAX} answer tests`);
  return inserted;
}

/**
 * Creates one test: with its question and expectation; from a curated answer (its question and
 * source page or first sentence, unless given); or from a bot reply, e.g. one rated down (the
 * visitor's message before it as the question unless given, with the expectation given). A question
 * taken from a visitor's message keeps that visitor's id: their erasure deletes the test. Another
 * workspace's agent, curated answer or message is 404; an `agent_id` that is not theirs is 422.
 */
export async function createAnswerTest(db: Queryable, workspaceId: string, body: CreateAnswerTestBody, origin: Extract<AnswerTestOrigin, "console" | "cli">): Promise<StoredAnswerTest> {
  let agentId = body.agent_id;
  let question = body.question;
  let expect = expectationOf(body);
  let testOrigin: AnswerTestOrigin = origin;
  let originVisitorId: string | null = null;
  if (body.curated_answer_id !== undefined) {
    const curated = await findWorkspaceCuratedAnswer(db, workspaceId, body.curated_answer_id);
    if (!curated) throw new AppError("not_found", `No curated answer ${body.curated_answer_id} in this workspace.`);
    if (agentId !== undefined && agentId !== curated.agentId) throw invalid("agent_id", "must be the agent of curated_answer_id");
    agentId = curated.agentId;
    question ??= curated.question.trim() || undefined;
    if (question === undefined) throw invalid("question", "required: the curated answer's question was a visitor's own words and has been erased");
    expect ??= curatedExpectation(curated);
    testOrigin = "curated";
  }
  if (body.message_id !== undefined) {
    const replied = await findQuestionOfBotMessage(db, workspaceId, body.message_id);
    if (!replied) throw new AppError("not_found", `No bot message ${body.message_id} in this workspace.`);
    if (agentId !== undefined && agentId !== replied.agentId) throw invalid("agent_id", "must be the agent of message_id");
    agentId = replied.agentId;
    if (question === undefined) {
      question = replied.question?.trim().slice(0, 1000) || undefined;
      if (question === undefined) throw invalid("question", "required: no visitor message precedes message_id");
      originVisitorId = replied.visitorId;
    }
    testOrigin = "message";
  }
  if (agentId === undefined) throw invalid("agent_id", "required unless curated_answer_id or message_id is given");
  if (question === undefined) throw invalid("question", "required unless curated_answer_id or message_id is given");
  if (expect === null) throw invalid("expect_url", "give one of expect_url, expect_text and expect_unsure");
  const agent = await findWorkspaceAgent(db, workspaceId, agentId);
  if (!agent) throw new AppError("agent_not_found", `No agent ${agentId} in this workspace.`);
  const [created] = await insertWithinLimit(db, { workspaceId, agentId: agent.id }, [{ question, expect, origin: testOrigin, originVisitorId }]);
  return created!;
}
