import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { api, dataOf, describeError, type Schemas } from "../api/client.js";
import { CONVERSATIONS_QUERY_KEY } from "../inbox/use-conversation-list.js";
import { inAnHour, localInputValue, nextWeek, snoozeTimeLabel, tomorrowMorning } from "./snooze-times.js";
import "./snooze-menu.css";

type Snooze = Schemas["ConsoleConversation"]["snooze"];

/**
 * Snooze a conversation out of the open view: a disclosure button opening the choices (an hour,
 * tomorrow morning, next week, a custom time, until the visitor replies), each in the operator's
 * own time; Escape closes it and gives the focus back to the button. While snoozed, it says until
 * when and offers to bring the conversation back.
 */
export function SnoozeMenu({ conversationId, snooze, onChange }: { conversationId: string; snooze: Snooze; onChange: (snooze: Snooze) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const button = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const path = { params: { path: { id: conversationId } } };
  const settle = (changed: Snooze) => {
    onChange(changed);
    setOpen(false);
    setCustom(null);
    setAnnouncement(changed ? `Snoozed ${changed.until ? `until ${snoozeTimeLabel(new Date(changed.until))}` : "until the visitor replies"}.` : "Back in the open conversations.");
    void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
    button.current?.focus();
  };
  const snoozeUntil = useMutation({
    mutationFn: async (until: string) => (await dataOf(api.POST("/api/v1/console/conversations/{id}/snooze", { ...path, body: { until } }))).data.snooze,
    onSuccess: settle,
  });
  const unsnooze = useMutation({
    mutationFn: async () => (await dataOf(api.DELETE("/api/v1/console/conversations/{id}/snooze", path))).data.snooze,
    onSuccess: settle,
  });
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);

  const now = new Date();
  const choices: [label: string, until: () => string][] = [
    ["1 hour", () => inAnHour(new Date()).toISOString()],
    [`Tomorrow morning (${snoozeTimeLabel(tomorrowMorning(now), now)})`, () => tomorrowMorning(new Date()).toISOString()],
    [`Next week (${snoozeTimeLabel(nextWeek(now), now)})`, () => nextWeek(new Date()).toISOString()],
    ["Until the visitor replies", () => "visitor_reply"],
  ];
  const failed = snoozeUntil.error ?? unsnooze.error;
  const submitCustom = (event: FormEvent) => {
    event.preventDefault();
    if (custom) snoozeUntil.mutate(new Date(custom).toISOString());
  };
  const label = snooze ? (snooze.until ? `Snoozed until ${snoozeTimeLabel(new Date(snooze.until))}` : "Snoozed until the visitor replies") : "Snooze";

  return (
    <div
      className="snooze"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button type="button" ref={button} aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)} disabled={snoozeUntil.isPending || unsnooze.isPending}>
        {label} <span aria-hidden="true">▾</span>
      </button>
      <span className="visually-hidden" aria-live="polite">
        {announcement}
      </span>
      {open && (
        <div id={menuId} className="snooze-panel" role="group" aria-label="Snooze until">
          <ul>
            {choices.map(([text, until], index) => (
              <li key={text}>
                <button type="button" ref={index === 0 ? first : undefined} onClick={() => snoozeUntil.mutate(until())}>
                  {text}
                </button>
              </li>
            ))}
            <li>
              <button type="button" aria-expanded={custom !== null} onClick={() => setCustom(custom === null ? localInputValue(tomorrowMorning(new Date())) : null)}>
                Custom time…
              </button>
            </li>
            {snooze && (
              <li>
                <button type="button" onClick={() => unsnooze.mutate()}>
                  Unsnooze now
                </button>
              </li>
            )}
          </ul>
          {custom !== null && (
            <form className="snooze-custom" onSubmit={submitCustom}>
              <label htmlFor={`${menuId}-time`}>Snooze until</label>
              <input id={`${menuId}-time`} type="datetime-local" value={custom} min={localInputValue(new Date())} onChange={(event) => setCustom(event.target.value)} required />
              <button type="submit" className="primary" disabled={!custom || snoozeUntil.isPending}>
                Snooze
              </button>
            </form>
          )}
          {failed && (
            <p role="alert" className="error">
              {describeError(failed)}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
