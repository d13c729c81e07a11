import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import type { EmailAlertChoice as EmailAlerts } from "@frontdesk/contracts";
import { api, dataOf, describeError } from "../api/client.js";

const PREFERENCES_KEY = ["settings", "mail-preferences"] as const;

const CHOICES: { value: EmailAlerts; label: string; hint: string }[] = [
  { value: "every", label: "Every alert", hint: "An e-mail each time a visitor asks for a person while nobody is online, and when a visitor's message in your conversation stays unread." },
  { value: "digest", label: "Hourly digest", hint: "The same alerts gathered in one e-mail an hour, without the visitors' words." },
  { value: "none", label: "None", hint: "No alert e-mail." },
];

const SAVED: Record<EmailAlerts, string> = {
  every: "Saved: you get an e-mail for every alert.",
  digest: "Saved: you get one e-mail an hour gathering the alerts.",
  none: "Saved: you get no alert e-mail.",
};

/** Settings → E-mail alerts: how the signed-in operator is e-mailed when away (every operator chooses their own). */
export function EmailAlertsSection() {
  const statusId = useId();
  const queryClient = useQueryClient();
  const preferences = useQuery({ queryKey: PREFERENCES_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/me/preferences"))).data });
  const [choice, setChoice] = useState<EmailAlerts | null>(null);
  const [status, setStatus] = useState("");
  useEffect(() => {
    if (preferences.data && choice === null) setChoice(preferences.data.email_alerts);
  }, [preferences.data, choice]);
  const save = useMutation({
    mutationFn: async (email_alerts: EmailAlerts) => (await dataOf(api.PATCH("/api/v1/console/me/preferences", { body: { email_alerts } }))).data,
    onMutate: () => setStatus("Saving…"),
    onSuccess: (data) => {
      queryClient.setQueryData(PREFERENCES_KEY, data);
      setStatus(SAVED[data.email_alerts]);
    },
    onError: () => setStatus(""),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice) save.mutate(choice);
  };
  const saved = preferences.data?.email_alerts;
  return (
    <section className="settings-card" aria-labelledby="email-alerts-title">
      <h2 id="email-alerts-title">E-mail alerts</h2>
      <p className="muted small">When you are away from the console. Notifications on this device come as well, if they are on.</p>
      {preferences.isPending && <p className="muted">Loading…</p>}
      {preferences.isError && (
        <p className="error" role="alert">
          {describeError(preferences.error)}
        </p>
      )}
      {choice && (
        <form className="email-alerts" onSubmit={submit} aria-describedby={statusId}>
          <fieldset>
            <legend>E-mail me</legend>
            {CHOICES.map((option) => (
              <label key={option.value} className="radio-choice">
                <input type="radio" name="email_alerts" value={option.value} checked={choice === option.value} onChange={() => setChoice(option.value)} />
                <span>
                  <strong>{option.label}</strong>
                  <span className="muted small-hint">{option.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="primary" disabled={save.isPending || choice === saved}>
            Save
          </button>
        </form>
      )}
      {save.isError && (
        <p className="error" role="alert">
          {describeError(save.error)}
        </p>
      )}
      <p id={statusId} className="small" role="status">
        {status}
      </p>
    </section>
  );
}
