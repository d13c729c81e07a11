import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * An agent's office hours (issue 30, item 4): when a person may answer, in one IANA time zone, as
 * open–close intervals per weekday (Chatwoot's business hours, Intercom's office hours). A day left
 * out or `[]` is closed; `null` office hours mean always open. An interval ends on its own day:
 * `close` may be `24:00` (midnight), and a night shift is two intervals (`22:00–24:00`, then
 * `00:00–02:00` the next day).
 */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const MAX_INTERVALS_PER_DAY = 4;
export const replyTimes = ["minutes", "hours", "day"] as const;
export type ReplyTime = (typeof replyTimes)[number];

/** `HH:MM` → minutes after midnight (`24:00` is 1440). */
export function minutesOfClock(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

/** Whether `zone` is a time zone this runtime's Intl knows (IANA names such as `Europe/Paris`, and `UTC`). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const clockSchema = z.string().regex(CLOCK, "a time HH:MM from 00:00 to 24:00");
/** Both ends are times (else their own message says so, and no other). */
const isWellFormed = (interval: { open: string; close: string }) => CLOCK.test(interval.open) && CLOCK.test(interval.close);

export const officeHoursIntervalSchema = z
  .object({ open: clockSchema.describe("Opening time, HH:MM in the office hours' zone."), close: clockSchema.describe("Closing time, HH:MM; `24:00` is midnight.") })
  .strict()
  .refine((interval) => !isWellFormed(interval) || minutesOfClock(interval.open) < minutesOfClock(interval.close), { message: "must close after it opens (split a night shift at midnight)", path: ["close"] });

const daySchema = z
  .array(officeHoursIntervalSchema)
  .max(MAX_INTERVALS_PER_DAY, `at most ${MAX_INTERVALS_PER_DAY} intervals a day`)
  .superRefine((intervals, context) => {
    const ordered = intervals
      .filter(isWellFormed)
      .map((interval) => ({ index: intervals.indexOf(interval), open: minutesOfClock(interval.open), close: minutesOfClock(interval.close) }))
      .sort((a, b) => a.open - b.open);
    for (let at = 1; at < ordered.length; at += 1) {
      const previous = ordered[at - 1]!;
      const current = ordered[at]!;
      if (current.open < previous.close) context.addIssue({ code: "custom", path: [current.index, "open"], message: `overlaps the interval ${intervals[previous.index]!.open}–${intervals[previous.index]!.close}` });
    }
  });

export const officeHoursSchema = z
  .object({
    time_zone: z
      .string()
      .min(1)
      .max(64)
      .refine(isKnownTimeZone, "an IANA time zone such as Europe/Paris or America/New_York")
      .describe("The IANA time zone the hours are in (`Europe/Paris`); daylight saving time follows it."),
    days: z
      .object({
        mon: daySchema.optional(),
        tue: daySchema.optional(),
        wed: daySchema.optional(),
        thu: daySchema.optional(),
        fri: daySchema.optional(),
        sat: daySchema.optional(),
        sun: daySchema.optional(),
      })
      .strict()
      .describe("Open intervals per weekday (`mon` … `sun`), at most four a day, not overlapping; a day left out or `[]` is closed."),
  })
  .strict();
export type OfficeHours = z.infer<typeof officeHoursSchema>;

/**
 * Whether a person may answer now, as init gives it to the widget: inside office hours it shows the
 * usual reply time; outside them the away message and the next opening, and the e-mail form as soon
 * as the visitor asks for a person.
 */
export const availabilitySchema = z.object({
  open_now: z.boolean().describe("Inside the agent's office hours now (always true without office hours)."),
  next_open_at: isoTimestampSchema.nullable().describe("When closed: the next opening (UTC, ISO 8601), for the widget to show in the visitor's own time; null when open now or never opening."),
  away_message: z.string().nullable().describe("The agent's away message, shown outside office hours; null when none is set."),
  reply_time: z.enum(replyTimes).nullable().describe("How soon a person usually replies (`minutes`, `hours`, `day`), shown inside office hours; null when not set."),
});
export type Availability = z.infer<typeof availabilitySchema>;
