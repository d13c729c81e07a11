import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { switchSession } from "../session.js";

/** E-mail and password → the session cookie (HttpOnly: the page never holds the secret). */
export function SignInScreen() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/session", { body: { email, password } }))).data,
    onSuccess: (operator) => switchSession(queryClient, operator),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <p className="brand" aria-hidden="true">
          Frontdesk
        </p>
        <h1 id="sign-in-title">Sign in to the console</h1>
        <label>
          E-mail
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
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
