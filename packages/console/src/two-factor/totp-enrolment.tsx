import { useState, type FormEvent } from "react";
import { describeError } from "../api/client.js";
import "./two-factor.css";

export interface TotpSecret {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
}

/**
 * A new authenticator: its QR code (an SVG data URL from the server), the secret as text for an
 * app that cannot scan, and the code that confirms it.
 */
export function TotpEnrolment({ enrolment, onConfirm, pending, error }: { enrolment: TotpSecret; onConfirm: (code: string) => void; pending: boolean; error: unknown }) {
  const [code, setCode] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm(code.replace(/\s/g, ""));
  };
  const grouped = enrolment.secret.replace(/(.{4})/g, "$1 ").trim();
  return (
    <form className="totp-enrolment" onSubmit={submit} aria-label="Set up an authenticator app">
      <ol>
        <li>Open an authenticator app (1Password, Google Authenticator, Authy, …) and scan this code.</li>
        <li>Type the six digits it shows.</li>
      </ol>
      <img className="totp-qr" src={enrolment.qr_code} alt="QR code of the authenticator secret" width={200} height={200} />
      <p className="muted small">
        Cannot scan? Type this key instead: <code className="totp-secret">{grouped}</code>
      </p>
      <label>
        Code from the app
        <input
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,7}"
          maxLength={7}
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </label>
      {error !== null && error !== undefined && (
        <p role="alert" className="error">
          {describeError(error)}
        </p>
      )}
      <button type="submit" className="primary" disabled={pending}>
        Turn on two-factor sign-in
      </button>
    </form>
  );
}

/** The recovery codes, shown once, with what they are for. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">Your recovery codes</h2>
      <p className="muted small">
        Keep them somewhere safe: each signs you in once if you lose your phone. They are shown this once.
      </p>
      <ul>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
