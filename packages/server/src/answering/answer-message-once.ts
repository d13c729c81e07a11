import { createHash } from "node:crypto";
import type { MessageBody } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { receiveVisitorMessage } from "../conversations/receive-visitor-message.js";
import { answerStoredQuestion, type ConversationEvent } from "./answer-message.js";
import { HISTORY_TURNS } from "./answer-turn.js";
import { DEFAULT_ANSWER_TIMEOUT_SECONDS } from "./generate/model-generator-settings.js";
import {
  attachQuestion,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
  type ClaimedKey,
  type IdempotencyKeyRef,
  type KeptAnswer,
} from "./idempotency-key-repository.js";
import { readVisitorQuestion } from "../conversations/messages.js";

/** The same body, byte for byte once parsed: the message, the page and its context. */
const requestHashOf = (body: MessageBody) =>
  createHash("sha256")
    .update(JSON.stringify([body.message, body.page_url ?? null, body.page_context ?? null, ...(body.attachment_ids?.length ? [body.attachment_ids] : [])]))
    .digest("hex");

const inProgress = () =>
  new AppError("idempotency_request_in_progress", "A request with this Idempotency-Key is still being answered; retry in a moment.", undefined, { "retry-after": "1" });

/**
 * POST /messages(/stream); without an `Idempotency-Key`, the message is stored at once and answered
 * (before the first event, so that a refusal is still a JSON answer). With one, the key is
 * claimed in the transaction that stores the visitor's message, so a message is stored once per
 * key whatever the concurrency; the final answer is kept with it. A repeat in the conversation within
 * 24 hours gets, before any answer starts (so the stream route can still answer in JSON):
 * - the kept answer, as events (replay): the whole content as one token, citations, done;
 * - 422 `idempotency_key_reused` when its body differs from the first's;
 * - 409 `idempotency_request_in_progress` (Retry-After: 1) while the first is still answering;
 * - when the first ended without an answer (its process stopped: its lease ran out; or it failed),
 *   the answer to the message it stored, which is not stored again.
 */
export async function openAnswer(services: Services, session: WidgetSession, body: MessageBody, key: string | undefined, signal: AbortSignal): Promise<AsyncGenerator<ConversationEvent>> {
  const started = Date.now();
  if (key === undefined) {
    // Stored before the answer starts, so that a refusal (an attachment that is not this
    // conversation's unsent upload) is a JSON answer, even on the stream route.
    const question = await receiveVisitorMessage(services, session, { content: body.message, attachmentIds: body.attachment_ids }, HISTORY_TURNS);
    return answerStoredQuestion(services, session, body, question, signal, started);
  }
  const { conversation } = session;
  const ref: IdempotencyKeyRef = { conversationId: conversation.id, key };
  const requestHash = requestHashOf(body);
  // Long enough for any answer: the model's timeout, and a minute for retrieval and the rest.
  const leaseSeconds = (services.config.answers.timeoutSeconds ?? DEFAULT_ANSWER_TIMEOUT_SECONDS) + 60;
  const found: { claim: ClaimedKey | null } = { claim: null };
  const question = await receiveVisitorMessage(services, session, { content: body.message, attachmentIds: body.attachment_ids }, HISTORY_TURNS, {
    before: async (tx) => {
      found.claim = await claimIdempotencyKey(tx, { ...ref, workspaceId: conversation.workspaceId, agentId: conversation.agentId, visitorId: conversation.visitorId, requestHash, leaseSeconds });
      return found.claim === null;
    },
    after: (tx, message) => attachQuestion(tx, ref, message.id),
  });
  if (question) return keepAnswer(services, ref, answerStoredQuestion(services, session, body, question, signal, started));
  const claim = found.claim;
  if (!claim) throw new Error("the message was neither stored nor claimed");
  if (claim.requestHash !== requestHash) {
    throw new AppError("idempotency_key_reused", "This Idempotency-Key was used for another message in this conversation; send a new key for a new message.", {
      "headers.idempotency-key": ["was used with a different body"],
    });
  }
  if (claim.answer) return replay(claim.answer);
  if (claim.leased || !claim.questionId || !(await takeOverIdempotencyKey(services.db, ref, leaseSeconds))) throw inProgress();
  const stored = await readVisitorQuestion(services.db, conversation.id, claim.questionId, HISTORY_TURNS);
  if (!stored) throw inProgress();
  return keepAnswer(services, ref, answerStoredQuestion(services, session, body, stored, signal, started));
}

/** Passes the answer's events on and keeps the final answer with the key; a failure ends the key's lease. */
async function* keepAnswer(services: Services, ref: IdempotencyKeyRef, events: AsyncGenerator<ConversationEvent>): AsyncGenerator<ConversationEvent> {
  let content = "";
  let citations: KeptAnswer["citations"] = [];
  try {
    for await (const event of events) {
      if (event.type === "token") content += event.token;
      else if (event.type === "citations") citations = event.citations;
      else if (event.type === "done") {
        const { messageId, lowConfidence, awaitingHuman, discarded, curated } = event;
        const kept = { messageId, content: awaitingHuman || discarded ? "" : content, citations, lowConfidence, awaitingHuman, ...(discarded ? { discarded } : {}), ...(curated ? { curated } : {}) };
        await completeIdempotencyKey(services.db, ref, kept);
      }
      yield event;
    }
  } catch (error) {
    await releaseIdempotencyKey(services.db, ref).catch(() => undefined);
    throw error;
  }
}

/** The kept answer as the events of a live one: its content as one token, its citations, done. */
async function* replay(answer: KeptAnswer): AsyncGenerator<ConversationEvent> {
  if (answer.content) yield { type: "token", token: answer.content };
  if (!answer.awaitingHuman && !answer.discarded) yield { type: "citations", citations: answer.citations };
  yield {
    type: "done",
    messageId: answer.messageId,
    lowConfidence: answer.lowConfidence,
    awaitingHuman: answer.awaitingHuman,
    ...(answer.discarded ? { discarded: true } : {}),
    ...(answer.curated ? { curated: true } : {}),
  };
}
