import { minutesOfClock, WEEKDAYS, type OfficeHours } from "@frontdesk/contracts";

/** Whether an agent's office hours are open at an instant, and when they next open if not. */
export interface OfficeHoursStatus {
  openNow: boolean;
  /** When closed: the next opening; null when open, or when no day has hours. */
  nextOpenAt: Date | null;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The zone's name as Intl spells it (`europe/paris` → `Europe/Paris`), so one zone is stored one way. */
export function canonicalTimeZone(zone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `at`, as the UTC milliseconds of the same calendar date and time (seconds dropped). */
function wallClockOf(zone: string, at: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" });
    formats.set(zone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(at)) if (type !== "literal") part[type] = Number(value);
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!);
}

/** The zone's offset from UTC at an instant (to the minute). */
const offsetAt = (zone: string, at: number) => wallClockOf(zone, at) - Math.floor(at / MINUTE_MS) * MINUTE_MS;

/**
 * The instant a wall-clock time happens in `zone`, as Temporal's "compatible" disambiguation
 * chooses it: a time that happens twice (the hour clocks go back) is its first occurrence, and a
 * time that never happens (the hour clocks skip) moves forward by the skipped length (02:30 on
 * the spring-forward night in Paris opens at 03:30 summer time).
 */
export function instantOfWallClock(zone: string, wall: number): number {
  const before = wall - offsetAt(zone, wall - DAY_MS);
  const after = wall - offsetAt(zone, wall + DAY_MS);
  const valid = [before, after].filter((instant) => wallClockOf(zone, instant) === wall);
  return valid.length > 0 ? Math.min(...valid) : before;
}

/**
 * Open now, or when next: read in the hours' own zone with Intl, so daylight saving time is the
 * zone's (an opening at 09:00 is 09:00 local on either side of a change). Looks a week and a day
 * ahead, which holds every weekday's first interval.
 */
export function officeHoursStatus(hours: OfficeHours | null, at: Date): OfficeHoursStatus {
  if (hours === null) return { openNow: true, nextOpenAt: null };
  const now = at.getTime();
  const wallNow = wallClockOf(hours.time_zone, now);
  const today = Math.floor(wallNow / DAY_MS) * DAY_MS;
  const minuteNow = (wallNow - today) / MINUTE_MS;
  const intervalsOf = (day: number) => hours.days[WEEKDAYS[(new Date(day).getUTCDay() + 6) % 7]!] ?? [];
  if (intervalsOf(today).some((interval) => minutesOfClock(interval.open) <= minuteNow && minuteNow < minutesOfClock(interval.close))) {
    return { openNow: true, nextOpenAt: null };
  }
  for (let offset = 0; offset <= 8; offset += 1) {
    const day = today + offset * DAY_MS;
    const opens = intervalsOf(day)
      .map((interval) => minutesOfClock(interval.open))
      .sort((a, b) => a - b);
    for (const minute of opens) {
      const instant = instantOfWallClock(hours.time_zone, day + minute * MINUTE_MS);
      if (instant > now) return { openNow: false, nextOpenAt: new Date(instant) };
    }
  }
  return { openNow: false, nextOpenAt: null };
}
