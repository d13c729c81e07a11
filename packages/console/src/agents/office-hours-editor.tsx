import { FieldError, invalidProps } from "./field-errors.js";
import { SettingField } from "./setting-field.js";

export const WEEKDAYS = [
  ["mon", "Monday"],
  ["tue", "Tuesday"],
  ["wed", "Wednesday"],
  ["thu", "Thursday"],
  ["fri", "Friday"],
  ["sat", "Saturday"],
  ["sun", "Sunday"],
] as const;
export type Weekday = (typeof WEEKDAYS)[number][0];
export interface Interval {
  open: string;
  close: string;
}
export type ReplyTime = "" | "minutes" | "hours" | "day";

/** The office hours as the form holds them: off (always open), or a zone and each day's intervals. */
export interface OfficeHoursDraft {
  enabled: boolean;
  timeZone: string;
  days: Record<Weekday, Interval[]>;
  awayMessage: string;
  replyTime: ReplyTime;
}

const MAX_INTERVALS = 4;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const WORKING_DAY: Interval[] = [{ open: "09:00", close: "17:00" }];

export function officeHoursDraftOf(agent: {
  office_hours: { time_zone: string; days: Partial<Record<Weekday, Interval[]>> } | null;
  away_message: string | null;
  reply_time: "minutes" | "hours" | "day" | null;
}): OfficeHoursDraft {
  const hours = agent.office_hours;
  return {
    enabled: hours !== null,
    timeZone: hours?.time_zone ?? browserZone(),
    days: Object.fromEntries(WEEKDAYS.map(([day]) => [day, hours ? (hours.days[day] ?? []) : ["sat", "sun"].includes(day) ? [] : WORKING_DAY])) as Record<Weekday, Interval[]>,
    awayMessage: agent.away_message ?? "",
    replyTime: agent.reply_time ?? "",
  };
}

/** What PATCH /agents/{id} gets of them: null office hours when off, only the days that have hours. */
export function officeHoursBodyOf(draft: OfficeHoursDraft) {
  return {
    office_hours: draft.enabled ? { time_zone: draft.timeZone, days: Object.fromEntries(WEEKDAYS.filter(([day]) => draft.days[day].length > 0).map(([day]) => [day, draft.days[day]])) } : null,
    away_message: draft.awayMessage.trim() || null,
    reply_time: draft.replyTime || null,
  };
}

let zones: readonly string[] | null = null;
function timeZones(current: string): [string, string][] {
  zones ??= typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
  const all = zones.includes(current) ? zones : [current, ...zones];
  return all.map((zone) => [zone, zone.replaceAll("_", " ")]);
}

const REPLY_TIMES = [
  ["", "Not shown"],
  ["minutes", "Usually replies within a few minutes"],
  ["hours", "Usually replies within a few hours"],
  ["day", "Usually replies within a day"],
] as const;

/**
 * The Office hours section (issue 30, item 4): always open, or a time zone and per weekday up to
 * four open intervals (HH:MM, a close up to 24:00); the away message the widget shows outside them
 * and the reply time it shows inside them. The server's 422 fields show beside each control.
 */
export function OfficeHoursEditor({ draft, onChange, fields }: { draft: OfficeHoursDraft; onChange: (draft: OfficeHoursDraft) => void; fields: Record<string, string[]> }) {
  const set = (change: Partial<OfficeHoursDraft>) => onChange({ ...draft, ...change });
  const setDay = (day: Weekday, intervals: Interval[]) => set({ days: { ...draft.days, [day]: intervals } });
  return (
    <fieldset className="office-hours">
      <legend>Office hours</legend>
      <SettingField
        id="agent-availability"
        label="When a person can answer"
        field="office_hours"
        fields={Object.fromEntries(Object.entries(fields).filter(([name]) => name === "office_hours"))}
        value={draft.enabled ? "hours" : "always"}
        onChange={(value) => set({ enabled: value === "hours" })}
        options={[
          ["always", "Always (no office hours)"],
          ["hours", "During office hours"],
        ]}
        hint="Outside office hours the widget shows the away message and asks for an e-mail at once when a visitor asks for a person."
      />
      {draft.enabled && (
        <>
          <SettingField id="agent-time-zone" label="Time zone" field="office_hours.time_zone" fields={fields} value={draft.timeZone} onChange={(timeZone) => set({ timeZone })} options={timeZones(draft.timeZone)} />
          <ul className="office-days">
            {WEEKDAYS.map(([day, name]) => {
              const intervals = draft.days[day];
              const base = `office_hours.days.${day}`;
              return (
                <li key={day}>
                  <fieldset>
                    <legend>{name}</legend>
                    {intervals.length === 0 && <span className="muted">Closed</span>}
                    {intervals.map((interval, index) => {
                      const id = `hours-${day}-${index}`;
                      const change = (patch: Partial<Interval>) => setDay(day, intervals.map((current, at) => (at === index ? { ...current, ...patch } : current)));
                      return (
                        <div className="office-interval" key={index}>
                          <label htmlFor={`${id}-open`} className="visually-hidden">
                            Opens
                          </label>
                          <input id={`${id}-open`} inputMode="numeric" placeholder="09:00" maxLength={5} value={interval.open} onChange={(event) => change({ open: event.target.value })} {...invalidProps(fields, `${base}.${index}.open`, `${id}-open`)} />
                          <span aria-hidden="true">–</span>
                          <label htmlFor={`${id}-close`} className="visually-hidden">
                            Closes
                          </label>
                          <input id={`${id}-close`} inputMode="numeric" placeholder="17:00" maxLength={5} value={interval.close} onChange={(event) => change({ close: event.target.value })} {...invalidProps(fields, `${base}.${index}.close`, `${id}-close`)} />
                          <button type="button" aria-label={`Remove ${name} ${interval.open}–${interval.close}`} onClick={() => setDay(day, intervals.filter((_, at) => at !== index))}>
                            Remove
                          </button>
                          <FieldError fields={fields} field={`${base}.${index}.open`} id={`${id}-open`} />
                          <FieldError fields={fields} field={`${base}.${index}.close`} id={`${id}-close`} />
                        </div>
                      );
                    })}
                    {intervals.length < MAX_INTERVALS && (
                      <button type="button" className="office-add" aria-label={`Add hours on ${name}`} onClick={() => setDay(day, [...intervals, intervals.length === 0 ? WORKING_DAY[0]! : { open: "", close: "" }])}>
                        Add hours
                      </button>
                    )}
                    {fields[base] && <span className="field-error">{fields[base].join("; ")}</span>}
                  </fieldset>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <div className="field-row">
        <label htmlFor="agent-away-message">Away message</label>
        <textarea
          id="agent-away-message"
          rows={2}
          maxLength={500}
          value={draft.awayMessage}
          onChange={(event) => set({ awayMessage: event.target.value })}
          aria-describedby={["agent-away-message-hint", fields.away_message ? "agent-away-message-error" : ""].filter(Boolean).join(" ")}
          {...(fields.away_message ? { "aria-invalid": true } : {})}
        />
        <span id="agent-away-message-hint" className="muted hint">
          Shown outside office hours, under “We're away — back …”. Empty: none.
        </span>
        <FieldError fields={fields} field="away_message" id="agent-away-message" />
      </div>
      <SettingField id="agent-reply-time" label="Reply time" field="reply_time" fields={fields} value={draft.replyTime} onChange={(replyTime) => set({ replyTime })} options={REPLY_TIMES} hint="Shown in the widget's header inside office hours." />
    </fieldset>
  );
}
