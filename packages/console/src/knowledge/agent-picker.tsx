import { useId } from "react";
import type { Schemas } from "../api/client.js";

type Agent = Schemas["ConsoleAgent"];

/** A labelled choice of one of the workspace's agents; `allLabel` adds a "no filter" option (value ""). */
export function AgentPicker({ agents, value, onChange, allLabel }: { agents: Agent[]; value: string; onChange: (agentId: string) => void; allLabel?: string }) {
  const id = useId();
  return (
    <div className="agent-picker">
      <label htmlFor={id}>Agent</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {agents.map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
            {agent.published ? "" : " (draft)"}
          </option>
        ))}
      </select>
    </div>
  );
}
