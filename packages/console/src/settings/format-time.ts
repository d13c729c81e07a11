/** A timestamp as the settings page writes it ("Mar 1, 2026, 10:05"), or a word for none. */
export function formatTime(iso: string | null, none = "Never"): string {
  if (iso === null) return none;
  return new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
}
