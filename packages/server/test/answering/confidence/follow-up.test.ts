import { describe, expect, it } from "vitest";
import { buildRetrievalQuery, retrievalTexts } from "../../../src/answering/retrieve/build-retrieval-query.js";
import { isFollowUp, needsPrevious, previousForFollowUp } from "../../../src/answering/retrieve/follow-up.js";

describe("follow-up detection", () => {
  it.each(["and to Germany?", "how much?", "what about tents?", "Is it free?", "How long does that take?", "And can I get it tomorrow?", "why?", "et pour la Belgique ?"])(
    "happy: %j needs the previous message",
    (message) => {
      expect(isFollowUp(message, message.startsWith("et") ? "fr" : "en")).toBe(true);
    },
  );

  it.each([
    "How much is shipping to Germany for a gravel bike?",
    "What is your returns policy for bikes bought in a shop?",
    "How long does the warranty last on tents?",
    "I bought an e-bike last month and the battery looks swollen, what should I do?",
  ])("happy: %j stands alone", (message) => {
    expect(isFollowUp(message, "en")).toBe(false);
  });
});

describe("retrieval query", () => {
  const earlier = ["Do you deliver to France?"];

  it("happy: a follow-up is searched with the visitor's previous message", () => {
    expect(buildRetrievalQuery({ message: "and the fee?", recentVisitorMessages: earlier })).toBe("and the fee?\nDo you deliver to France?");
  });

  it("happy: a question that stands alone is searched alone, so an earlier topic cannot outweigh it", () => {
    const message = "How long does the warranty last on tents?";
    expect(buildRetrievalQuery({ message, recentVisitorMessages: earlier })).toBe(message);
  });

  it("happy: only the previous message joins, not older ones, and never the message itself", () => {
    const query = buildRetrievalQuery({ message: "and the fee?", recentVisitorMessages: ["Do you sell tents?", "Do you deliver to France?", "and the fee?"] });
    expect(query).toBe("and the fee?\nDo you deliver to France?");
  });

  it("happy: a follow-up to a follow-up is read with the question the chain follows, as the previous message read it", () => {
    const chain = ["Do you sell tents?", "Is the Elmford shop open on Saturday?", "And on Sunday?"];
    expect(buildRetrievalQuery({ message: "what about Brookfield?", recentVisitorMessages: chain })).toBe("what about Brookfield?\nAnd on Sunday?\nIs the Elmford shop open on Sunday?");
    expect(buildRetrievalQuery({ message: "and Monday?", recentVisitorMessages: [...chain, "what about Brookfield?"] })).toBe(
      "and Monday?\nwhat about Brookfield?\nAnd on Monday?\nIs the Elmford shop open on Monday?",
    );
    expect(retrievalTexts({ message: "what about Brookfield?", recentVisitorMessages: chain }).question).toBe("what about Brookfield?\nAnd on Sunday?\nIs the Elmford shop open on Sunday?");
  });

  it("happy: the page's own description still joins", () => {
    const query = buildRetrievalQuery({ message: "is it waterproof?", recentVisitorMessages: [], pageContext: { title: "Trail tent 2", price: 120 } });
    expect(query).toBe("is it waterproof?\nTrail tent 2");
  });
});

describe("a follow-up that names another day or month", () => {
  it("happy: takes its place in the previous message, in English and in the agent's language, plural or not", () => {
    expect(previousForFollowUp("Is the Elmford shop open on Saturday?", "And on Sunday?", "en")).toBe("Is the Elmford shop open on Sunday?");
    expect(previousForFollowUp("Are you open on Saturdays?", "and sundays?", "en")).toBe("Are you open on sundays?");
    expect(previousForFollowUp("Le magasin est-il ouvert le samedi ?", "Et le dimanche ?", "fr")).toBe("Le magasin est-il ouvert le dimanche ?");
    expect(previousForFollowUp("Can I return it in December?", "what about January?", "en")).toBe("Can I return it in January?");
    expect(buildRetrievalQuery({ message: "And on Sunday?", recentVisitorMessages: ["Is the Elmford shop open on Saturday?"] })).toBe("And on Sunday?\nIs the Elmford shop open on Sunday?");
  });

  it("happy: so does a country, by any of its names in English or the agent's language", () => {
    expect(previousForFollowUp("Do you ship to France?", "And Germany?", "en")).toBe("Do you ship to Germany?");
    expect(previousForFollowUp("Can you send a bike to the United States?", "what about the United Kingdom?", "en")).toBe("Can you send a bike to the United Kingdom?");
    expect(previousForFollowUp("Livrez-vous en France ?", "Et en Allemagne ?", "fr")).toBe("Livrez-vous en Allemagne ?");
    expect(buildRetrievalQuery({ message: "and to Germany?", recentVisitorMessages: ["Do you deliver to France?"] })).toBe("and to Germany?\nDo you deliver to Germany?");
  });

  it("edge: a previous message naming none, or a follow-up naming none, is read as written; a day never replaces a month", () => {
    expect(previousForFollowUp("Where is the Elmford shop?", "And on Sunday?", "en")).toBe("Where is the Elmford shop?");
    expect(previousForFollowUp("Can I return it in December?", "And on Sunday?", "en")).toBe("Can I return it in December?");
    // A word that only contains a day's name is not one ("Sundays" is, "Sundayschool" is not).
    expect(previousForFollowUp("Is Sundayschool open?", "And Monday?", "en")).toBe("Is Sundayschool open?");
  });
});

describe("a message that cannot be read alone", () => {
  it.each(["And on Sunday?", "what about Brookfield?", "and then?", "et le dimanche ?", "and how long does it take?", "And can I get it tomorrow?"])("happy: %j is not tried alone first: its question is the query", (message) => {
    const language = message.startsWith("et") ? "fr" : "en";
    expect(needsPrevious(message, language)).toBe(true);
    const texts = retrievalTexts({ message, recentVisitorMessages: ["Is the Elmford shop open on Saturday?"], language });
    expect(texts.question).toBe(texts.query);
  });

  it.each(["returns?", "And do you sell helmets?", "Is it free?", "How long does the warranty last on tents?"])("happy: %j is tried alone first", (message) => {
    expect(needsPrevious(message, "en")).toBe(false);
    expect(retrievalTexts({ message, recentVisitorMessages: ["Do you deliver to France?"] }).question).toBe(message);
  });
});
