import { describe, expect, it } from "vitest";
import { buildRetrievalQuery } from "../../../src/answering/retrieve/build-retrieval-query.js";
import { isFollowUp } from "../../../src/answering/retrieve/follow-up.js";

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
    expect(buildRetrievalQuery({ message: "and to Germany?", recentVisitorMessages: earlier })).toBe("and to Germany?\nDo you deliver to France?");
  });

  it("happy: a question that stands alone is searched alone, so an earlier topic cannot outweigh it", () => {
    const message = "How long does the warranty last on tents?";
    expect(buildRetrievalQuery({ message, recentVisitorMessages: earlier })).toBe(message);
  });

  it("happy: only the previous message joins, not older ones, and never the message itself", () => {
    const query = buildRetrievalQuery({ message: "and Spain?", recentVisitorMessages: ["Do you sell tents?", "Do you deliver to France?", "and Spain?"] });
    expect(query).toBe("and Spain?\nDo you deliver to France?");
  });

  it("happy: the page's own description still joins", () => {
    const query = buildRetrievalQuery({ message: "is it waterproof?", recentVisitorMessages: [], pageContext: { title: "Trail tent 2", price: 120 } });
    expect(query).toBe("is it waterproof?\nTrail tent 2");
  });
});
