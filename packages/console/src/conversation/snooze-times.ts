/** The snooze menu's times, in the operator's own time (the browser's zone). */

/** The hour a "morning" starts. */
const MORNING_HOUR = 9;

export const inAnHour = (now: Date): Date => new Date(now.getTime() + 60 * 60 * 1000);

/** Tomorrow at 09:00. */
export function tomorrowMorning(now: Date): Date {
  const morning = new Date(now);
  morning.setDate(now.getDate() + 1);
  morning.setHours(MORNING_HOUR, 0, 0, 0);
  return morning;
}

/** Next Monday at 09:00 (a week on when today is Monday). */
export function nextWeek(now: Date): Date {
  const monday = new Date(now);
  const daysAhead = ((8 - now.getDay()) % 7) || 7;
  monday.setDate(now.getDate() + daysAhead);
  monday.setHours(MORNING_HOUR, 0, 0, 0);
  return monday;
}

const dayAndTime = new Intl.DateTimeFormat(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
const dateAndTime = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** "Mon 09:00" within the coming week, "Mon 3 Dec 09:00" further on. */
export function snoozeTimeLabel(time: Date, now: Date = new Date()): string {
  return time.getTime() - now.getTime() < 6 * 24 * 60 * 60 * 1000 ? dayAndTime.format(time) : dateAndTime.format(time);
}

/** A `datetime-local` input's value for `time` (local, to the minute). */
export function localInputValue(time: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}
