import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { CopyField } from "../settings/copy-field.js";
import { SettingField } from "./setting-field.js";
import { agentQueryKey, type ConsoleAgent } from "./use-agents.js";

export type IdentityMode = ConsoleAgent["identity"]["mode"];

const MODES = [
  ["off", "Off: every visitor is anonymous"],
  ["optional", "Optional: signed-in users are verified, anonymous visitors welcome"],
  ["required", "Required: signed-in users only"],
] as const;

/**
 * Verified visitors: the identity mode (saved with the other settings) and the identity secret,
 * created or rotated here and shown this once with a Copy button (the server never returns it again).
 */
export function IdentityEditor({ agent, mode, onModeChange, fields }: { agent: ConsoleAgent; mode: IdentityMode; onModeChange: (mode: IdentityMode) => void; fields: Record<string, string[]> }) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const hasSecret = agent.identity.secret_created_at !== null;
  const rotate = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/agents/{id}/identity-secret", { params: { path: { id: agent.id } } }))).data,
    onSuccess: (created) => {
      setSecret(created.secret);
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: agentQueryKey(agent.id) });
    },
  });
  return (
    <fieldset className="identity-editor">
      <legend>Verified visitors</legend>
      <p className="muted">
        Your site&apos;s back end signs its signed-in user&apos;s id with the identity secret (<code>user_hash</code>, see docs/widget.md): their conversations
        follow them to every device, and their name and e-mail show here as verified.
      </p>
      <SettingField id="agent-identity-mode" label="Identity verification" field="identity_mode" fields={fields} value={mode} onChange={onModeChange} options={MODES} />
      <p className="muted" id="identity-secret-state">
        {hasSecret ? `Identity secret created ${new Date(agent.identity.secret_created_at ?? "").toLocaleString()}.` : "No identity secret yet: create one before turning verification on."}
      </p>
      {secret ? (
        <div className="secret-once" role="region" aria-label="New identity secret">
          <p>Copy it into your site&apos;s back end now: it is shown this once. Hashes made with the previous secret no longer verify.</p>
          <CopyField label="Identity secret" value={secret} />
          <button type="button" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      ) : confirming ? (
        <div className="identity-confirm" role="group" aria-label="Rotate the identity secret">
          <p>Rotating signs every user out of verification until your site uses the new secret.</p>
          <button type="button" className="primary" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
            Rotate now
          </button>{" "}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" disabled={rotate.isPending} aria-describedby="identity-secret-state" onClick={() => (hasSecret ? setConfirming(true) : rotate.mutate())}>
          {hasSecret ? "Rotate identity secret" : "Create identity secret"}
        </button>
      )}
      {rotate.isError && (
        <p role="alert" className="error">
          {describeError(rotate.error)}
        </p>
      )}
    </fieldset>
  );
}
