import { describe, expect, test } from "vitest";
import type { AnswerEvent, Passage } from "../../../src/answering/generate/answer-generator.js";
import { collectAnswer } from "../../../src/answering/generate/collect-answer.js";
import { ExtractiveAnswerGenerator } from "../../../src/answering/generate/extractive-answer-generator.js";
import { splitSentences } from "../../../src/answering/generate/split-sentences.js";
import { detectLanguage } from "../../../src/language/detect-language.js";
import { answerRequest } from "./answer-request.js";
import { FRENCH_SHIPPING_PASSAGE, SHIPPING_PASSAGE, SHOP_PASSAGES } from "./fixtures/site-passages.js";

const generator = new ExtractiveAnswerGenerator();

async function eventsOf(iterable: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const events: AnswerEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

function tokensOf(events: readonly AnswerEvent[]): string[] {
  return events.flatMap((event) => (event.type === "token" ? [event.token] : []));
}

/** A sure reply's quote, after the lead naming the page it quotes ("From our Shipping page: …"), which it must have. */
function quoteOf(content: string, page: string): string {
  const lead = `From our ${page} page:`;
  expect(content.startsWith(lead), content).toBe(true);
  return content.slice(lead.length).replace(/^[ \n]/, "");
}

/** A reply's text without the leads naming the pages it quotes. */
const withoutLeads = (content: string): string => content.replace(/(^|\n\n)From our [^:\n]+ page:[ \n]/g, "$1");

const QUESTIONS = [
  "How long does shipping take, and is it free?",
  "Can I return something I bought?",
  "When is your shop open?",
  "Who founded the company?",
  "Do you sell gift cards?",
];

describe("extractive answer generator (happy)", () => {
  test.each(QUESTIONS)("answers %j only with sentences found verbatim in the passages", async (question) => {
    const answer = await collectAnswer(generator.generate(answerRequest({ question })));
    expect(answer.content).not.toBe("");
    expect(answer.content).toMatch(/^From our (?:Shipping|Returns and refunds|About us) page: /);
    const sentences = splitSentences(withoutLeads(answer.content), "en");
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) {
      expect(SHOP_PASSAGES.some((passage) => passage.content.includes(sentence)), sentence).toBe(true);
    }
  });

  test("answers from the best document only, naming it, and cites it first, then the other retrieved documents in retrieval order", async () => {
    const answer = await collectAnswer(generator.generate(answerRequest()));
    expect(answer).toEqual({
      // "How long" is answered by the sentence that says how long, "is it free" by the one after it.
      content: "From our Shipping page: Orders placed before 2 pm ship within 2–3 business days. Shipping is free on orders over €50.",
      citedDocumentIds: [101, 102, 103],
      lowConfidence: false,
      generator: "extractive",
    });
  });

  test("reads an elliptical follow-up together with the visitor's previous message", async () => {
    const history = [
      { role: "visitor" as const, content: "Do you send a tracking link?" },
      { role: "bot" as const, content: "You get a tracking link by email as soon as your parcel leaves the warehouse." },
    ];
    // "And the fee?" alone shares one word with the page; with the previous message it asks about shipping fees.
    const followUp = await collectAnswer(generator.generate(answerRequest({ question: "And the fee?", history, passages: [SHIPPING_PASSAGE] })));
    expect(followUp.content).toContain("a flat fee of €4.90 applies");
    // A follow-up that says enough on its own is read alone.
    const question = "Is shipping free on big orders?";
    const standalone = await collectAnswer(generator.generate(answerRequest({ question, history, passages: [SHIPPING_PASSAGE] })));
    const withoutHistory = await collectAnswer(generator.generate(answerRequest({ question, passages: [SHIPPING_PASSAGE] })));
    expect(standalone.content).toBe(withoutHistory.content);
    expect(standalone.content).toContain("Shipping is free on orders over €50.");
  });

  test("writes a table's rows out with their columns' names, and leaves its header row out", async () => {
    const hours: Passage = {
      number: 1,
      documentId: 301,
      url: "https://bikes.test/stores",
      title: "Our shops",
      heading: null,
      content:
        "Opening hours\n\nBrookfield, Ashcombe | Elmford\nMonday | 9:00–18:00 | Closed\nThursday | 9:00–20:00 | 10:00–17:30\n\n" +
        "Part | Warranty period | Notes\nCarbon frames | 5 years\n\nAll shops are closed on Christmas Day.",
      score: 1,
    };
    const thursday = await collectAnswer(generator.generate(answerRequest({ question: "What time does the Elmford shop close on Thursday?", passages: [hours] })));
    // The lead goes on its own line before a table row.
    expect(thursday.content.split("\n").slice(0, 2)).toEqual(["From our Our shops page:", "Thursday — Brookfield, Ashcombe: 9:00–20:00; Elmford: 10:00–17:30"]);
    expect(thursday.content).not.toContain("|");
    // A row its header does not fit is quoted as written, with the header.
    const frames = await collectAnswer(generator.generate(answerRequest({ question: "warranty on carbon frames", passages: [hours] })));
    expect(quoteOf(frames.content, "Our shops")).toBe("Part | Warranty period | Notes\nCarbon frames | 5 years");
  });

  test("the first citation is the document the answer quotes, whatever its rank", async () => {
    const opening = await collectAnswer(generator.generate(answerRequest({ question: "When is your shop open?" })));
    expect(opening.content).toBe("From our About us page: Our shop in Lyon is open Monday to Saturday, 10 am to 7 pm.");
    expect(opening.citedDocumentIds).toEqual([103, 101, 102]);

    const returns = await collectAnswer(generator.generate(answerRequest({ question: "Can I return something I bought?" })));
    expect(quoteOf(returns.content, "Returns and refunds")).toContain("within 30 days of delivery");
    expect(returns.content).not.toContain("warehouse");
    expect(returns.citedDocumentIds).toEqual([102, 101, 103]);
  });

  test("leaves out headings and labels even when they match", async () => {
    const answer = await collectAnswer(generator.generate(answerRequest({ question: "Is there tracking?" })));
    expect(quoteOf(answer.content, "Shipping")).toBe("You get a tracking link by email as soon as your parcel leaves the warehouse.");
  });

  test("answers from a French page in French words only", async () => {
    const answer = await collectAnswer(
      generator.generate(
        answerRequest({ question: "La livraison est-elle offerte ?", passages: [FRENCH_SHIPPING_PASSAGE], language: "fr" }),
      ),
    );
    expect(answer.content).toBe("D'après notre page « Livraison » : La livraison est offerte dès 50 € d'achat.");
    expect(answer.citedDocumentIds).toEqual([201]);
  });

  test("the lead naming the page is in the agent's language, as the quote is, whatever the question's language", async () => {
    const question = "Combien de temps pour le shipping?";
    expect(detectLanguage(question, "en")).toBe("fr");
    const answer = await collectAnswer(generator.generate(answerRequest({ question, passages: [SHIPPING_PASSAGE] })));
    expect(answer.lowConfidence).toBe(false);
    expect(answer.content).toMatch(/^From our Shipping page: /);
  });

  test("without a shared word it gives the top passage's opening sentences", async () => {
    const answer = await collectAnswer(generator.generate(answerRequest({ question: "xyzzy?" })));
    expect(quoteOf(answer.content, "Shipping")).toBe("We ship every order from our warehouse in Lyon. Orders placed before 2 pm ship within 2–3 business days.");
    expect(answer.citedDocumentIds).toEqual([101, 102, 103]);
  });

  test("stays within three sentences and about 600 characters", async () => {
    const sentence = (index: number): string => `Our tea number ${index} is shipped in a recyclable tin of one hundred grams with a tea guide.`;
    const passage: Passage = {
      ...SHIPPING_PASSAGE,
      content: Array.from({ length: 12 }, (_, index) => sentence(index)).join(" "),
    };
    const answer = await collectAnswer(generator.generate(answerRequest({ question: "How is tea shipped?", passages: [passage] })));
    const quote = quoteOf(answer.content, "Shipping");
    const sentences = splitSentences(quote, "en");
    expect(sentences.length).toBeLessThanOrEqual(3);
    expect(quote.length).toBeLessThanOrEqual(620);
    expect(sentences[0]).toBe(sentence(0));
  });

  test("cuts a single overlong sentence at a word and marks the cut", async () => {
    const longSentence = `Shipping ${"to every country of the European Union and beyond ".repeat(20).trim()}.`;
    const passage: Passage = { ...SHIPPING_PASSAGE, content: longSentence };
    const answer = await collectAnswer(generator.generate(answerRequest({ question: "Where do you ship?", passages: [passage] })));
    const quote = quoteOf(answer.content, "Shipping");
    expect(quote.length).toBeLessThanOrEqual(600);
    expect(quote.endsWith("…")).toBe(true);
    expect(longSentence.startsWith(quote.slice(0, -1))).toBe(true);
  });

  test("streams the answer word by word, the tokens adding up to it exactly", async () => {
    const events = await eventsOf(generator.generate(answerRequest()));
    const tokens = tokensOf(events);
    expect(tokens.length).toBe((await collectAnswer(generator.generate(answerRequest()))).content.split(/\s+/).length);
    expect(tokens.every((token) => token.trim().split(/\s+/).length === 1)).toBe(true);
    expect(tokens.join("")).toBe((await collectAnswer(generator.generate(answerRequest()))).content);
    expect(events.at(-1)?.type).toBe("done");
    expect(events.filter((event) => event.type === "done")).toHaveLength(1);
  });

  test("is deterministic", async () => {
    const first = await eventsOf(generator.generate(answerRequest({ question: "Can I return something I bought?" })));
    const second = await eventsOf(generator.generate(answerRequest({ question: "Can I return something I bought?" })));
    expect(second).toEqual(first);
  });
});

