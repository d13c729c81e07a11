/**
 * The launcher's accessible name before the bundle has loaded (it then names the persona: "Open chat
 * with Ada"). The only words the loader carries; one per language the bundle speaks.
 */
export const LAUNCHER_LABELS: Readonly<Record<string, string>> = {
  en: "Open chat",
  fr: "Ouvrir le chat",
  de: "Chat öffnen",
  es: "Abrir el chat",
  nl: "Chat openen",
  pt: "Abrir o chat",
  it: "Apri la chat",
  ar: "فتح المحادثة",
  he: "פתיחת הצ׳אט",
};
