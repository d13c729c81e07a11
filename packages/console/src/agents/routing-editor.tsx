import { useQuery } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import { OPERATORS_KEY } from "../settings/settings-keys.js";
import { FieldError, messagesFor } from "./field-errors.js";
import { SettingField } from "./setting-field.js";
import "./routing-editor.css";
import type { ConsoleAgent } from "./use-agents.js";

type UpdateBody = Schemas["UpdateConsoleAgentRequest"];
type Mode = "manual" | "round_robin";

/** How new requests for a person find an operator, as the form holds it. */
export interface RoutingDraft {
  mode: Mode;
  /** Operator ids; none: every operator of the workspace. */
  team: string[];
}

export const routingDraftOf = (agent: ConsoleAgent): RoutingDraft => ({ mode: agent.routing.mode, team: agent.routing.team });

export const routingBodyOf = (draft: RoutingDraft): Pick<UpdateBody, "routing"> => ({ routing: { mode: draft.mode, team: draft.mode === "manual" ? [] : draft.team } });

const MODES = [
  ["manual", "Manual (anyone takes it)"],
  ["round_robin", "Round robin (operators online)"],
] as const;

/** The agent's routing of requests for a person: the mode and, for round robin, its team (checkboxes of the workspace's operators). */
export function RoutingEditor({ draft, onChange, fields }: { draft: RoutingDraft; onChange: (draft: RoutingDraft) => void; fields: Record<string, string[]> }) {
  const operators = useQuery({ queryKey: OPERATORS_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/operators"))).data, enabled: draft.mode === "round_robin" });
  const toggle = (id: string, member: boolean) => onChange({ ...draft, team: member ? [...draft.team, id] : draft.team.filter((other) => other !== id) });
  const teamInvalid = messagesFor(fields, "routing.team").length > 0;
  return (
    <fieldset>
      <legend>Routing</legend>
      <SettingField
        id="agent-routing"
        label="Requests for a person"
        field="routing.mode"
        fields={fields}
        value={draft.mode}
        onChange={(mode: Mode) => onChange({ ...draft, mode })}
        options={MODES}
        hint="Manual alerts every operator and whoever takes it has it. Round robin assigns each new request to the next operator online, in turn; with nobody online it waits for anyone."
      />
      {draft.mode === "round_robin" && (
        <fieldset className="routing-team" aria-describedby={`agent-routing-team-hint${teamInvalid ? " agent-routing-team-error" : ""}`}>
          <legend>Team</legend>
          <span id="agent-routing-team-hint" className="muted hint">
            Only these operators take turns. None ticked: every operator of the workspace.
          </span>
          {operators.isPending && <p className="muted">Loading operators…</p>}
          {operators.data?.map((operator) => (
            <label key={operator.id} className="check">
              <input type="checkbox" checked={draft.team.includes(operator.id)} onChange={(event) => toggle(operator.id, event.target.checked)} /> {operator.name}
              <span className="muted"> ({operator.email})</span>
            </label>
          ))}
          <FieldError fields={fields} field="routing.team" id="agent-routing-team" />
        </fieldset>
      )}
    </fieldset>
  );
}
