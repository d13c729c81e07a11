import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { api, dataOf, describeError } from "../api/client.js";
import { FieldError, fieldErrorsOf, invalidProps } from "../agents/field-errors.js";
import { switchSession } from "../session.js";

const MIN_LENGTH = 10;

/** The link's token is useless (unknown, spent, expired) or the first run is over: say so, and where to sign in. */
function SpentLink({ reason }: { reason: "setup_done" | "token_invalid" | "missing" }) {
  return (
    <div className="auth-card">
      <h1>This setup link cannot be used</h1>
      <p role="alert" className="error">
        {reason === "setup_done"
          ? "Frontdesk is already set up: an admin exists."
          : reason === "missing"
            ? "The link has no token. Open the whole link that `frontdesk serve` printed."
            : "This setup link is invalid, already used or expired. Restart `frontdesk serve` to print a new one."}
      </p>
      <p>
        <a href="/console">Sign in to the console</a>
      </p>
    </div>
  );
}

/**
 * Step 1: the workspace and its first admin, with the token of the link `serve` printed. The token
 * is in the link's fragment (`#token=…`), which the browser never sends: it goes to the server only
 * in request bodies, so no request line, log or proxy holds it.
 */
export function CreateAdminStep() {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [workspaceName, setWorkspaceName] = useState("");
  const status = useQuery({
    queryKey: ["setup", token],
    queryFn: async () => (await dataOf(api.POST("/api/v1/console/setup/status", { body: { token } }))).data,
    enabled: token !== "",
    staleTime: Infinity,
    retry: false,
  });
  const setUp = useMutation({
    mutationFn: async () =>
      (
        await dataOf(
          api.POST("/api/v1/console/setup", {
            body: { token, name: name.trim(), email: email.trim(), password, ...(workspaceName.trim() ? { workspace_name: workspaceName.trim() } : {}) },
          }),
        )
      ).data,
    onSuccess: (result) => {
      switchSession(queryClient, result.operator);
      // The token is spent: it leaves the address bar (and the history).
      navigate("/agent", { replace: true });
    },
  });
  if (!token) return <SpentLink reason="missing" />;
  if (status.isPending) return <p className="pane-message">Checking the link…</p>;
  if (status.isError) {
    return (
      <p className="pane-message" role="alert">
        {describeError(status.error)}
      </p>
    );
  }
  if (!status.data.valid) return <SpentLink reason={status.data.reason ?? "token_invalid"} />;
  const fields = fieldErrorsOf(setUp.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setUp.mutate();
  };
  const spent = setUp.error && "code" in setUp.error && (setUp.error.code === "setup_token_invalid" || setUp.error.code === "setup_already_done");
  return (
    <form className="auth-card setup-card" onSubmit={submit} aria-labelledby="setup-admin-title" noValidate>
      <h1 id="setup-admin-title">Create your admin account</h1>
      <p className="muted">You will be the workspace's first admin. You can invite your team later.</p>
      <div className="field-row">
        <label htmlFor="setup-name">Your name</label>
        <input id="setup-name" autoComplete="name" required value={name} onChange={(event) => setName(event.target.value)} {...invalidProps(fields, "name", "setup-name")} />
        <FieldError fields={fields} field="name" id="setup-name" />
      </div>
      <div className="field-row">
        <label htmlFor="setup-email">E-mail</label>
        <input id="setup-email" type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} {...invalidProps(fields, "email", "setup-email")} />
        <FieldError fields={fields} field="email" id="setup-email" />
      </div>
      <div className="field-row">
        <label htmlFor="setup-password">Password</label>
        <input
          id="setup-password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-describedby={fields.password ? "setup-password-error setup-password-rule" : "setup-password-rule"}
          aria-invalid={fields.password ? true : undefined}
        />
        <span id="setup-password-rule" className="muted hint">
          At least {MIN_LENGTH} characters, and not a common password.
        </span>
        <FieldError fields={fields} field="password" id="setup-password" />
      </div>
      <div className="field-row">
        <label htmlFor="setup-workspace">Workspace name (optional)</label>
        <input id="setup-workspace" autoComplete="organization" value={workspaceName} onChange={(event) => setWorkspaceName(event.target.value)} {...invalidProps(fields, "workspace_name", "setup-workspace")} />
        <FieldError fields={fields} field="workspace_name" id="setup-workspace" />
      </div>
      {setUp.isError && (
        <p role="alert" className="error">
          {describeError(setUp.error)} {spent && <a href="/console">Sign in</a>}
        </p>
      )}
      <button type="submit" className="primary" disabled={setUp.isPending}>
        {setUp.isPending ? "Creating…" : "Create the account"}
      </button>
    </form>
  );
}
