import { describe, expect, it } from "vitest";
import { engagementEn } from "../src/app/engagement/engagement-strings.js";
import { ENGAGEMENT_TRANSLATIONS } from "../src/app/languages/engagement.js";
import { resolveUiLanguage, SPOKEN_LANGUAGES, TRANSLATIONS } from "../src/app/ui-language.js";
import { en } from "../src/app/ui-strings.js";
import { LAUNCHER_LABELS } from "../src/loader/launcher-labels.js";
import { pickLanguage, textDirection } from "../src/shared/pick-language.js";

/** A value of a strings table as the visitor sees it (functions called with a sample argument). */
const shown = (value: unknown, sample: string | number | null = "Ada"): string => (typeof value === "function" ? String((value as (argument: unknown) => unknown)(sample)) : String(value));

describe("the widget's languages", () => {
  it("happy: speaks at least en, fr, de, es, nl, pt and it, and a right-to-left language (ar, he)", () => {
    expect(SPOKEN_LANGUAGES).toEqual(expect.arrayContaining(["en", "fr", "de", "es", "nl", "pt", "it", "ar", "he"]));
  });

  it.each(Object.entries(TRANSLATIONS))("happy: %s has every key of the English table, of the same kind, and nothing else", (_language, table) => {
    expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
    for (const [key, value] of Object.entries(en)) {
      const translated = (table as Record<string, unknown>)[key];
      expect(typeof translated, key).toBe(typeof value);
      expect(shown(translated).trim(), key).not.toBe("");
      // What a function is given (the persona's name, the seconds to wait) appears in what it says.
      if (typeof value === "function" && key !== "tooMany") expect(shown(translated, "Zoë"), key).toContain("Zoë");
    }
    expect(shown(table.tooMany, 17)).toContain("17");
    expect(shown(table.tooMany, null)).not.toMatch(/\d|null/);
  });

  it.each(SPOKEN_LANGUAGES.filter((language) => language !== "en"))("happy: %s has every key of the engagement features' English table (rule bubble, coupon, satisfaction)", (language) => {
    const table = ENGAGEMENT_TRANSLATIONS[language] ?? {};
    expect(Object.keys(table).sort()).toEqual(Object.keys(engagementEn).sort());
    for (const [key, value] of Object.entries(engagementEn)) {
      const translated = (table as Record<string, unknown>)[key];
      expect(typeof translated, key).toBe(typeof value);
      if (typeof value === "function") expect(shown(translated, "SPRING10"), key).toContain("SPRING10");
    }
    expect(shown(resolveUiLanguage(language, undefined, []).engagement.csatQuestion)).toBe(table.csatQuestion);
  });

  it.each(SPOKEN_LANGUAGES.filter((language) => language !== "en"))("happy: %s is translated, not English copied", (language) => {
    const table = TRANSLATIONS[language]!;
    for (const key of ["launcher", "openChat", "closeChat", "greeting", "placeholder", "send", "retry", "networkProblem"] as const) {
      expect(shown(table[key]), `${language}.${key}`).not.toBe(shown(en[key]));
    }
  });

  it("happy: the loader names the launcher in every language the bundle speaks, with the bundle's own words", () => {
    expect(Object.keys(LAUNCHER_LABELS).sort()).toEqual([...SPOKEN_LANGUAGES].sort());
    for (const language of SPOKEN_LANGUAGES) expect(LAUNCHER_LABELS[language]).toBe(TRANSLATIONS[language]!.launcher);
  });

  it("happy: data-language first, then the agent's language_default, then the browser's languages, then English", () => {
    expect(resolveUiLanguage("de", "fr", ["es-ES", "en"]).language).toBe("de");
    expect(resolveUiLanguage(null, "fr", ["es-ES", "en"]).language).toBe("fr");
    expect(resolveUiLanguage(null, undefined, ["es-ES", "en"]).language).toBe("es");
    expect(resolveUiLanguage(null, undefined, []).language).toBe("en");
    // By primary subtag, in any case; a language the widget does not speak passes to the next.
    expect(resolveUiLanguage("pt-BR", "en", []).language).toBe("pt");
    expect(resolveUiLanguage("NL", "en", []).language).toBe("nl");
    expect(resolveUiLanguage("ja", "it", ["de"]).language).toBe("it");
    expect(resolveUiLanguage("ja", "zh", ["ko", "fr-CA"]).language).toBe("fr");
    expect(pickLanguage(["xx", undefined, null, ""], ["en"])).toBe("en");
  });

  it("happy: the strings are the language's, with English for a key a table lacks", () => {
    const french = resolveUiLanguage("fr", undefined, []);
    expect(french.strings.openChat("Ada")).toBe("Ouvrir le chat avec Ada");
    expect(french.dir).toBe("ltr");
    expect(resolveUiLanguage("en", undefined, []).strings).toEqual(en);
  });

  it("happy: Arabic, Hebrew, Persian and Urdu are right to left; the others left to right", () => {
    expect(resolveUiLanguage("ar", undefined, [])).toMatchObject({ language: "ar", dir: "rtl" });
    expect(resolveUiLanguage("he-IL", undefined, [])).toMatchObject({ language: "he", dir: "rtl" });
    expect(["ar", "he", "fa", "ur", "fa-IR", "UR"].map(textDirection)).toEqual(["rtl", "rtl", "rtl", "rtl", "rtl", "rtl"]);
    expect(["en", "fr", "de", "es", "nl", "pt", "it"].map(textDirection)).toEqual(Array(7).fill("ltr"));
  });
});
