import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { describe, expect, it, vi } from "vitest";
import { systemMessages } from "../../server/src/conversations/apply-transition.js";
import { Message } from "../src/app/chat-panel.js";
import { systemText } from "../src/app/system-messages.js";
import { resolveUiLanguage, SPOKEN_LANGUAGES } from "../src/app/ui-language.js";
import { en } from "../src/app/ui-strings.js";

/** Every system message the service stores, as it stores it (in English). */
const SERVICE_TEXTS = [systemMessages.humanRequested, systemMessages.joined("Ana"), systemMessages.released, systemMessages.closed, systemMessages.reopened];

describe("the handoff's system messages in the visitor's language", () => {
  it("happy: English shows the service's texts as they are", () => {
    expect(SERVICE_TEXTS.map((text) => systemText(text, en))).toEqual(SERVICE_TEXTS);
  });

  it.each(SPOKEN_LANGUAGES.filter((language) => language !== "en"))("happy: %s has its own words for each of them, the operator's name kept", (language) => {
    const strings = resolveUiLanguage(language, undefined, []).strings;
    const shown = SERVICE_TEXTS.map((text) => systemText(text, strings));
    shown.forEach((text, index) => expect(text, SERVICE_TEXTS[index]).not.toBe(SERVICE_TEXTS[index]));
    expect(new Set(shown).size).toBe(SERVICE_TEXTS.length);
    expect(shown[1]).toContain("Ana");
    expect(systemText(systemMessages.joined("Zoë Van der Berg"), strings)).toContain("Zoë Van der Berg");
  });

  it("happy: a text the widget does not know is shown as it is", () => {
    const fr = resolveUiLanguage("fr", undefined, []).strings;
    expect(systemText("Conversation moved to another team", fr)).toBe("Conversation moved to another team");
    expect(systemText(" joined the conversation", fr)).toBe(" joined the conversation");
  });

  it("happy: the conversation shows them in the widget's language (French: « Ana a rejoint la conversation »)", () => {
    const { document } = parseHTML("<!doctype html><html><body><div id='log'></div></body></html>");
    vi.stubGlobal("document", document);
    try {
      const log = document.getElementById("log") as unknown as HTMLElement;
      const fr = resolveUiLanguage("fr", undefined, []).strings;
      const messages = SERVICE_TEXTS.map((content, index) => ({ key: `m${index}`, role: "system" as const, content, citations: [], streaming: false, lowConfidence: false }));
      render(h("div", null, messages.map((message) => h(Message, { key: message.key, message, strings: fr }))), log);
      expect([...log.querySelectorAll(".from-system .bubble")].map((bubble) => bubble.textContent)).toEqual([
        "En attente d’une personne",
        "Ana a rejoint la conversation",
        "L’assistant est de retour",
        "Conversation terminée",
        "Conversation rouverte",
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
