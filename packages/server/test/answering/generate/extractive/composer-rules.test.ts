import { describe, expect, it } from "vitest";
import type { Passage } from "../../../../src/answering/generate/answer-generator.js";
import { contentStems } from "../../../../src/answering/generate/content-words.js";
import type { ComposerRule } from "../../../../src/answering/generate/extractive/composer-rule.js";
import { COMPOSER_RULES } from "../../../../src/answering/generate/extractive/composer-rules.js";
import { selectSentences } from "../../../../src/answering/generate/extractive/extractive-composer.js";
import { readQuestion } from "../../../../src/answering/generate/extractive/read-question.js";
import { askedKindStated } from "../../../../src/answering/generate/extractive/rules/asked-kind-stated.js";
import { askingWordsNotLookedFor } from "../../../../src/answering/generate/extractive/rules/asking-words-not-looked-for.js";
import { briefHeadingItemsWhenBest } from "../../../../src/answering/generate/extractive/rules/brief-heading-items-when-best.js";
import { readOnToEndOfLine } from "../../../../src/answering/generate/extractive/rules/read-on-to-end-of-line.js";
import { secondQuestionFromAnotherDocument } from "../../../../src/answering/generate/extractive/rules/second-question-from-another-document.js";
import { statedKindThroughout } from "../../../../src/answering/generate/extractive/rules/stated-kind-throughout.js";
import { tableRowNamesItsColumns } from "../../../../src/answering/generate/extractive/rules/table-row-names-its-columns.js";

/** Chunk texts as ingest writes them: blocks between blank lines, list items `- `, table cells joined by ` | `. */
const passage = (documentId: number, content: string): Passage => ({ number: documentId, documentId, url: `https://shop.test/${documentId}`, title: "", heading: null, content, score: 1 });

/** The reply's sentences with every rule, and with every rule but `rule`. */
function withAndWithout(rule: ComposerRule, question: string, passages: Passage[]): { with: string[]; without: string[] } {
  const texts = (rules: readonly ComposerRule[]) => selectSentences(question, passages, "en", undefined, null, rules).map((sentence) => sentence.text);
  return { with: texts(COMPOSER_RULES), without: texts(COMPOSER_RULES.filter((other) => other !== rule)) };
}

/** Each rule's example: what it changes in a reply. */
const tested = new Set<ComposerRule>();
const ruleTest = (rule: ComposerRule, body: () => void) =>
  it(`happy: ${rule.name}`, () => {
    tested.add(rule);
    body();
  });

