import { describe, expect, it } from "vitest";
import type { Passage } from "../../../src/answering/generate/answer-generator.js";
import { withoutBoilerplate } from "../../../src/answering/generate/boilerplate.js";
import { detectLanguage } from "../../../src/language/detect-language.js";
import { lowConfidenceReply } from "../../../src/answering/generate/low-confidence-reply.js";
import { selectSentences } from "../../../src/answering/generate/extractive/extractive-composer.js";
import { splitPassage } from "../../../src/answering/generate/split-sentences.js";

const passage = (documentId: number, content: string): Passage => ({ number: documentId, documentId, url: `https://shop.test/${documentId}`, title: "", heading: null, content, score: 1 });

describe("sentence splitting at block boundaries", () => {
  it("happy: a title or heading never runs into the sentence after it, and is marked as a heading", () => {
    const sentences = splitPassage("Delivery and returns\n\nBuying a bike after your fit\n\nIf you buy a bike within 30 days, we refund the fit. Ask in store.", "en");
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      "Delivery and returns",
      "Buying a bike after your fit",
      "If you buy a bike within 30 days, we refund the fit.",
      "Ask in store.",
    ]);
    expect(sentences.map((sentence) => sentence.heading)).toEqual([true, true, false, false]);
    expect(sentences.map((sentence) => sentence.block)).toEqual([0, 1, 2, 2]);
  });

  it("happy: lines of one block (a list, a table) stay separate sentences, and are not headings", () => {
    const sentences = splitPassage("You will need:\n- a passport\n- proof of address", "en");
    expect(sentences.map((sentence) => [sentence.text, sentence.line, sentence.heading])).toEqual([
      ["You will need:", 0, false],
      ["- a passport", 1, false],
      ["- proof of address", 2, false],
    ]);
  });
});

describe("forum boilerplate", () => {
  it.each([
    ["Original answer: You can export the sheet as CSV from the File menu.", "You can export the sheet as CSV from the File menu."],
    ["@maria you can export the sheet from the File menu.", "You can export the sheet from the File menu."],
    ["EDIT: this also works on the mobile app now.", "This also works on the mobile app now."],
    ["Open the File menu and choose Export.", "Open the File menu and choose Export."],
    // A short line announcing a list is the page's own, not what a removed lead-in left.
    ["You must:", "You must:"],
    ["They repay:", "They repay:"],
  ])("happy: %j keeps its content", (sentence, kept) => {
    expect(withoutBoilerplate(sentence)).toBe(kept);
  });

  it.each(["Thanks, Anna", "Cheers!", "-- Mark", "Hope this helps!", "Was this article helpful?", "Posted by dave on 3 May", "Reply · Share", "Sent from my iPhone", "Edit:", "Re: ok:", "Online"])(
    "happy: %j is dropped",
    (sentence) => {
      expect(withoutBoilerplate(sentence)).toBeNull();
    },
  );
});

describe("language detection", () => {
  it.each([
    ["How much is shipping to Germany?", "en"],
    ["Combien coûte la livraison pour la Belgique ?", "fr"],
    ["Wie lange dauert die Lieferung nach Berlin?", "de"],
    ["¿Cuánto cuesta el envío a Madrid?", "es"],
    ["Hoeveel kost de verzending naar Amsterdam?", "nl"],
    ["Quanto custa o envio para Lisboa?", "pt"],
    ["Quanto costa la spedizione per Roma?", "it"],
  ])("happy: %j is %s", (text, language) => {
    expect(detectLanguage(text, "en")).toBe(language);
  });

  it("error: a message too short or too mixed to tell gives the fallback", () => {
    expect(detectLanguage("Belgique ?", "fr")).toBe("fr");
    expect(detectLanguage("xyzzy", "de")).toBe("de");
    expect(detectLanguage("", "nl")).toBe("nl");
  });
});

describe("low-confidence reply", () => {
  it("happy: says whether nothing was found or the match was doubtful, in each of the seven languages", () => {
    for (const language of ["en", "fr", "de", "es", "nl", "pt", "it"]) {
      const nothing = lowConfidenceReply(language, "nothing_found");
      const doubtful = lowConfidenceReply(language, "doubtful_match");
      expect(nothing).not.toBe(doubtful);
      if (language !== "en") expect(nothing).not.toBe(lowConfidenceReply("en", "nothing_found"));
    }
  });
});

describe("sentence selection", () => {
  const shipping = passage(1, "Delivery\n\nWe deliver to Germany and France in 3 days. Delivery to Germany costs €9.\n\nHow much is delivery?\n\nThanks, Anna");
  const bikes = passage(2, "Gravel bikes\n\nOur gravel bikes cost from €900 and come in five sizes.");

  it("happy: quotes the best document only, in page order, without headings, FAQ questions or sign-offs", () => {
    const chosen = selectSentences("Do you deliver to Germany and what does delivery cost?", [shipping, bikes], "en");
    expect(chosen.map((sentence) => sentence.text)).toEqual(["We deliver to Germany and France in 3 days.", "Delivery to Germany costs €9."]);
    expect(new Set(chosen.map((sentence) => sentence.documentId))).toEqual(new Set([1]));
  });

  it("happy: adds one sentence of a second document only when the message asks several things", () => {
    const chosen = selectSentences("Do you deliver to Germany? How much is a gravel bike?", [shipping, bikes], "en");
    expect(chosen.at(-1)).toMatchObject({ documentId: 2, text: "Our gravel bikes cost from €900 and come in five sizes." });
    expect(chosen[0]?.documentId).toBe(1);
  });

  it("happy: never more than three sentences", () => {
    const long = passage(3, Array.from({ length: 8 }, (_, index) => `Tents of model ${index} carry a warranty of two years.`).join(" "));
    expect(selectSentences("tent warranty", [long], "en")).toHaveLength(3);
  });
});
