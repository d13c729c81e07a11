import { describe, expect, test } from "vitest";
import { smallTalkReply } from "../../../src/answering/intent/small-talk.js";

const agent = { language: "en", name: "Ada" };

describe("small talk", () => {
  test.each([
    ["hi", "Hello! How can I help you today?"],
    ["Hello there!", "Hello! How can I help you today?"],
    ["hey Ada 👋", "Hello! How can I help you today?"],
    ["Good morning.", "Hello! How can I help you today?"],
    ["thanks!", "You're welcome! Is there anything else I can help you with?"],
    ["Thank you so much", "You're welcome! Is there anything else I can help you with?"],
    ["ok thanks", "You're welcome! Is there anything else I can help you with?"],
    ["thanks again", "You're welcome! Is there anything else I can help you with?"],
    ["bye", "Goodbye, and thanks for stopping by!"],
    ["Merci beaucoup !", "Avec plaisir ! Puis-je vous aider pour autre chose ?"],
    ["Bonjour", "Bonjour ! Comment puis-je vous aider ?"],
    ["Danke schön", "Gern geschehen! Kann ich Ihnen sonst noch helfen?"],
    ["¡Hola!", "¡Hola! ¿En qué puedo ayudarle?"],
    ["obrigada", "De nada! Posso ajudar em mais alguma coisa?"],
    ["grazie mille", "Prego! Posso aiutarti in qualcos'altro?"],
    ["bedankt", "Graag gedaan! Kan ik u nog ergens anders mee helpen?"],
    ["ok", "Is there anything else I can help you with?"],
    ["Got it!", "Is there anything else I can help you with?"],
    ["no thanks", "Is there anything else I can help you with?"],
    ["D'accord.", "Puis-je vous aider pour autre chose ?"],
    ["alles klar", "Kann ich Ihnen sonst noch helfen?"],
    ["vale", "¿Puedo ayudarle en algo más?"],
    ["thanks, bye", "Goodbye, and thanks for stopping by!"],
    ["ok great, thank you Ada!", "You're welcome! Is there anything else I can help you with?"],
    ["Hello hello", "Hello! How can I help you today?"],
  ])("%j is answered in kind", (message, reply) => {
    expect(smallTalkReply(message, agent)).toBe(reply);
  });

  test("a word shared by two languages is answered in the agent's language", () => {
    expect(smallTalkReply("Hallo", { language: "nl", name: "Ada" })).toBe("Hallo! Waarmee kan ik u helpen?");
    expect(smallTalkReply("Hallo", { language: "de-AT", name: "Ada" })).toBe("Hallo! Wie kann ich Ihnen helfen?");
  });

  test.each(["hi, is delivery free?", "hello delivery", "thanks, and the returns?", "Ada hi", "ok so what about returns", "How much is delivery?", "", "   ", "high", "this is hilarious"])(
    "%j is not small talk",
    (message) => {
      expect(smallTalkReply(message, agent)).toBeNull();
    },
  );
});
