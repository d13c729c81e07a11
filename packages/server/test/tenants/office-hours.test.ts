import { officeHoursSchema, type OfficeHours } from "@frontdesk/contracts";
import { describe, expect, it } from "vitest";
import { canonicalTimeZone, instantOfWallClock, officeHoursStatus } from "../../src/tenants/office-hours.js";

const weekdays = (intervals: { open: string; close: string }[]) => ({ mon: intervals, tue: intervals, wed: intervals, thu: intervals, fri: intervals });
const paris: OfficeHours = { time_zone: "Europe/Paris", days: weekdays([{ open: "09:00", close: "12:00" }, { open: "13:00", close: "17:30" }]) };
const at = (iso: string) => new Date(iso);
const status = (hours: OfficeHours | null, iso: string) => {
  const { openNow, nextOpenAt } = officeHoursStatus(hours, at(iso));
  return { openNow, nextOpenAt: nextOpenAt?.toISOString() ?? null };
};

describe("office hours: open now and the next opening, in the hours' own zone", () => {
  it("happy: no office hours is always open", () => {
    expect(status(null, "2026-03-28T03:00:00Z")).toEqual({ openNow: true, nextOpenAt: null });
  });

  it("happy: inside an interval is open; at its close, and over lunch, the next interval is next", () => {
    // Friday 27 March 2026, Paris is UTC+1 (winter time).
    expect(status(paris, "2026-03-27T08:00:00Z")).toEqual({ openNow: true, nextOpenAt: null }); // 09:00 sharp
    expect(status(paris, "2026-03-27T10:59:00Z")).toEqual({ openNow: true, nextOpenAt: null });
    expect(status(paris, "2026-03-27T11:00:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-03-27T12:00:00.000Z" }); // 12:00 closes, 13:00 opens
    expect(status(paris, "2026-03-27T07:59:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-03-27T08:00:00.000Z" });
  });

  it("happy: across the spring-forward weekend, Monday's 09:00 is 09:00 summer time (07:00 UTC, not 08:00)", () => {
    // Friday 17:30 Paris (16:30 UTC) closes; clocks go forward on Sunday 29 March 2026 at 02:00.
    expect(status(paris, "2026-03-27T16:30:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-03-30T07:00:00.000Z" });
    expect(status(paris, "2026-03-29T12:00:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-03-30T07:00:00.000Z" });
    // And on Monday at 09:30 summer time (07:30 UTC) it is open, where a fixed +1 offset would say closed.
    expect(status(paris, "2026-03-30T07:30:00Z").openNow).toBe(true);
  });

  it("happy: across the fall-back weekend, Monday's 09:00 is 09:00 winter time (08:00 UTC)", () => {
    expect(status(paris, "2026-10-23T20:00:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-10-26T08:00:00.000Z" });
    expect(status(paris, "2026-10-26T07:30:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-10-26T08:00:00.000Z" });
  });

  it("happy: an opening in the skipped hour opens when the clocks reach it (03:30 summer time); one in the repeated hour, the first time", () => {
    const night: OfficeHours = { time_zone: "Europe/Paris", days: { sun: [{ open: "02:30", close: "04:00" }] } };
    // 02:30 does not happen on 29 March 2026: it opens at 03:30 CEST, 01:30 UTC.
    expect(status(night, "2026-03-28T12:00:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-03-29T01:30:00.000Z" });
    // 02:30 happens twice on 25 October 2026: first at 00:30 UTC (summer time).
    expect(status(night, "2026-10-24T12:00:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-10-25T00:30:00.000Z" });
    expect(instantOfWallClock("Europe/Paris", Date.UTC(2026, 9, 25, 2, 30))).toBe(Date.parse("2026-10-25T00:30:00Z"));
  });

  it("happy: New York, a weekend day, a whole day to midnight, and a night shift split at midnight", () => {
    const shop: OfficeHours = {
      time_zone: "America/New_York",
      days: { sat: [{ open: "22:00", close: "24:00" }], sun: [{ open: "00:00", close: "02:00" }] },
    };
    // Saturday 7 March 2026 23:30 EST (04:30 UTC Sunday): open across midnight; US clocks go forward on 8 March.
    expect(status(shop, "2026-03-08T04:30:00Z").openNow).toBe(true);
    expect(status(shop, "2026-03-08T05:30:00Z").openNow).toBe(true); // 00:30 Sunday
    // 02:00 Sunday closes (skipped hour: 03:00 EDT); next Saturday 22:00 EDT is 02:00 UTC on Sunday.
    expect(status(shop, "2026-03-08T08:00:00Z")).toEqual({ openNow: false, nextOpenAt: "2026-03-15T02:00:00.000Z" });
  });

  it("happy: a week with no hours at all is never open and has no next opening", () => {
    expect(status({ time_zone: "UTC", days: {} }, "2026-03-27T12:00:00Z")).toEqual({ openNow: false, nextOpenAt: null });
    expect(status({ time_zone: "UTC", days: { mon: [] } }, "2026-03-27T12:00:00Z")).toEqual({ openNow: false, nextOpenAt: null });
  });

  it("happy: a zone is stored as Intl spells it", () => {
    expect(canonicalTimeZone("europe/paris")).toBe("Europe/Paris");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
  });
});

describe("office hours: what the settings accept", () => {
  const issues = (value: unknown) => {
    const parsed = officeHoursSchema.safeParse(value);
    return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
  };

  it("happy: a zone, intervals per day, closed days left out, 24:00 as midnight", () => {
    expect(issues(paris)).toEqual({});
    expect(issues({ time_zone: "Asia/Kolkata", days: { sat: [{ open: "00:00", close: "24:00" }], sun: [] } })).toEqual({});
  });

  it("error: an unknown zone, a time that is not HH:MM, a close before its open, overlaps, too many intervals, an unknown day", () => {
    expect(issues({ time_zone: "Mars/Olympus", days: {} })).toEqual({ time_zone: "an IANA time zone such as Europe/Paris or America/New_York" });
    expect(issues({ time_zone: "UTC", days: { mon: [{ open: "9:00", close: "17:00" }] } })).toEqual({ "days.mon.0.open": "a time HH:MM from 00:00 to 24:00" });
    expect(issues({ time_zone: "UTC", days: { mon: [{ open: "09:00", close: "24:30" }] } })).toEqual({ "days.mon.0.close": "a time HH:MM from 00:00 to 24:00" });
    expect(issues({ time_zone: "UTC", days: { tue: [{ open: "18:00", close: "09:00" }] } })).toEqual({ "days.tue.0.close": "must close after it opens (split a night shift at midnight)" });
    expect(issues({ time_zone: "UTC", days: { wed: [{ open: "13:00", close: "17:00" }, { open: "09:00", close: "13:30" }] } })).toEqual({ "days.wed.0.open": "overlaps the interval 09:00–13:30" });
    const five = ["00:00", "02:00", "04:00", "06:00", "08:00"].map((open) => ({ open, close: `${open.slice(0, 1)}${Number(open[1]) + 1}:00` }));
    expect(issues({ time_zone: "UTC", days: { thu: five } })).toEqual({ "days.thu": "at most 4 intervals a day" });
    expect(Object.keys(issues({ time_zone: "UTC", days: { monday: [] } }))).toEqual(["days"]);
  });
});
