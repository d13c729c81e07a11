import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { api, ApiError, dataOf, describeError } from "../api/client.js";

const MIN_LENGTH = 10;

/** The set-password link (`/console/set-password#token=…`): the token stays in the fragment, never sent in a URL. */
export function SetPasswordScreen() {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const setIt = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/password", { body: { token, password } }))).data,
    onSuccess: () => window.history.replaceState(null, "", window.location.pathname),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== confirmation);
    if (password === confirmation) setIt.mutate();
  };
  const fieldError = setIt.error instanceof ApiError ? setIt.error.fields?.password?.[0] : undefined;
  if (setIt.isSuccess) {
    return (
      <main className="auth-page">
        <div className="auth-card">
          <h1>Password set</h1>
          <p>
            {setIt.data.name}, your password is set. <Link href="/inbox">Sign in</Link>
          </p>
        </div>
      </main>
    );
  }
  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="set-password-title">
        <h1 id="set-password-title">Choose your password</h1>
        {!token && (
          <p role="alert" className="error">
            This link has no token. Open the whole link you were given.
          </p>
        )}
        <label>
          New password
          <input
            type="password"
            autoComplete="new-password"
            minLength={MIN_LENGTH}
            required
            value={password}
            aria-describedby="password-rule"
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <p id="password-rule" className="muted">
          At least {MIN_LENGTH} characters, and not a common password.
        </p>
        <label>
          Repeat it
          <input type="password" autoComplete="new-password" required value={confirmation} onChange={(event) => setConfirmation(event.target.value)} />
        </label>
        {(mismatch || setIt.isError) && (
          <p role="alert" className="error">
            {mismatch ? "The two passwords differ." : (fieldError ?? describeError(setIt.error))}
          </p>
        )}
        <button type="submit" className="primary" disabled={!token || setIt.isPending}>
          Set password
        </button>
      </form>
    </main>
  );
}
