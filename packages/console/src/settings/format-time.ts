/** A timestamp as the settings page writes it, short: "Nov 24, 14:05" this year, "Mar 1, 2025, 14:05" before; a word for none. */
export function formatTime(iso: string | null, none = "Never"): string {
  if (iso === null) return none;
  const date = new Date(iso);
  const thisYear = date.getFullYear() === new Date().getFullYear();
  return date.toLocaleString("en", { month: "short", day: "numeric", ...(thisYear ? {} : { year: "numeric" }), hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}
