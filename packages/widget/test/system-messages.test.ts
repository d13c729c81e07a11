import { systemMessageCodes } from "@frontdesk/contracts";
import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { describe, expect, it, vi } from "vitest";
import { systemMessages } from "../../server/src/conversations/apply-transition.js";
import { Message } from "../src/app/chat-panel.js";
import type { ChatMessage } from "../src/app/chat-message.js";
import { systemText } from "../src/app/system-messages.js";
import { resolveUiLanguage, SPOKEN_LANGUAGES } from "../src/app/ui-language.js";
import { en } from "../src/app/ui-strings.js";

/** Every system message the service stores, as it sends it: its code, its English text, the operator who joined. */
const SERVICE_MESSAGES = [
  systemMessages.humanRequested,
  systemMessages.joined({ id: "op_ana", name: "Ana" }),
  systemMessages.released,
  systemMessages.closed,
  systemMessages.reopened,
].map(
  (message, index): ChatMessage => ({
    key: `m${index}`,
    role: "system",
    code: message.code,
    content: message.content,
    author: "author" in message ? message.author.name : null,
    citations: [],
    streaming: false,
    lowConfidence: false,
  }),
);

describe("the handoff's system messages in the visitor's language, by their code", () => {
  it("happy: the service sends every code the widget knows (and no other), and English shows its texts as they are", () => {
    expect(SERVICE_MESSAGES.map((message) => message.code)).toEqual([...systemMessageCodes]);
    expect(SERVICE_MESSAGES.map((message) => systemText(message, en))).toEqual(SERVICE_MESSAGES.map((message) => message.content));
  });

  it.each(SPOKEN_LANGUAGES.filter((language) => language !== "en"))("happy: %s has its own words for each code, the operator's name kept", (language) => {
    const strings = resolveUiLanguage(language, undefined, []).strings;
    const shown = SERVICE_MESSAGES.map((message) => systemText(message, strings));
    shown.forEach((text, index) => expect(text, SERVICE_MESSAGES[index]!.content).not.toBe(SERVICE_MESSAGES[index]!.content));
    expect(new Set(shown).size).toBe(SERVICE_MESSAGES.length);
    expect(shown[1]).toContain("Ana");
    expect(systemText({ ...SERVICE_MESSAGES[1]!, author: "Zoë Van der Berg" }, strings)).toContain("Zoë Van der Berg");
  });

  it("happy: the code decides, not the text: an English text without a code (an older or unknown system message) is shown as it is", () => {
    const fr = resolveUiLanguage("fr", undefined, []).strings;
    expect(systemText({ ...SERVICE_MESSAGES[3]!, code: null }, fr)).toBe("Conversation closed");
    expect(systemText({ ...SERVICE_MESSAGES[0]!, code: null, content: "Conversation moved to another team" }, fr)).toBe("Conversation moved to another team");
    expect(systemText({ ...SERVICE_MESSAGES[3]!, content: "Closed by Ana" }, fr)).toBe("Conversation terminée");
  });

  it("happy: the conversation shows them in the widget's language (French: « Ana a rejoint la conversation »), no author line over a system message", () => {
    const { document } = parseHTML("<!doctype html><html><body><div id='log'></div></body></html>");
    vi.stubGlobal("document", document);
    try {
      const log = document.getElementById("log") as unknown as HTMLElement;
      const fr = resolveUiLanguage("fr", undefined, []).strings;
      render(h("div", null, SERVICE_MESSAGES.map((message) => h(Message, { key: message.key, message, strings: fr }))), log);
      expect([...log.querySelectorAll(".from-system .bubble")].map((bubble) => bubble.textContent)).toEqual([
        "En attente d’une personne",
        "Ana a rejoint la conversation",
        "L’assistant est de retour",
        "Conversation terminée",
        "Conversation rouverte",
      ]);
      expect(log.querySelectorAll(".author")).toHaveLength(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
