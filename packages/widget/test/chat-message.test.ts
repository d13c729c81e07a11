import { describe, expect, it } from "vitest";
import { insertBySeq, type ChatMessage } from "../src/app/chat-message.js";

/** A message as the chat holds it: stored (with its seq), the answer streaming (no seq), or in the visitor's outbox. */
const stored = (seq: number | null, content = `seq ${seq}`): ChatMessage => ({ key: content, id: content, seq, role: "system", content, citations: [], streaming: false, lowConfidence: false });
const streaming: ChatMessage = { key: "answer", role: "bot", content: "…", citations: [], streaming: true, lowConfidence: false };
const outbox = (content: string, unsent?: boolean): ChatMessage => ({
  key: content,
  role: "visitor",
  content,
  citations: [],
  streaming: false,
  lowConfidence: false,
  out: { body: { message: content, page_url: "https://shop.example.com/" }, key: content },
  unsent,
});

const placed = (messages: ChatMessage[], ...arriving: ChatMessage[]) => {
  const shown = [...messages];
  for (const message of arriving) insertBySeq(shown, message);
  return shown.map((message) => message.key);
};

describe("the chat's messages in their seq order", () => {
  it("happy: a message newer than every shown one goes last", () => {
    expect(placed([stored(1), stored(2)], stored(3))).toEqual(["seq 1", "seq 2", "seq 3"]);
    expect(placed([], stored(1))).toEqual(["seq 1"]);
  });

  it("happy: an older message the catch-up fetched goes above a newer one that came live first", () => {
    // "Conversation closed" (seq 5) came live while the catch-up after subscribing still fetched "Waiting for a person" (seq 4).
    expect(placed([stored(1), stored(5, "closed")], stored(4, "waiting"))).toEqual(["seq 1", "waiting", "closed"]);
    expect(placed([stored(7)], stored(3), stored(5), stored(6))).toEqual(["seq 3", "seq 5", "seq 6", "seq 7"]);
  });

  it("happy: the visitor's messages not stored yet (sent or not) stay after the stored ones", () => {
    expect(placed([stored(1), outbox("in flight"), outbox("not sent", true)], stored(2))).toEqual(["seq 1", "seq 2", "in flight", "not sent"]);
    expect(placed([outbox("not sent", true)], stored(4), stored(3))).toEqual(["seq 3", "seq 4", "not sent"]);
  });

  it("happy: messages without a seq (the answer streaming, stored before seqs) keep their place and do not hold a stored one back", () => {
    expect(placed([stored(1), streaming], stored(2))).toEqual(["seq 1", "answer", "seq 2"]);
    expect(placed([stored(null, "old"), stored(3)], stored(2))).toEqual(["old", "seq 2", "seq 3"]);
  });

  it("happy: a stored message without a seq (stored before seqs were counted) goes above the counted ones", () => {
    expect(placed([stored(2), outbox("not sent", true)], stored(null, "old"))).toEqual(["old", "seq 2", "not sent"]);
  });
});
