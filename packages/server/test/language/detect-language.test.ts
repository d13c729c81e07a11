import { describe, expect, it } from "vitest";
import { detectLanguage } from "../../src/language/detect-language.js";

/** Short questions a visitor types into the widget, in its seven languages (none of them tuned on: the detector was written against other questions). */
const SHORT_QUESTIONS: Record<string, string[]> = {
  en: ["Do you have gift cards?", "Where can I park?", "My parcel never arrived", "Is the shop open today?", "How do I reset my password?", "Can I pay by card?"],
  fr: ["Avez-vous des cartes cadeaux ?", "Où puis-je me garer ?", "Mon colis n'est jamais arrivé", "Le magasin est-il ouvert aujourd'hui ?", "Comment réinitialiser mon mot de passe ?", "Puis-je payer par carte ?"],
  de: ["Habt ihr Gutscheine?", "Wo kann ich parken?", "Mein Paket ist nie angekommen", "Ist der Laden heute offen?", "Wie setze ich mein Passwort zurück?", "Kann ich mit Karte zahlen?"],
  es: ["¿Tienen tarjetas regalo?", "¿Dónde puedo aparcar?", "Mi paquete nunca llegó", "¿La tienda abre hoy?", "¿Cómo restablezco mi contraseña?", "¿Puedo pagar con tarjeta?"],
  nl: ["Hebben jullie cadeaukaarten?", "Waar kan ik parkeren?", "Mijn pakket is nooit aangekomen", "Is de winkel vandaag open?", "Hoe reset ik mijn wachtwoord?", "Kan ik met kaart betalen?"],
  pt: ["Vocês têm cartões-presente?", "Onde posso estacionar?", "Minha encomenda nunca chegou", "A loja está aberta hoje?", "Como redefino minha senha?", "Posso pagar com cartão?"],
  it: ["Avete carte regalo?", "Dove posso parcheggiare?", "Il mio pacco non è mai arrivato", "Il negozio è aperto oggi?", "Come reimposto la mia password?", "Posso pagare con la carta?"],
};

describe("language detection on short questions", () => {
  it.each(Object.entries(SHORT_QUESTIONS).flatMap(([language, questions]) => questions.map((question) => [question, language])))(
    "happy: %j is %s, whatever the agent's language",
    (question, language) => {
      for (const fallback of ["en", "de"]) expect(detectLanguage(question!, fallback)).toBe(language);
    },
  );

  it.each([
    ["Livrez-vous le dimanche ?", "fr"],
    ["Öffnungszeiten?", "de"],
    ["Horaires d'ouverture ?", "fr"],
    ["¿Horario de apertura?", "es"],
    ["Opening hours?", "en"],
  ])("happy: a question of one or two words, %j, is %s by its help-desk words", (question, language) => {
    expect(detectLanguage(question, "it")).toBe(language);
  });

  it("error: a word every language shares, a name or nothing gives the agent's language", () => {
    expect(detectLanguage("Amsterdam?", "fr")).toBe("fr");
    expect(detectLanguage("OK", "nl")).toBe("nl");
    expect(detectLanguage("12345", "pt")).toBe("pt");
    expect(detectLanguage("", "de")).toBe("de");
  });
});
