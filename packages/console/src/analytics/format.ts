/** How the analytics screen writes its figures. */

/** A share from 0 to 1 as a whole percentage ("12.5 %" keeps one decimal when it has one); an em dash for no data. */
export function formatShare(share: number | null): string {
  if (share === null) return "—";
  const percent = Math.round(share * 1000) / 10;
  return `${percent.toLocaleString("en", { maximumFractionDigits: 1 })}%`;
}

/** Seconds as "45 s", "2 min", "2 min 30 s", "1 h 5 min"; an em dash for no data. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) {
    const minutes = Math.floor(whole / 60);
    const rest = whole % 60;
    return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  }
  const hours = Math.floor(whole / 3600);
  const minutes = Math.round((whole % 3600) / 60);
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}

/** A UTC day `YYYY-MM-DD` as "Mar 1" (with the year when asked). */
export function formatDay(day: string, withYear = false): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC", ...(withYear ? { year: "numeric" } : {}) });
}

const DAY_MS = 86_400_000;
/** The UTC day `days` before `day`. */
export function dayBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}
/** Today, UTC. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);
