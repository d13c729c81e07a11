import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { useOperator } from "../session.js";
import { RecoveryCodes, TotpEnrolment } from "../two-factor/totp-enrolment.js";

const TWO_FACTOR_KEY = ["settings", "two-factor"] as const;
const SIGN_IN_SETTINGS_KEY = ["settings", "workspace-sign-in"] as const;

/**
 * Two-factor sign-in: the operator's own authenticator (set up with a QR code, confirmed with a code,
 * ten recovery codes shown once; turned off with a code unless the workspace requires it), and for
 * admins whether the workspace requires it of everyone.
 */
export function TwoFactorSection() {
  const queryClient = useQueryClient();
  const me = useOperator();
  const status = useQuery({ queryKey: TWO_FACTOR_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/me/two-factor"))).data });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [offCode, setOffCode] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY });
  const start = useMutation({ mutationFn: async () => (await dataOf(api.POST("/api/v1/console/me/two-factor/enrolment"))).data });
  const confirm = useMutation({
    mutationFn: async (code: string) => (await dataOf(api.POST("/api/v1/console/me/two-factor/enrolment/confirm", { body: { code } }))).data,
    onSuccess: (data) => {
      setCodes(data.recovery_codes);
      start.reset();
      void refresh();
    },
  });
  const turnOff = useMutation({
    mutationFn: async () => dataOf(api.POST("/api/v1/console/me/two-factor/disable", { body: { code: offCode.replace(/\s/g, "") } })),
    onSuccess: () => {
      setOffCode("");
      setCodes(null);
      void refresh();
    },
  });
  const submitOff = (event: FormEvent) => {
    event.preventDefault();
    turnOff.mutate();
  };
  const data = status.data;
  return (
    <section className="settings-card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {status.isError && (
        <p className="error" role="alert">
          {describeError(status.error)}
        </p>
      )}
      {data && (
        <>
          <p className="muted small">
            {data.enabled
              ? `On: sign-in asks for your authenticator app's code. ${data.recovery_codes_left} recovery codes left.`
              : "Off: sign-in asks only for your password. An authenticator app's code keeps a guessed or leaked password from being enough."}
            {data.required_by_workspace ? " Your workspace requires it." : ""}
          </p>
          {codes && <RecoveryCodes codes={codes} />}
          {!data.enabled && !start.data && (
            <button type="button" className="primary" onClick={() => start.mutate()} disabled={start.isPending}>
              Set up an authenticator app
            </button>
          )}
          {start.isError && (
            <p className="error" role="alert">
              {describeError(start.error)}
            </p>
          )}
          {start.data && <TotpEnrolment enrolment={start.data} onConfirm={(code) => confirm.mutate(code)} pending={confirm.isPending} error={confirm.error} />}
          {data.enabled && !data.required_by_workspace && (
            <form className="inline-form" onSubmit={submitOff} aria-label="Turn two-factor sign-in off">
              <label>
                Code from the app
                <input inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} required value={offCode} onChange={(event) => setOffCode(event.target.value)} />
              </label>
              <button type="submit" disabled={turnOff.isPending}>
                Turn off
              </button>
              {turnOff.isError && (
                <p className="error" role="alert">
                  {describeError(turnOff.error)}
                </p>
              )}
            </form>
          )}
        </>
      )}
      {me.role === "admin" && <WorkspaceRequirement onChange={() => void refresh()} />}
    </section>
  );
}

/** Admins: whether every operator of the workspace must sign in with an authenticator's code. */
function WorkspaceRequirement({ onChange }: { onChange: () => void }) {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: SIGN_IN_SETTINGS_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/workspace/sign-in"))).data });
  const update = useMutation({
    mutationFn: async (required: boolean) => (await dataOf(api.PATCH("/api/v1/console/workspace/sign-in", { body: { require_two_factor: required } }))).data,
    onSuccess: (data) => {
      queryClient.setQueryData(SIGN_IN_SETTINGS_KEY, data);
      onChange();
    },
  });
  if (!settings.data) return null;
  return (
    <div className="two-factor-requirement">
      <label className="checkbox-label">
        <input
          type="checkbox"
          checked={settings.data.require_two_factor}
          disabled={update.isPending}
          onChange={(event) => update.mutate(event.target.checked)}
        />
        Require two-factor sign-in of every operator of the workspace
      </label>
      <p className="muted small">Operators without an authenticator app set one up at their next sign-in.</p>
      {update.isError && (
        <p className="error" role="alert">
          {describeError(update.error)}
        </p>
      )}
    </div>
  );
}
