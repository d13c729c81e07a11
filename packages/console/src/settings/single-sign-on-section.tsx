import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError, type Schemas } from "../api/client.js";
import { useOperator } from "../session.js";
import { CopyField } from "./copy-field.js";

type SsoSettings = NonNullable<Schemas["SsoSettings"]>;
const SSO_KEY = ["settings", "sso"] as const;

/**
 * Admins: the workspace's OpenID provider (issuer, client id and secret, the allowed e-mail domains,
 * the role of operators it creates, whether passwords still sign in), with the redirect URIs to
 * register at the provider. The secret is write-only: the server never returns it.
 */
export function SingleSignOnSection() {
  const me = useOperator();
  if (me.role !== "admin") return null;
  return <SingleSignOnForm />;
}

function SingleSignOnForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: SSO_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/workspace/sso"))).data });
  const [form, setForm] = useState({ display_name: "", issuer: "", client_id: "", client_secret: "", domains: "", default_role: "agent" as "agent" | "admin", password_sign_in: true });
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    const data: SsoSettings | null | undefined = current.data;
    if (!data) return;
    setForm({
      display_name: data.display_name,
      issuer: data.issuer,
      client_id: data.client_id,
      client_secret: "",
      domains: data.allowed_domains.join(", "),
      default_role: data.default_role,
      password_sign_in: data.password_sign_in,
    });
  }, [current.data]);
  const save = useMutation({
    mutationFn: async () =>
      (
        await dataOf(
          api.PUT("/api/v1/console/workspace/sso", {
            body: {
              display_name: form.display_name.trim(),
              issuer: form.issuer.trim(),
              client_id: form.client_id.trim(),
              ...(form.client_secret ? { client_secret: form.client_secret } : {}),
              allowed_domains: form.domains.split(/[\s,]+/).filter(Boolean),
              default_role: form.default_role,
              password_sign_in: form.password_sign_in,
            },
          }),
        )
      ).data,
    onSuccess: (data) => {
      queryClient.setQueryData(SSO_KEY, data);
      setNotice(`Saved: operators of ${data?.allowed_domains.join(", ")} can sign in with ${data?.display_name}.`);
    },
  });
  const remove = useMutation({
    mutationFn: async () => dataOf(api.DELETE("/api/v1/console/workspace/sso")),
    onSuccess: () => {
      queryClient.setQueryData(SSO_KEY, null);
      setNotice("Single sign-on is off: operators sign in with passwords.");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    save.mutate();
  };
  const fields = save.error instanceof ApiError ? save.error.fields : undefined;
  const fieldError = (name: string) => fields?.[name]?.[0] ?? fields?.[`body.${name}`]?.[0];
  type TextField = "display_name" | "issuer" | "client_id" | "client_secret" | "domains";
  const set = (name: TextField) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });
  const text = (name: TextField, label: string, extra: { type?: string; placeholder?: string; hint?: string; error?: string } = {}) => {
    const error = extra.error ?? fieldError(name);
    return (
      <>
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <input
          id={`${id}-${name}`}
          type={extra.type ?? "text"}
          value={form[name]}
          onChange={set(name)}
          placeholder={extra.placeholder}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error || extra.hint ? `${id}-${name}-note` : undefined}
        />
        {(error || extra.hint) && (
          <p id={`${id}-${name}-note`} className={error ? "error small" : "muted small"}>
            {error ?? extra.hint}
          </p>
        )}
      </>
    );
  };
  const data = current.data;
  return (
    <section className="settings-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Single sign-on</h2>
      <p className="muted small">
        Operators sign in with your company's OpenID Connect provider (Okta, Microsoft Entra ID, Google Workspace, Keycloak …). People of the allowed e-mail domains get an
        operator at their first sign-in.
      </p>
      {data && (
        <>
          <CopyField label="Redirect URI to register at the provider" value={data.redirect_uri} />
          <CopyField label="Post-logout redirect URI" value={data.post_logout_redirect_uri} />
        </>
      )}
      <form className="settings-form" onSubmit={submit} aria-label="Single sign-on provider">
        {text("display_name", "Button name", { placeholder: "Acme ID", hint: "The sign-in page shows “Sign in with …”." })}
        {text("issuer", "Issuer URL", { type: "url", placeholder: "https://login.example.com" })}
        {text("client_id", "Client ID")}
        {text("client_secret", "Client secret", { type: "password", hint: data?.has_client_secret ? "A secret is stored; leave empty to keep it." : "Stored sealed; never shown again." })}
        {text("domains", "Allowed e-mail domains", { placeholder: "example.com, example.org", error: fieldError("allowed_domains") ?? fieldError("allowed_domains.0") })}
        <label htmlFor={`${id}-role`}>Role of new operators</label>
        <select id={`${id}-role`} value={form.default_role} onChange={(event) => setForm({ ...form, default_role: event.target.value === "admin" ? "admin" : "agent" })}>
          <option value="agent">Agent</option>
          <option value="admin">Admin</option>
        </select>
        <label className="checkbox-label">
          <input type="checkbox" checked={form.password_sign_in} onChange={(event) => setForm({ ...form, password_sign_in: event.target.checked })} />
          Operators may still sign in with a password
        </label>
        {save.isError && !fields && (
          <p className="error" role="alert">
            {describeError(save.error)}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save single sign-on
          </button>
          {data && (
            <button type="button" disabled={remove.isPending} onClick={() => remove.mutate()}>
              Turn off single sign-on
            </button>
          )}
        </div>
        <p className="muted small" role="status">
          {notice ?? ""}
        </p>
      </form>
    </section>
  );
}
