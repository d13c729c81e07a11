import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError, type Schemas } from "../api/client.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { CopyField } from "./copy-field.js";
import { formatTime } from "./format-time.js";
import { useConfirmedAction } from "./use-confirmed-action.js";
import "./webhooks-section.css";

type WebhookEndpoint = Schemas["WebhookEndpoint"];
type WebhookEvent = WebhookEndpoint["events"][number];

const WEBHOOKS_KEY = ["settings", "webhooks"] as const;
const deliveriesKey = (endpointId: string) => ["settings", "webhooks", endpointId, "deliveries"] as const;

const EVENTS: { value: WebhookEvent; label: string }[] = [
  { value: "lead.created", label: "A visitor leaves their contact details (lead.created)" },
  { value: "lead.updated", label: "A known visitor leaves them again (lead.updated)" },
  { value: "human.requested", label: "A visitor asks for a person (human.requested)" },
  { value: "conversation.closed", label: "A conversation is closed (conversation.closed)" },
  { value: "conversation.labelled", label: "A label is put on a conversation (conversation.labelled)" },
  { value: "satisfaction.rated", label: "A visitor rates a conversation (satisfaction.rated)" },
  { value: "message.rated", label: "A visitor rates one of the bot's answers (message.rated)" },
  { value: "source.indexed", label: "A source finishes indexing (source.indexed)" },
  { value: "source.failed", label: "A source fails to index (source.failed)" },
];

