import { describe, expect, it } from "vitest";
import { answerTurn, type CuratedMatch, type TurnDecision, type TurnHistoryEntry, type TurnKnowledge } from "../../src/answering/answer-turn.js";
import type { AnswerGenerator } from "../../src/answering/generate/answer-generator.js";
import { createRetrievalCaches } from "../../src/answering/retrieve/retrieval-caches.js";
import { retrievalCalibrationFor } from "../../src/answering/retrieve/retrieval-calibration.js";
import { TURN_STAGES, type TurnTrace } from "../../src/answering/turn-trace.js";
import type { Database } from "../../src/db/database.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";

/** A store the stages before retrieval must never read: any statement fails the test. */
const untouchedStore: Database = {
  kind: "pglite",
  query: () => Promise.reject(new Error("the store was read")),
  transaction: () => Promise.reject(new Error("the store was read")),
  exec: () => Promise.reject(new Error("the store was read")),
  withAdvisoryLock: () => Promise.reject(new Error("the store was read")),
  withAdvisoryLockIfFree: () => Promise.reject(new Error("the store was read")),
  ping: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

/** A generator standing for any model: it must not be asked. */
const modelNeverAsked: AnswerGenerator = {
  id: "openai:gpt-4o-mini",
  generate() {
    throw new Error("the model was asked");
  },
};

function knowledgeWith(curated: CuratedMatch | null = null, lookup = true): TurnKnowledge {
  const embedder = new HashingEmbedder();
  return {
    db: untouchedStore,
    embedder,
    lexical: createRetrievalCaches({ indexBudgetBytes: 0 }),
    calibration: retrievalCalibrationFor(embedder.id),
    generator: modelNeverAsked,
    ...(lookup ? { findCuratedAnswer: async () => curated } : {}),
  };
}

async function turn(message: string, knowledge = knowledgeWith(), history: TurnHistoryEntry[] = []): Promise<{ text: string; decision: TurnDecision; trace: TurnTrace }> {
  let text = "";
  for await (const event of answerTurn(knowledge, { agent: { id: "agt_1", language: "en", persona: { name: "Ada", tone: "friendly" } }, message, history, signal: new AbortController().signal })) {
    if (event.type === "token") text += event.token;
    if (event.type === "decided") return { text, decision: event.decision, trace: event.trace };
  }
  throw new Error("the turn ended without a decision");
}

const stagesOf = (trace: TurnTrace) => trace.stages.map((record) => [record.stage, record.decided]);

describe("a visitor's turn, stage by stage", () => {
  it("happy: the stages are ordered as written down: curated answer, person request, small talk, follow-up, retrieval, confidence, composition", () => {
    expect(TURN_STAGES).toEqual(["curated_answer", "person_request", "small_talk", "follow_up", "retrieval", "confidence", "composition"]);
  });

  it("happy: a curated answer decides first, even over a request for a person; its text streams whole, citing its source; nothing else is read", async () => {
    const curated: CuratedMatch = { id: "cur_1", question: "Can I talk to a human?", answer: "Call us on 0100 000 000,\nany weekday.", sourceUrl: "https://shop.test/contact", similarity: 1 };
    const { text, decision, trace } = await turn("Can I talk to a human?", knowledgeWith(curated));
    expect(text).toBe(curated.answer);
    expect(decision).toEqual({
      kind: "reply",
      reply: { content: curated.answer, citations: [{ id: 1, url: "https://shop.test/contact" }], lowConfidence: false, generator: "curated", curatedAnswerId: "cur_1" },
    });
    expect(trace).toEqual({ stages: [{ stage: "curated_answer", decided: true, curated: { id: "cur_1", question: "Can I talk to a human?", similarity: 1 } }], decidedBy: "curated_answer" });
  });

  it("happy: asking for a person in words hands over with the visitor's words, whatever the generator, before small talk or retrieval", async () => {
    const { text, decision, trace } = await turn("Can I talk to a human?", knowledgeWith(null, false));
    expect(text).toBe("");
    expect(decision).toEqual({ kind: "handoff", reason: "Can I talk to a human?" });
    expect(stagesOf(trace)).toEqual([
      ["curated_answer", false],
      ["person_request", true],
    ]);
    expect(trace.stages[0]).toEqual({ stage: "curated_answer", decided: false, looked: false });
    expect(trace.stages[1]).toEqual({ stage: "person_request", decided: true, reason: "asked_in_words" });
  });

  it("happy: 'yes' right after an unsure reply (which offered a person) is a request for a person; after a sure one it is small talk", async () => {
    const unsure = await turn("Yes please!", knowledgeWith(), [
      { role: "visitor", content: "Who won the cup in 1998?" },
      { role: "bot", content: "I'm not sure about that…", lowConfidence: true },
    ]);
    expect(unsure.decision).toEqual({ kind: "handoff", reason: null });
    expect(unsure.trace.stages[1]).toEqual({ stage: "person_request", decided: true, reason: "said_yes_to_offer" });

    const sure = await turn("yes", knowledgeWith(), [
      { role: "visitor", content: "How long do I have to return a bike?" },
      { role: "bot", content: "Within 30 days.", lowConfidence: false },
    ]);
    expect(sure.text).toBe("Is there anything else I can help you with?");
    expect(sure.decision).toMatchObject({ kind: "reply", reply: { citations: [], lowConfidence: false, generator: "small-talk" } });
    expect(stagesOf(sure.trace)).toEqual([
      ["curated_answer", false],
      ["person_request", false],
      ["small_talk", true],
    ]);
  });

  it("happy: small talk is answered in the visitor's language with a model configured too, without retrieval or the model", async () => {
    const thanks = await turn("Merci beaucoup !");
    expect(thanks.text).toBe("Avec plaisir ! Puis-je vous aider pour autre chose ?");
    expect(thanks.trace.stages.at(-1)).toEqual({ stage: "small_talk", decided: true, kind: "thanks", language: "fr" });
    expect(thanks.trace.decidedBy).toBe("small_talk");
    expect((await turn("شكراً!")).text).toBe("على الرحب والسعة! هل هناك أي شيء آخر يمكنني مساعدتك به؟");
  });

  it("edge: a visitor who leaves during a fixed reply gets no more of it", async () => {
    const controller = new AbortController();
    const tokens: string[] = [];
    for await (const event of answerTurn(knowledgeWith(), { agent: { id: "agt_1", language: "en", persona: { name: "Ada", tone: "friendly" } }, message: "hello", history: [], signal: controller.signal })) {
      if (event.type === "token") {
        tokens.push(event.token);
        controller.abort();
      }
    }
    expect(tokens).toEqual(["Hello!"]);
  });
});
