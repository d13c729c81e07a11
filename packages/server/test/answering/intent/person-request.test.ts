import { describe, expect, test } from "vitest";
import { asksForPerson, saysYes } from "../../../src/answering/intent/person-request.js";

describe("a request for a person", () => {
  test.each([
    "can I talk to a human?",
    "Can I speak to someone please",
    "I want to chat with a real person",
    "connect me to an agent",
    "human please",
    "Agent!",
    "I need a real person",
    "is there a live agent?",
    "Je voudrais parler à un conseiller",
    "Kann ich mit einem Mitarbeiter sprechen?",
    "¿Puedo hablar con una persona?",
    "Quero falar com um atendente",
    "Posso parlare con un operatore?",
    "Kan ik spreken met een medewerker?",
  ])("%j asks for a person", (message) => {
    expect(asksForPerson(message)).toBe(true);
  });

  test.each([
    "Do you have staff in Brookfield?",
    "How many people work at Acme?",
    "Can I talk to the workshop about my bike?",
    "What does a delivery agent do with my parcel?",
    "Is the Elmford shop open on Saturday?",
    "Do you sell human-powered bikes?",
    "",
    `can I talk to a human ${"about this ".repeat(20)}`,
  ])("%j is a question for the knowledge", (message) => {
    expect(asksForPerson(message)).toBe(false);
  });

  test.each(["yes", "Yes please!", "ok", "sure", "oui", "Ja, bitte", "sí", "sim", "sì", "ja graag"])("%j says yes", (message) => {
    expect(saysYes(message)).toBe(true);
  });

  test.each(["yes, but how much is delivery?", "no", "no thanks", "yesterday", "", "okay so what about returns"])("%j does not only say yes", (message) => {
    expect(saysYes(message)).toBe(false);
  });
});