describe("extractive answer generator (low confidence)", () => {
  test("says honestly in English that it found nothing, offers a person and cites nothing", async () => {
    const answer = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true, passages: [] })));
    expect(answer).toEqual({
      content: "I'm not sure about that — I couldn't find it on this site. Would you like me to connect you with a person?",
      citedDocumentIds: [],
      lowConfidence: true,
      generator: "extractive",
    });
  });

  test("offers the pages it found as pages that may help, not as an answer, when retrieval matched only weakly", async () => {
    const answer = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true })));
    expect(answer.content).toBe(
      "These pages may help: Shipping; Returns and refunds\nI'm not sure this answers your question. Would you like me to connect you with a person?",
    );
    // It links those pages: the best two, in retrieval rank.
    expect(answer.citedDocumentIds).toEqual([101, 102]);
    expect(answer.lowConfidence).toBe(true);
    // Nothing of the pages is quoted.
    for (const passage of SHOP_PASSAGES) for (const sentence of splitSentences(passage.content, "en")) expect(answer.content).not.toContain(sentence);
  });

  test("a doubtful match on one page is offered as 'This page may help', named without the site's name, and linked", async () => {
    const passage: Passage = { ...SHIPPING_PASSAGE, title: "Shipping | Alpine Tea", url: "https://alpinetea.example/help/shipping" };
    const answer = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true, question: "Do you ship tea to Norway?", passages: [passage] })));
    expect(answer).toEqual({
      content: "This page may help: Shipping\nI'm not sure this answers your question. Would you like me to connect you with a person?",
      citedDocumentIds: [SHIPPING_PASSAGE.documentId],
      lowConfidence: true,
      generator: "extractive",
    });
  });

  test("answers in the visitor's language, whatever the agent's", async () => {
    const french = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true, passages: [], question: "Est-ce que vous livrez en Belgique ?" })));
    expect(french.content).toMatch(/^Je ne suis pas sûr/);
    const german = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true, language: "fr", question: "Wie lange dauert die Lieferung nach Berlin?" })));
    expect(german.content).toMatch(/^Da bin ich mir nicht sicher/);
  });

  test("says it in French for a French agent when the message does not tell (region subtags included)", async () => {
    for (const language of ["fr", "fr-CA"]) {
      const answer = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true, passages: [], question: "Belgique ?", language })));
      expect(answer.content).toBe(
        "Je ne suis pas sûr de la réponse — je ne l'ai pas trouvée sur ce site. Voulez-vous que je vous mette en relation avec une personne ?",
      );
      expect(answer.citedDocumentIds).toEqual([]);
    }
  });

  test.each(["de", "es", "pt-BR", "it", "nl"])("has its own reply in %s", async (language) => {
    const answer = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true, question: "xyzzy?", language })));
    expect(answer.content).not.toContain("I'm not sure");
    expect(answer.lowConfidence).toBe(true);
  });

  test("falls back to English for other languages", async () => {
    const answer = await collectAnswer(generator.generate(answerRequest({ lowConfidence: true, question: "xyzzy?", language: "ja" })));
    expect(answer.content).toMatch(/^I'm not sure about that/);
  });

  test("treats no passages, or passages without a usable sentence, as low confidence", async () => {
    const none = await collectAnswer(generator.generate(answerRequest({ passages: [] })));
    expect(none).toMatchObject({ citedDocumentIds: [], lowConfidence: true });
    const labels = await collectAnswer(generator.generate(answerRequest({ passages: [{ ...SHIPPING_PASSAGE, content: "Shipping\nMenu" }] })));
    expect(labels).toMatchObject({ citedDocumentIds: [SHIPPING_PASSAGE.documentId], lowConfidence: true });
  });
});

describe("extractive answer generator (abort)", () => {
  test("stops streaming when the signal aborts and still ends with done", async () => {
    const controller = new AbortController();
    const events: AnswerEvent[] = [];
    for await (const event of generator.generate(answerRequest({ signal: controller.signal }))) {
      events.push(event);
      if (events.length === 3) controller.abort();
    }
    expect(tokensOf(events)).toHaveLength(3);
    expect(events.at(-1)).toEqual({ type: "done", citedDocumentIds: [101, 102, 103], lowConfidence: false, judgement: "answered", generator: "extractive" });
  });

  test("sends nothing but done when the client has already gone", async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await eventsOf(generator.generate(answerRequest({ signal: controller.signal })));
    expect(events).toEqual([{ type: "done", citedDocumentIds: [], lowConfidence: false, judgement: "interrupted", generator: "extractive" }]);
  });
});
