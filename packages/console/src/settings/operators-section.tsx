import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError, type Schemas } from "../api/client.js";
import { switchSession, useOperator } from "../session.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { CopyField } from "./copy-field.js";
import { formatTime } from "./format-time.js";
import { OPERATORS_KEY } from "./settings-keys.js";
import { useConfirmedAction } from "./use-confirmed-action.js";

type WorkspaceOperator = Schemas["WorkspaceOperator"];
type Role = WorkspaceOperator["role"];
type HandedLink = { name: string; url: string; expiresAt: string };

const ROLES: { value: Role; label: string }[] = [
  { value: "agent", label: "Agent (conversations)" },
  { value: "admin", label: "Admin (everything)" },
];

function InviteForm({ onInvited }: { onInvited: (link: HandedLink) => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("agent");
  const invite = useMutation({
    mutationFn: () => dataOf(api.POST("/api/v1/console/operators", { body: { name: name.trim(), email: email.trim(), role } })),
    onSuccess: ({ data }) => {
      onInvited({ name: data.name, url: data.set_password_url, expiresAt: data.set_password_expires_at });
      setName("");
      setEmail("");
      void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  const fields = invite.error instanceof ApiError ? invite.error.fields : undefined;
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Invite an operator</h3>
      <div className="form-row">
        <span>
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} value={name} required maxLength={200} autoComplete="off" onChange={(event) => setName(event.target.value)} />
        </span>
        <span>
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input id={`${id}-email`} type="email" value={email} required maxLength={320} autoComplete="off" onChange={(event) => setEmail(event.target.value)} />
        </span>
        <span>
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </span>
      </div>
      {invite.isError && (
        <p className="error" role="alert">
          {describeError(invite.error)}
          {fields && ` ${Object.entries(fields).map(([field, messages]) => `${field.replace(/^body\./, "")} ${messages.join(", ")}`).join("; ")}`}
        </p>
      )}
      <button type="submit" className="primary" disabled={invite.isPending}>
        Invite
      </button>
    </form>
  );
}

type Pending = { kind: "remove" | "sign-out"; operator: WorkspaceOperator };

/** The workspace's operators: anyone sees them; admins invite, change roles, hand out set-password links, remove and sign out. */
export function OperatorsSection() {
  const me = useOperator();
  const isAdmin = me.role === "admin";
  const queryClient = useQueryClient();
  // Kept live by useSettingsLive (operator.invited, operator.updated, operator.removed on the workspace channel).
  const operators = useQuery({ queryKey: OPERATORS_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/operators"))).data });
  const [link, setLink] = useState<HandedLink | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });

  const changeRole = useMutation({
    mutationFn: ({ operator, role }: { operator: WorkspaceOperator; role: Role }) =>
      dataOf(api.PATCH("/api/v1/console/operators/{id}", { params: { path: { id: operator.id } }, body: { role } })),
    onMutate: () => setNotice(null),
    onSuccess: ({ data }) => {
      setNotice(`${data.name} is now ${data.role === "admin" ? "an admin" : "an agent"}.`);
      refresh();
    },
    onError: refresh,
  });
  const reissue = useMutation({
    mutationFn: (operator: WorkspaceOperator) => dataOf(api.POST("/api/v1/console/operators/{id}/password-link", { params: { path: { id: operator.id } } })),
    onMutate: () => setNotice(null),
    onSuccess: ({ data }, operator) => setLink({ name: operator.name, url: data.set_password_url, expiresAt: data.set_password_expires_at }),
  });
  const act = useConfirmedAction({
    run: async ({ kind, operator }: Pending) =>
      kind === "remove"
        ? (await dataOf(api.DELETE("/api/v1/console/operators/{id}", { params: { path: { id: operator.id } } }))).data.name
        : (await dataOf(api.DELETE("/api/v1/console/operators/{id}/sessions", { params: { path: { id: operator.id } } }))).data.sessions_ended,
    onStart: () => {
      setNotice(null);
      changeRole.reset();
      reissue.reset();
    },
    onDone: (result, { kind, operator }) => {
      // Our own session ended with it: back to the sign-in.
      if (operator.id === me.id) return switchSession(queryClient, null);
      setNotice(kind === "remove" ? `${operator.name} was removed.` : `${operator.name} was signed out of ${result} session${result === 1 ? "" : "s"}.`);
      refresh();
    },
  });
  const pending = act.target;
  const rowError = changeRole.error ?? reissue.error;

  return (
    <section className="settings-card" aria-labelledby="operators-title">
      <h2 id="operators-title">Operators</h2>
      {operators.isPending && <p className="muted">Loading…</p>}
      {operators.isError && (
        <p className="error" role="alert">
          {describeError(operators.error)}
        </p>
      )}
      <p className="muted small" role="status">
        {notice}
      </p>
      {rowError && (
        <p className="error" role="alert">
          {describeError(rowError)}
        </p>
      )}
      {link && (
        <div className="secret-once" role="region" aria-label="Set-password link">
          <p>
            Hand this link to <strong>{link.name}</strong>: they choose a password there, then sign in. It works once, until {formatTime(link.expiresAt)}.
          </p>
          <CopyField label="Set-password link" value={link.url} />
          <button type="button" onClick={() => setLink(null)}>
            Done
          </button>
        </div>
      )}
      {operators.data && (
        <div className="table-scroller">
          <table className="settings-table">
            <caption className="visually-hidden">Operators</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Password</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {operators.data.map((operator) => (
                <tr key={operator.id}>
                  <th scope="row">
                    {operator.name}
                    {operator.id === me.id && <span className="muted"> (you)</span>}
                    {operator.away && <span className="muted"> · away</span>}
                  </th>
                  <td>{operator.email}</td>
                  <td>
                    {isAdmin ? (
                      <select
                        aria-label={`Role of ${operator.name}`}
                        value={operator.role}
                        disabled={changeRole.isPending}
                        onChange={(event) => changeRole.mutate({ operator, role: event.target.value as Role })}>
                        {ROLES.map((option) => (
                          <option key={option.value} value={option.value}>
                            {option.label}
                          </option>
                        ))}
                      </select>
                    ) : (
                      operator.role
                    )}
                  </td>
                  <td>{operator.password_set ? "Set" : <span className="badge badge-warning">Invited</span>}</td>
                  <td>
                    <div className="row-actions">
                      {isAdmin && (
                        <button type="button" aria-label={`New password link for ${operator.name}`} disabled={reissue.isPending} onClick={() => reissue.mutate(operator)}>
                          New password link
                        </button>
                      )}
                      {(isAdmin || operator.id === me.id) && (
                        <button type="button" aria-label={`Sign out everywhere, ${operator.name}`} onClick={() => act.ask({ kind: "sign-out", operator })}>
                          Sign out everywhere
                        </button>
                      )}
                      {isAdmin && (
                        <button type="button" className="danger-outline" aria-label={`Remove ${operator.name}`} onClick={() => act.ask({ kind: "remove", operator })}>
                          Remove
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
      {isAdmin ? <InviteForm onInvited={setLink} /> : <p className="muted small">An admin invites operators, changes roles and removes them.</p>}
      {pending && act.dialog && (
        <ConfirmDialog
          title={pending.kind === "remove" ? `Remove ${pending.operator.name}?` : `Sign ${pending.operator.name} out everywhere?`}
          confirmLabel={pending.kind === "remove" ? "Remove operator" : "Sign out everywhere"}
          {...act.dialog}>
          <p>
            {pending.kind === "remove"
              ? "Their sessions end at once and their conversations lose their assignee; their messages keep their name."
              : "Every console session of theirs ends, in every browser."}
            {pending.operator.id === me.id && " This includes this browser: you will be asked to sign in again."}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