function CreateWebhookForm({ onCreated }: { onCreated: (endpoint: WebhookEndpoint & { secret: string }) => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(["lead.created"]);
  const create = useMutation({
    mutationFn: () => dataOf(api.POST("/api/v1/console/webhooks", { body: { url: url.trim(), events, description: description.trim() } })),
    onSuccess: (answer) => {
      onCreated(answer.data);
      setUrl("");
      setDescription("");
      void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const fieldErrors = create.error instanceof ApiError ? create.error.fields : undefined;
  const urlError = fieldErrors?.url ?? fieldErrors?.["body.url"];
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Add an endpoint</h3>
      <label htmlFor={`${id}-url`}>URL</label>
      <input
        id={`${id}-url`}
        type="url"
        value={url}
        required
        maxLength={2000}
        placeholder="https://crm.example.com/frontdesk"
        aria-invalid={urlError ? true : undefined}
        aria-describedby={urlError ? `${id}-url-error` : undefined}
        onChange={(event) => setUrl(event.target.value)}
      />
      {urlError && (
        <p id={`${id}-url-error`} className="error">
          {urlError.join(", ")}
        </p>
      )}
      <label htmlFor={`${id}-description`}>Description (optional)</label>
      <input id={`${id}-description`} value={description} maxLength={200} placeholder="CRM" onChange={(event) => setDescription(event.target.value)} />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((option) => (
          <label key={option.value} className="check">
            <input
              type="checkbox"
              checked={events.includes(option.value)}
              onChange={(event) => setEvents((current) => (event.target.checked ? [...current, option.value] : current.filter((value) => value !== option.value)))}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {create.isError && !urlError && (
        <p className="error" role="alert">
          {describeError(create.error)}
        </p>
      )}
      <button type="submit" className="primary" disabled={create.isPending || events.length === 0 || url.trim() === ""}>
        Add endpoint
      </button>
    </form>
  );
}

/** An endpoint's delivery log, newest first (its own route; refreshed on demand and after a test event). */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deliveries = useQuery({
    queryKey: deliveriesKey(endpoint.id),
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/webhooks/{id}/deliveries", { params: { path: { id: endpoint.id }, query: { limit: 50 } } }))).data,
  });
  return (
    <div className="webhook-deliveries" role="region" aria-label={`Deliveries to ${endpoint.url}`}>
      <div className="row-actions">
        <button type="button" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>
          Refresh
        </button>
      </div>
      {deliveries.isPending && <p className="muted">Loading…</p>}
      {deliveries.isError && (
        <p className="error" role="alert">
          {describeError(deliveries.error)}
        </p>
      )}
      {deliveries.data &&
        (deliveries.data.length === 0 ? (
          <p className="empty">No deliveries yet.</p>
        ) : (
          <div className="table-scroller">
            <table className="settings-table">
              <caption className="visually-hidden">Deliveries to {endpoint.url}</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Response</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td className="nowrap">{formatTime(delivery.completed_at ?? delivery.scheduled_at)}</td>
                    <td>
                      <code>{delivery.event_type}</code>
                    </td>
                    <td>{delivery.attempt}</td>
                    <td>
                      <span className={delivery.status === "failed" ? "badge badge-warning" : "badge"}>
                        {delivery.status === "pending" ? `Due ${formatTime(delivery.scheduled_at)}` : delivery.status}
                        {delivery.status_code !== null && ` · ${delivery.status_code}`}
                        {delivery.duration_ms !== null && ` · ${delivery.duration_ms} ms`}
                      </span>
                      {delivery.error && <p className="muted small">{delivery.error}</p>}
                    </td>
                    <td>{delivery.response_body ? <code className="small">{delivery.response_body.slice(0, 200)}</code> : <span className="muted">–</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </div>
  );
}

/** Webhooks: the workspace's endpoints, their state and delivery log (admins only; the server says so to others). */
export function WebhooksSection() {
  const queryClient = useQueryClient();
  const endpoints = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/webhooks"))).data });
  const [created, setCreated] = useState<(WebhookEndpoint & { secret: string }) | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  const toggle = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) =>
      dataOf(api.PATCH("/api/v1/console/webhooks/{id}", { params: { path: { id: endpoint.id } }, body: { enabled: !endpoint.enabled } })),
    onSuccess: (answer) => {
      setNotice(answer.data.enabled ? `${answer.data.url} is enabled again.` : `${answer.data.url} is turned off.`);
      refresh();
    },
  });
  const test = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => dataOf(api.POST("/api/v1/console/webhooks/{id}/test", { params: { path: { id: endpoint.id } } })),
    onSuccess: (_answer, endpoint) => {
      setNotice(`A test event is on its way to ${endpoint.url}; its outcome appears in the deliveries.`);
      setOpen(endpoint.id);
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(endpoint.id) });
    },
  });
  const remove = useConfirmedAction({
    run: (endpoint: WebhookEndpoint) => dataOf(api.DELETE("/api/v1/console/webhooks/{id}", { params: { path: { id: endpoint.id } } })),
    onDone: refresh,
  });
  const failure = toggle.error ?? test.error;

  return (
    <section className="settings-card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted small">
        Frontdesk POSTs events to these URLs as JSON, signed with the endpoint's secret (header <code>Frontdesk-Signature</code>; docs/api.md shows how to
        verify it). Failed deliveries are retried for about an hour; an endpoint that keeps failing is turned off, with the reason.
      </p>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {endpoints.isPending && <p className="muted">Loading…</p>}
      {endpoints.isError && (
        <p className="error" role="alert">
          Webhooks: {describeError(endpoints.error)}
        </p>
      )}
      {failure && (
        <p className="error" role="alert">
          {describeError(failure)}
        </p>
      )}
      {created && (
        <div className="secret-once" role="region" aria-label="New endpoint's secret">
          <p>
            <strong>{created.url}</strong> is ready. Copy its signing secret now: it is shown this once.
          </p>
          <CopyField label="Signing secret" value={created.secret} />
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {endpoints.data && (
        <>
          {endpoints.data.length === 0 ? (
            <p className="empty">No endpoints yet.</p>
          ) : (
            <ul className="webhook-list">
              {endpoints.data.map((endpoint) => (
                <li key={endpoint.id} className="webhook-endpoint">
                  <div>
                    <strong className="webhook-url">{endpoint.url}</strong>
                    {endpoint.description && <span className="muted"> · {endpoint.description}</span>}
                  </div>
                  <p className="small">
                    {endpoint.enabled ? (
                      <span className="badge">Enabled</span>
                    ) : (
                      <span className="badge badge-warning">{endpoint.disabled_reason ? "Disabled after failures" : "Turned off"}</span>
                    )}{" "}
                    <span className="muted">
                      Secret <code>{endpoint.secret_prefix}…</code> · events {endpoint.events.join(", ")} · last success {formatTime(endpoint.last_success_at)}
                      {endpoint.consecutive_failures > 0 && ` · ${endpoint.consecutive_failures} failed deliveries in a row`}
                    </span>
                  </p>
                  {endpoint.disabled_reason && <p className="error small">{endpoint.disabled_reason}</p>}
                  <div className="row-actions">
                    <button type="button" aria-expanded={open === endpoint.id} onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)}>
                      {open === endpoint.id ? "Hide deliveries" : "Deliveries"}
                    </button>
                    <button type="button" onClick={() => test.mutate(endpoint)} disabled={test.isPending}>
                      Send test event
                    </button>
                    <button type="button" onClick={() => toggle.mutate(endpoint)} disabled={toggle.isPending}>
                      {endpoint.enabled ? "Turn off" : "Enable"}
                    </button>
                    <button type="button" className="danger-outline" aria-label={`Delete ${endpoint.url}`} onClick={() => remove.ask(endpoint)}>
                      Delete
                    </button>
                  </div>
                  {open === endpoint.id && <DeliveryLog endpoint={endpoint} />}
                </li>
              ))}
            </ul>
          )}
          <CreateWebhookForm onCreated={setCreated} />
        </>
      )}
      {remove.target && remove.dialog && (
        <ConfirmDialog title={`Delete the endpoint ${remove.target.url}?`} confirmLabel="Delete endpoint" {...remove.dialog}>
          <p>No more events go to it, and its delivery log is deleted. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
