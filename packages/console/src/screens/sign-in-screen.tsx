import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError } from "../api/client.js";
import { switchSession, type Operator } from "../session.js";
import { RecoveryCodes, TotpEnrolment, type TotpSecret } from "../two-factor/totp-enrolment.js";

type SecondStep = "totp" | "enrol_totp";

/** What the provider's callback sent back (`/console/?sso_error=…`), in words; the reason itself is in the service's log. */
const SSO_ERRORS: Record<string, string> = {
  sso_failed: "Single sign-on failed: the identity provider's answer was refused. Try again; if it goes on, an admin can read why in the service's log.",
  sso_expired: "The single sign-on took more than 10 minutes, or was started in another browser. Try again.",
  sso_domain_not_allowed: "Your e-mail's domain may not sign in to this workspace with single sign-on.",
};

/**
 * E-mail and password → the session cookie (HttpOnly: the page never holds the secret). When the
 * operator has an authenticator, the server answers 202 and a code (or a recovery code) is asked
 * next; when their workspace requires one they have not set up, they set it up here.
 */
export function SignInScreen() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);
  const signIn = useMutation({
    mutationFn: async (): Promise<{ pending: SecondStep } | { operator: Operator }> => {
      const answer = (await dataOf(api.POST("/api/v1/console/session", { body: { email, password } }))).data;
      // 202: the password is right and a second step is due (a pending cookie, no session yet).
      if ("second_step" in answer && answer.second_step) return { pending: answer.second_step };
      return { operator: answer as Operator };
    },
    onSuccess: (outcome) => {
      if ("pending" in outcome) {
        setPassword("");
        setSecondStep(outcome.pending);
      } else switchSession(queryClient, outcome.operator);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  // The provider's name when the e-mail's domain signs in with single sign-on (asked when the e-mail is left).
  const discover = useMutation({
    mutationFn: async (address: string) => (await dataOf(api.GET("/api/v1/console/sso/discover", { params: { query: { email: address } } }))).data.provider,
  });
  const startSso = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/sso/start", { body: { email } }))).data.authorization_url,
    onSuccess: (url) => window.location.assign(url),
  });
  const ssoError = new URLSearchParams(window.location.search).get("sso_error");
  if (secondStep === "totp") return <CodeStep onRestart={() => setSecondStep(null)} />;
  if (secondStep === "enrol_totp") return <EnrolStep onRestart={() => setSecondStep(null)} />;
  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <p className="brand" aria-hidden="true">
          Frontdesk
        </p>
        <h1 id="sign-in-title">Sign in to the console</h1>
        <label>
          E-mail
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onBlur={() => {
              if (email.includes("@")) discover.mutate(email);
            }}
          />
        </label>
        {ssoError && (
          <p role="alert" className="error">
            {SSO_ERRORS[ssoError] ?? SSO_ERRORS.sso_failed}
          </p>
        )}
        {discover.data && (
          <>
            <button type="button" className="primary" disabled={startSso.isPending} onClick={() => startSso.mutate()}>
              Sign in with {discover.data}
            </button>
            {startSso.isError && (
              <p role="alert" className="error">
                {describeError(startSso.error)}
              </p>
            )}
            <p className="muted auth-or">or with your password</p>
          </>
        )}
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {signIn.isError && (
          <p role="alert" className="error">
            {describeError(signIn.error)}
          </p>
        )}
        <button type="submit" className="primary" disabled={signIn.isPending}>
          {signIn.isPending ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}

/** The authenticator's six digits, or one recovery code. */
function CodeStep({ onRestart }: { onRestart: () => void }) {
  const queryClient = useQueryClient();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState("");
  const finish = useMutation({
    mutationFn: async () =>
      (
        await dataOf(
          api.POST("/api/v1/console/session/second-factor", {
            body: useRecovery ? { recovery_code: value.trim() } : { code: value.replace(/\s/g, "") },
          }),
        )
      ).data,
    onSuccess: (operator) => switchSession(queryClient, operator),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    finish.mutate();
  };
  const expired = finish.error instanceof ApiError && finish.error.code === "sign_in_expired";
  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="code-title">
        <p className="brand" aria-hidden="true">
          Frontdesk
        </p>
        <h1 id="code-title">Two-factor sign-in</h1>
        <p className="muted">{useRecovery ? "Type one of your recovery codes. Each works once." : "Type the six digits your authenticator app shows."}</p>
        <label>
          {useRecovery ? "Recovery code" : "Code"}
          <input
            name={useRecovery ? "recovery-code" : "code"}
            inputMode={useRecovery ? "text" : "numeric"}
            autoComplete="one-time-code"
            autoFocus
            required
            maxLength={useRecovery ? 64 : 7}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </label>
        {finish.isError && (
          <p role="alert" className="error">
            {describeError(finish.error)}
          </p>
        )}
        <button type="submit" className="primary" disabled={finish.isPending}>
          Verify
        </button>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue("");
            finish.reset();
          }}
        >
          {useRecovery ? "Use the authenticator app instead" : "Use a recovery code"}
        </button>
        {expired && (
          <button type="button" className="link-button" onClick={onRestart}>
            Sign in again
          </button>
        )}
      </form>
    </main>
  );
}

/** The workspace requires two-factor sign-in and the operator has no authenticator yet: set one up now. */
function EnrolStep({ onRestart }: { onRestart: () => void }) {
  const queryClient = useQueryClient();
  const [done, setDone] = useState<{ operator: Operator; codes: string[] } | null>(null);
  const start = useMutation({
    mutationFn: async (): Promise<TotpSecret> => (await dataOf(api.POST("/api/v1/console/session/totp-enrolment"))).data,
  });
  const confirm = useMutation({
    mutationFn: async (code: string) => dataOf(api.POST("/api/v1/console/session/totp-enrolment/confirm", { body: { code } })),
    onSuccess: (answer) => setDone({ operator: answer.data, codes: answer.recovery_codes }),
  });
  const { mutate: startEnrolment } = start;
  useEffect(() => startEnrolment(), [startEnrolment]);
  return (
    <main className="auth-page">
      <div className="auth-card" aria-labelledby="enrol-title" role="region">
        <p className="brand" aria-hidden="true">
          Frontdesk
        </p>
        <h1 id="enrol-title">{done ? "Two-factor sign-in is on" : "Set up two-factor sign-in"}</h1>
        {done ? (
          <>
            <RecoveryCodes codes={done.codes} />
            <button type="button" className="primary" onClick={() => switchSession(queryClient, done.operator)}>
              I have kept them: continue
            </button>
          </>
        ) : (
          <>
            <p className="muted">Your workspace requires an authenticator app to sign in.</p>
            {start.isPending && <p className="muted">Loading…</p>}
            {start.isError && (
              <>
                <p role="alert" className="error">
                  {describeError(start.error)}
                </p>
                <button type="button" className="link-button" onClick={onRestart}>
                  Sign in again
                </button>
              </>
            )}
            {start.data && <TotpEnrolment enrolment={start.data} onConfirm={(code) => confirm.mutate(code)} pending={confirm.isPending} error={confirm.error} />}
          </>
        )}
      </div>
    </main>
  );
}
