import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError, type Schemas } from "../api/client.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { CopyField } from "./copy-field.js";
import { formatTime } from "./format-time.js";
import { TOKENS_KEY } from "./settings-keys.js";
import { useConfirmedAction } from "./use-confirmed-action.js";

type ApiToken = Schemas["ApiToken"];
type Ability = Schemas["CreateApiTokenRequest"]["abilities"][number];

const ABILITIES: { value: Ability; label: string }[] = [
  { value: "sources:read", label: "Read sources (sources:read)" },
  { value: "sources:write", label: "Push and delete sources (sources:write, which includes reading)" },
  { value: "wp:sync", label: "Sync a WordPress site's posts (wp:sync)" },
  { value: "conversations:label", label: "Label conversations, e.g. from a webhook automation (conversations:label)" },
];

function CreateTokenForm({ onCreated }: { onCreated: (token: ApiToken & { token: string }) => void }) {
  const queryClient = useQueryClient();
  const nameId = useId();
  const [name, setName] = useState("");
  const [abilities, setAbilities] = useState<Ability[]>(["sources:write"]);
  const create = useMutation({
    mutationFn: () => dataOf(api.POST("/api/v1/console/tokens", { body: { name: name.trim(), abilities } })),
    onSuccess: (answer) => {
      onCreated(answer.data);
      setName("");
      void queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const fieldErrors = create.error instanceof ApiError ? create.error.fields : undefined;
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby={`${nameId}-title`}>
      <h3 id={`${nameId}-title`}>Create a token</h3>
      <label htmlFor={nameId}>Name</label>
      <input id={nameId} value={name} required maxLength={100} placeholder="WordPress sync" onChange={(event) => setName(event.target.value)} />
      <fieldset>
        <legend>Abilities</legend>
        {ABILITIES.map((ability) => (
          <label key={ability.value} className="check">
            <input
              type="checkbox"
              checked={abilities.includes(ability.value)}
              onChange={(event) => setAbilities((current) => (event.target.checked ? [...current, ability.value] : current.filter((value) => value !== ability.value)))}
            />
            {ability.label}
          </label>
        ))}
      </fieldset>
      {create.isError && (
        <p className="error" role="alert">
          {describeError(create.error)}
          {fieldErrors && ` ${Object.entries(fieldErrors).map(([field, messages]) => `${field.replace(/^body\./, "")}: ${messages.join(", ")}`).join("; ")}`}
        </p>
      )}
      <button type="submit" className="primary" disabled={create.isPending || abilities.length === 0 || name.trim() === ""}>
        Create token
      </button>
    </form>
  );
}

/** The API tokens page of the spec: the workspace's tokens for the Sources API (admins only, the server says so to others). */
export function ApiTokensSection() {
  const queryClient = useQueryClient();
  // Kept live by useSettingsLive (token.created, token.revoked on the workspace channel).
  const tokens = useQuery({ queryKey: TOKENS_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/tokens"))).data });
  const [created, setCreated] = useState<(ApiToken & { token: string }) | null>(null);
  const revoke = useConfirmedAction({
    run: (token: ApiToken) => dataOf(api.DELETE("/api/v1/console/tokens/{id}", { params: { path: { id: token.id } } })),
    onDone: () => void queryClient.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
  const forbidden = tokens.error instanceof ApiError && tokens.error.status === 403;

  return (
    <section className="settings-card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p className="muted small">
        Tokens let a script or a plugin push knowledge through the Sources API (<code>/api/v1/workspace/sources</code>, header{" "}
        <code>Authorization: Bearer …</code>).
      </p>
      {tokens.isPending && <p className="muted">Loading…</p>}
      {tokens.isError && (
        <p className="error" role="alert">
          {forbidden ? `API tokens: ${describeError(tokens.error)}` : describeError(tokens.error)}
        </p>
      )}
      {created && (
        <div className="secret-once" role="region" aria-label="New token">
          <p>
            <strong>{created.name}</strong> is ready. Copy it now: it is shown this once, and only its prefix afterwards.
          </p>
          <CopyField label="Token" value={created.token} />
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {tokens.data && (
        <>
          {tokens.data.length === 0 ? (
            <p className="empty">No tokens yet.</p>
          ) : (
            <div className="table-scroller">
              <table className="settings-table">
                <caption className="visually-hidden">API tokens</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Token</th>
                    <th scope="col">Abilities</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span className="visually-hidden">State and actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {tokens.data.map((token) => (
                    <tr key={token.id} className={token.revoked_at ? "revoked" : undefined}>
                      <th scope="row">{token.name}</th>
                      <td>
                        <code>{token.prefix}…</code>
                      </td>
                      <td>{token.abilities.join(", ")}</td>
                      <td className="nowrap">{formatTime(token.created_at)}</td>
                      <td className="nowrap">{formatTime(token.last_used_at)}</td>
                      <td>
                        <div className="row-actions">
                          {token.revoked_at ? (
                            <span className="badge">Revoked {formatTime(token.revoked_at)}</span>
                          ) : (
                            <button type="button" className="danger-outline" aria-label={`Revoke ${token.name}`} onClick={() => revoke.ask(token)}>
                              Revoke
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <CreateTokenForm onCreated={setCreated} />
        </>
      )}
      {revoke.target && revoke.dialog && (
        <ConfirmDialog title={`Revoke ${revoke.target.name}?`} confirmLabel="Revoke token" {...revoke.dialog}>
          <p>
            Every call with <code>{revoke.target.prefix}…</code> is refused from now on, in every process. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
