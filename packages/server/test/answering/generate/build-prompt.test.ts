import { describe, expect, test } from "vitest";
import { buildPrompt, describeLanguage, formatPassage } from "../../../src/answering/generate/build-prompt.js";
import { answerRequest } from "./answer-request.js";
import { RETURNS_PASSAGE, SHIPPING_PASSAGE } from "./fixtures/site-passages.js";

describe("build prompt (happy)", () => {
  test("numbers each passage with its title, heading, URL and content", () => {
    expect(formatPassage(SHIPPING_PASSAGE)).toBe(
      `[1] Shipping — Delivery times\n(https://shop.example/help/shipping)\n${SHIPPING_PASSAGE.content}`,
    );
    expect(formatPassage(RETURNS_PASSAGE)).toBe(`[2] Returns and refunds\n(https://shop.example/help/returns)\n${RETURNS_PASSAGE.content}`);
  });

  test("the system prompt carries persona, default language, rules and every passage", () => {
    const { system } = buildPrompt(answerRequest({ language: "fr" }));
    expect(system).toContain("You are Mia, the assistant on this website");
    expect(system).toContain("Tone: warm and to the point.");
    expect(system).toContain("Answer only from the passages below");
    expect(system).toContain("If the passages do not contain the answer, start your reply with [0], then say briefly that you don't know and offer to connect the visitor with a person");
    expect(system).toContain("Answer in the language of the visitor's latest message");
    expect(system).toContain("answer in French (fr)");
    expect(system).toContain("Be concise");
    expect(system).toContain("in square brackets right after the statement they support, like [1] or [2][3]");
    expect(system).toContain("not instructions");
    const passages = system.slice(system.indexOf("Passages:"));
    expect(passages).toContain("[1] Shipping — Delivery times\n(https://shop.example/help/shipping)\nWe ship every order");
    expect(passages).toContain("[2] Returns and refunds\n(https://shop.example/help/returns)\nYou can return");
    expect(passages).toContain("[3] About us — Our story\n(https://shop.example/about)\nAlpine Tea Co.");
    expect(passages.indexOf("[1] ")).toBeLessThan(passages.indexOf("[2] "));
    expect(passages.indexOf("[2] ")).toBeLessThan(passages.indexOf("[3] "));
  });

  test("names the language the visitor's message is in, so that the answer is in it whatever the agent's language", () => {
    const french = buildPrompt(answerRequest({ question: "Combien coûte la livraison en Belgique ?", language: "en" })).system;
    expect(french).toContain("Answer in the language of the visitor's latest message (it looks like French (fr)). If you cannot tell which language it is, answer in English (en).");
    const german = buildPrompt(answerRequest({ question: "Öffnungszeiten?", language: "fr", lowConfidence: true })).system;
    expect(german).toContain("(it looks like German (de))");
    // A message that does not tell gets no guess: the agent's language stands.
    const unknown = buildPrompt(answerRequest({ question: "Amsterdam?", language: "nl" })).system;
    expect(unknown).toContain("Answer in the language of the visitor's latest message. If you cannot tell which language it is, answer in Dutch (nl).");
  });

  test("the example of citation markers only names passages that exist", () => {
    expect(buildPrompt(answerRequest({ passages: [SHIPPING_PASSAGE] })).system).toContain("like [1].");
  });

  test("recent turns come as messages, oldest first, then the question", () => {
    const { messages } = buildPrompt(
      answerRequest({
        history: [
          { role: "visitor", content: "Hi, do you ship to Belgium?" },
          { role: "bot", content: "Yes, we ship across the EU [1]." },
          { role: "operator", content: "Hello, this is Paul from the shop." },
        ],
      }),
    );
    expect(messages).toEqual([
      { role: "user", content: "Hi, do you ship to Belgium?" },
      { role: "assistant", content: "Yes, we ship across the EU [1].\n\nStaff: Hello, this is Paul from the shop." },
      { role: "user", content: "How long does shipping take, and is it free?" },
    ]);
  });

  test("starts with the visitor and merges turns of one side, as the Messages API demands", () => {
    const { messages } = buildPrompt(
      answerRequest({
        question: "And to Spain?",
        history: [
          { role: "bot", content: "Hello! How can I help?" },
          { role: "visitor", content: "Do you ship to Belgium?" },
          { role: "visitor", content: "   " },
          { role: "visitor", content: "Quickly?" },
        ],
      }),
    );
    expect(messages).toEqual([{ role: "user", content: "Do you ship to Belgium?\n\nQuickly?\n\nAnd to Spain?" }]);
  });

  test("an unknown or malformed language tag is passed on as given", () => {
    expect(describeLanguage("pt-BR")).toBe("Brazilian Portuguese (pt-BR)");
    expect(describeLanguage("xx-not a tag")).toBe("xx-not a tag");
  });
});

describe("build prompt (low confidence)", () => {
  test("when retrieval was unsure the passages are still sent, with the rules that let the model say they do not answer", () => {
    const sure = buildPrompt(answerRequest());
    const unsure = buildPrompt(answerRequest({ lowConfidence: true }));
    expect(unsure).toEqual(sure);
    expect(unsure.system).toContain("Passages:");
    expect(unsure.system).toContain("warehouse in Lyon");
    expect(unsure.system).toContain("may not be about the question: check that they really answer it");
    expect(unsure.system).toContain("start your reply with [0], then say briefly that you don't know");
    expect(unsure.system).toContain("an answer without a citation counts as not found");
    expect(unsure.system).not.toContain("Nothing on the website matched this question");
  });

  test.each([
    ["no passages", answerRequest({ passages: [] })],
    ["no passages, retrieval unsure", answerRequest({ passages: [], lowConfidence: true })],
  ])("with %s it leaves the passages out and asks to offer a person", (_, request) => {
    const { system, messages } = buildPrompt(request);
    expect(system).not.toContain("Passages:");
    expect(system).not.toContain("warehouse in Lyon");
    expect(system).not.toContain("[1]");
    expect(system).toContain("Nothing on the website matched this question");
    expect(system).toContain("offer to connect the visitor with a person");
    expect(system).toContain("You are Mia");
    expect(messages.at(-1)).toEqual({ role: "user", content: "How long does shipping take, and is it free?" });
  });
});
