/** The Postgres text-search configuration for an agent's default language ('simple' when Postgres has none). */
const configurations: Record<string, string> = {
  ar: "arabic",
  da: "danish",
  de: "german",
  el: "greek",
  en: "english",
  es: "spanish",
  fi: "finnish",
  fr: "french",
  hu: "hungarian",
  id: "indonesian",
  it: "italian",
  lt: "lithuanian",
  nl: "dutch",
  no: "norwegian",
  nb: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sv: "swedish",
  tr: "turkish",
};

export function textSearchConfigFor(language: string): string {
  return configurations[language.toLowerCase().split("-")[0] ?? ""] ?? "simple";
}
