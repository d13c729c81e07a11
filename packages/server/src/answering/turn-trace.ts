import type { SmallTalkKind } from "../language/language-pack.js";
import type { AnswerJudgement } from "./generate/answer-generator.js";
import type { ConfidenceReason } from "./confidence/retrieval-confidence.js";
import type { FollowUpReading } from "./retrieve/follow-up.js";
import type { ConfidenceThresholds } from "./retrieve/retrieval-calibration.js";
import type { Retrieval } from "./retrieve/retrieve-hybrid.js";

/**
 * The stages of a visitor's turn (`answerTurn`), in the order they run. The first three may decide
 * the turn alone, before any retrieval: an operator's curated answer, a request for a person, small
 * talk. "yes" is both a request for a person (right after a reply the bot was unsure of, which
 * offered one) and small talk (an acknowledgement): the request comes first.
 */
export const TURN_STAGES = ["curated_answer", "person_request", "small_talk", "follow_up", "retrieval", "confidence", "composition"] as const;
export type TurnStage = (typeof TURN_STAGES)[number];

/** What one stage saw and whether it decided the turn. */
export type StageRecord =
  | { stage: "curated_answer"; decided: false; looked: boolean }
  | { stage: "curated_answer"; decided: true; curated: { id: string; question: string; similarity: number } }
  | { stage: "person_request"; decided: false }
  | { stage: "person_request"; decided: true; reason: "asked_in_words" | "said_yes_to_offer" }
  | { stage: "small_talk"; decided: false }
  | { stage: "small_talk"; decided: true; kind: SmallTalkKind; language: string }
  | {
      stage: "follow_up";
      decided: false;
      reading: FollowUpReading;
      /** The earlier message a follow-up is read with, as it was read ("Is the shop open on Sunday?"), or null. */
      antecedent: string | null;
      /** What retrieval searches with, and the question it tries alone first. */
      query: string;
      question: string;
    }
  | { stage: "retrieval"; decided: false; retrieval: Retrieval }
  | {
      stage: "confidence";
      decided: false;
      /** Retrieval's own verdict: it decides for the extractive generator; a model's reply is judged by the model (see `composition.judgement`). */
      sure: boolean;
      /** Why; `nothing_retrieved` when no passage came back. */
      reason: ConfidenceReason | "nothing_retrieved";
      thresholds: ConfidenceThresholds;
    }
  | {
      stage: "composition";
      decided: true;
      generator: string;
      lowConfidence: boolean;
      citedDocumentIds: number[];
      /** What decided whether the reply is sure: retrieval's doubt, the model's decline or its citations, … */
      judgement: AnswerJudgement;
      /** Retrieval was sure, yet the reply says it is not (no sentence answered; the model said the passages do not, or cited none). */
      turnedUnsure: boolean;
      /** Retrieval was unsure, yet the reply is sure: the model found the answer in the passages and cited them. */
      turnedSure: boolean;
      /** The configured generator gave no answer and another wrote it (a model's fallback to the extractive reply). */
      fellBack: boolean;
    };

/** Every stage that ran, in order; the last one decided the turn. */
export interface TurnTrace {
  stages: StageRecord[];
  decidedBy: TurnStage;
}

/** A stage's record in a trace, if it ran. */
export function stageOf<S extends TurnStage>(trace: TurnTrace, stage: S): Extract<StageRecord, { stage: S }> | undefined {
  return trace.stages.find((record): record is Extract<StageRecord, { stage: S }> => record.stage === stage);
}
