import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lowConfidenceReply } from "../../src/answering/generate/low-confidence-reply.js";
import { asksForPerson, saysYes } from "../../src/answering/intent/person-request.js";
import { smallTalkOf } from "../../src/answering/intent/small-talk.js";
import type { Database } from "../../src/db/database.js";
import { detectLanguage } from "../../src/language/detect-language.js";
import type { SmallTalkKind } from "../../src/language/language-pack.js";
import { LANGUAGE_PACKS, languagePackFor, SERVER_LANGUAGES } from "../../src/language/language-packs.js";
import { textSearchConfigFor } from "../../src/language/text-search-config.js";
import { createEmptyTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

/** The widget's languages, read from its own source (the widget is a browser bundle; its list module has no browser dependency). */
async function widgetLanguages(): Promise<readonly string[]> {
  const widget: unknown = await import(new URL("../../../widget/src/app/ui-language.ts", import.meta.url).href);
  const spoken = typeof widget === "object" && widget !== null && "SPOKEN_LANGUAGES" in widget ? widget.SPOKEN_LANGUAGES : undefined;
  if (!Array.isArray(spoken)) throw new Error("the widget's ui-language.ts exports no SPOKEN_LANGUAGES");
  return spoken.map(String);
}

const KINDS: readonly SmallTalkKind[] = ["greeting", "thanks", "goodbye", "acknowledgement"];

describe("language packs", () => {
  it("happy: the server speaks exactly the widget's languages", async () => {
    expect([...SERVER_LANGUAGES].sort()).toEqual([...(await widgetLanguages())].sort());
  });

  it.each(LANGUAGE_PACKS.map((pack) => [pack.code, pack] as const))("happy: %s has every kind of small talk with a reply, yes, both unsure replies, the words naming quoted and offered pages, and a way to be recognised", (code, pack) => {
    expect(languagePackFor(code)).toBe(pack);
    for (const kind of KINDS) {
      expect(pack.smallTalk.phrases[kind].length, kind).toBeGreaterThan(0);
      expect(pack.smallTalk.replies[kind].trim(), kind).not.toBe("");
      // Each phrase of the pack is small talk of its kind, answered in the pack's language when the agent speaks it.
      for (const phrase of pack.smallTalk.phrases[kind]) {
        const read = smallTalkOf(phrase, { language: code, name: "Ada" });
        expect(read?.language, phrase).toBe(code);
      }
    }
    expect(pack.yes.length).toBeGreaterThan(0);
    for (const yes of pack.yes) expect(saysYes(yes), yes).toBe(true);
    expect(lowConfidenceReply(code, "nothing_found")).toBe(pack.unsureReplies.nothing_found);
    expect(lowConfidenceReply(code, "doubtful_match")).toBe(pack.unsureReplies.doubtful_match);
    // The extractive answerer's words naming the page it quotes, and the pages it offers.
    expect(pack.pageReplies.quoting("Zyxwv")).toContain("Zyxwv");
    expect(pack.pageReplies.quoting("Zyxwv").trim()).not.toBe("Zyxwv");
    const one = pack.pageReplies.mayHelp(["Zyxwv"]);
    const two = pack.pageReplies.mayHelp(["Zyxwv", "Qvvq"]);
    expect(one).toContain("Zyxwv");
    expect(two).toContain("Zyxwv");
    expect(two).toContain("Qvvq");
    expect(two.replace("Qvvq", "")).not.toBe(one);
    expect(lowConfidenceReply(code, "doubtful_match", ["Zyxwv"])).toBe(`${one}\n${pack.unsureReplies.doubtful_match}`);
    expect(pack.detection.script !== undefined || pack.detection.functionWords.length > 0).toBe(true);
  });

  it("happy: a tag is read by its primary language; a language without a pack answers in English, its text searched with Postgres's configuration or 'simple'", () => {
    expect(languagePackFor("fr-CA").code).toBe("fr");
    expect(languagePackFor("zh").code).toBe("en");
    expect(lowConfidenceReply("zh")).toBe(lowConfidenceReply("en"));
    expect(textSearchConfigFor("pt-BR")).toBe("portuguese");
    expect(textSearchConfigFor("ru")).toBe("russian");
    expect(textSearchConfigFor("he")).toBe("simple");
    expect(textSearchConfigFor("zh")).toBe("simple");
  });

  it("happy: Arabic and Hebrew visitors are recognised by their script and answered in their language", () => {
    expect(detectLanguage("هل توصلون إلى ألمانيا؟", "en")).toBe("ar");
    expect(detectLanguage("האם אתם שולחים לגרמניה?", "en")).toBe("he");
    expect(detectLanguage("Do you ship to Germany?", "ar")).toBe("en");
    expect(detectLanguage("؟", "he")).toBe("he");
    expect(smallTalkOf("شكراً!", { language: "en", name: "Ada" })).toMatchObject({ kind: "thanks", language: "ar" });
    expect(smallTalkOf("תודה רבה", { language: "en", name: "Ada" })).toMatchObject({ kind: "thanks", language: "he" });
    expect(smallTalkOf("مرحبا، هل توصلون إلى ألمانيا؟", { language: "ar", name: "Ada" })).toBeNull();
    for (const request of ["أريد التحدث مع موظف", "وصلني بشخص حقيقي", "موظف من فضلك", "אפשר לדבר עם נציג?", "תחבר אותי לנציג", "נציג אנושי בבקשה"]) expect(asksForPerson(request), request).toBe(true);
    for (const question of ["هل يمكن للموظف تركيب الدراجة؟", "כמה עולה משלוח לגרמניה?"]) expect(asksForPerson(question), question).toBe(false);
    expect(saysYes("نعم من فضلك")).toBe(true);
    expect(saysYes("כן בבקשה!")).toBe(true);
  });
});

describeEachStore("every pack's text-search configuration exists in %s", (kind) => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await createEmptyTestDatabase(kind);
    db = test.db;
  });
  afterAll(async () => {
    await test.drop();
  });

  it("happy: Postgres stems each language's text with its pack's configuration", async () => {
    const { rows } = await db.query<{ cfgname: string }>("SELECT cfgname::text AS cfgname FROM pg_ts_config");
    const configurations = new Set(rows.map((row) => row.cfgname));
    for (const pack of LANGUAGE_PACKS) expect(configurations.has(pack.textSearchConfig), `${pack.code}: ${pack.textSearchConfig}`).toBe(true);
  });
});