describe("the extractive composer's rules, each on its own", () => {
  ruleTest(askingWordsNotLookedFor, () => {
    const question = readQuestion("What time does the workshop open?", "en", null);
    const stemsOf = (text: string) => [...contentStems(text, "en")];
    expect([...question.weights.keys()].sort()).toEqual(stemsOf("time workshop open").sort());
    askingWordsNotLookedFor.readQuestion?.(question);
    // "time" asks for a time: a sentence holding "in good time" does not answer it.
    expect([...question.weights.keys()].sort()).toEqual(stemsOf("workshop open").sort());
  });

  ruleTest(tableRowNamesItsColumns, () => {
    const hours = passage(
      1,
      "Opening hours\n\nTown centre | Harbour\nMonday | 9:00–18:00 | Closed\nSaturday | 9:00–17:30 | 9:30–17:30\nSunday | 10:00–16:00 | Closed\n\n" +
        "On bank holidays all shops, including Harbour, open 10:00–16:00. All shops are closed on Christmas Day.",
    );
    const delivery = passage(2, "Order by 1pm on Friday and choose Saturday delivery.\n\nSaturday delivery costs £14.95.\n\nSaturday deliveries arrive between 8am and 6pm.");
    const reply = withAndWithout(tableRowNamesItsColumns, "What time does the harbour shop close on Saturday?", [hours, delivery]);
    expect(reply.with.slice(0, 2)).toEqual(["Town centre | Harbour", "Saturday | 9:00–17:30 | 9:30–17:30"]);
    expect(reply.with).not.toContain("Monday | 9:00–18:00 | Closed");
    expect(reply.without).not.toContain("Saturday | 9:00–17:30 | 9:30–17:30");
  });

  ruleTest(askedKindStated, () => {
    const warranty = passage(1, "Part | Cover\nCarbon frames | 5 years\nForks | 2 years\n\nThe warranty covers carbon frames against defects in materials.");
    const reply = withAndWithout(askedKindStated, "How long is the warranty on a carbon frame?", [warranty]);
    expect(reply.with).toEqual(["Part | Cover", "Carbon frames | 5 years"]);
    expect(reply.without).toEqual(["The warranty covers carbon frames against defects in materials."]);
  });

  ruleTest(briefHeadingItemsWhenBest, () => {
    const payment = passage(
      1,
      "We accept a wide range of payment methods online and in our shops.\n\nOnline\n\n- Debit and credit cards\n- Wallet apps, including split payments in 3\n\n" +
        "We don't accept cheques. You can pay with a wallet app in our shops too.",
    );
    const reply = withAndWithout(briefHeadingItemsWhenBest, "Can I pay with a wallet app?", [payment]);
    expect(reply.with).toEqual(["You can pay with a wallet app in our shops too."]);
    expect(reply.without).toEqual(["Online", "- Wallet apps, including split payments in 3", "You can pay with a wallet app in our shops too."]);
  });

  ruleTest(statedKindThroughout, () => {
    const shop = passage(
      1,
      "The riverside shop closes at 20:00 on Thursday.\n\nThe riverside shop has an accessible toilet and a lift to the first floor.\n\nParking at the riverside shop is free after 18:00.",
    );
    const reply = withAndWithout(statedKindThroughout, "What time does the riverside shop close on Thursday?", [shop]);
    expect(reply.with).toEqual(["The riverside shop closes at 20:00 on Thursday.", "Parking at the riverside shop is free after 18:00."]);
    expect(reply.without).toContain("The riverside shop has an accessible toilet and a lift to the first floor.");
    // Not when the message asks a second thing.
    expect(selectSentences("Where is the riverside shop and what time does it close on Thursday?", [shop], "en").map((sentence) => sentence.text)).toContain(
      "The riverside shop has an accessible toilet and a lift to the first floor.",
    );
  });

  ruleTest(readOnToEndOfLine, () => {
    const collect = passage(1, "Our shops are in the town centre.\n\nClick and collect is free on every order. Choose Collect from store at checkout.\n\nBikes are built in our workshop.");
    const reply = withAndWithout(readOnToEndOfLine, "is click and collect free?", [collect]);
    expect(reply.with).toEqual(["Click and collect is free on every order.", "Choose Collect from store at checkout."]);
    expect(reply.without).toEqual(["Click and collect is free on every order."]);
  });

  ruleTest(secondQuestionFromAnotherDocument, () => {
    const delivery = passage(10, "We deliver to Germany and France in 3 days. Delivery to Germany costs €9.");
    const bikes = passage(11, "Our gravel bikes cost from €900 and come in five sizes.");
    const reply = withAndWithout(secondQuestionFromAnotherDocument, "Do you deliver to Germany? How much is a gravel bike?", [delivery, bikes]);
    expect(reply.with.at(-1)).toBe("Our gravel bikes cost from €900 and come in five sizes.");
    expect(reply.without).not.toContain("Our gravel bikes cost from €900 and come in five sizes.");
  });

  it("every rule of the composer has its example here", () => {
    expect(COMPOSER_RULES.filter((rule) => !tested.has(rule)).map((rule) => rule.name)).toEqual([]);
    expect(new Set(COMPOSER_RULES.map((rule) => rule.name)).size).toBe(COMPOSER_RULES.length);
  });
});
