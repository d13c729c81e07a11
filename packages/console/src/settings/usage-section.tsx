import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { formatTime } from "./format-time.js";
import { USAGE_KEY } from "./settings-keys.js";

const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en", { month: "long", year: "numeric", timeZone: "UTC" });

/** The workspace's monthly conversation quota, this month's use and the last six months. */
export function UsageSection() {
  const meterId = useId();
  // Kept live by useSettingsLive (conversation.started on the workspace channel).
  const usage = useQuery({ queryKey: USAGE_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/workspace/usage"))).data });
  const data = usage.data;
  return (
    <section className="settings-card" aria-labelledby="usage-title">
      <h2 id="usage-title">Quota and usage</h2>
      {usage.isPending && <p className="muted">Loading…</p>}
      {usage.isError && (
        <p className="error" role="alert">
          {describeError(usage.error)}
        </p>
      )}
      {data && (
        <>
          <p className="muted small">
            Workspace <strong>{data.workspace.name}</strong>, {monthName(data.month)} (UTC). The count starts again on {formatTime(data.resets_at)}.
          </p>
          <dl className="usage-figures">
            <div>
              <dt>Conversations this month</dt>
              <dd>{data.conversations_used}</dd>
            </div>
            <div>
              <dt>Monthly quota</dt>
              <dd>{data.conversation_quota ?? "No limit"}</dd>
            </div>
            <div>
              <dt>Remaining</dt>
              <dd>{data.conversations_remaining ?? "No limit"}</dd>
            </div>
          </dl>
          {data.conversation_quota !== null && (
            <p className="usage-meter">
              <label htmlFor={meterId}>
                {data.conversations_used} of {data.conversation_quota} used
              </label>
              <meter id={meterId} min={0} max={Math.max(1, data.conversation_quota)} value={data.conversations_used} high={Math.max(1, data.conversation_quota) * 0.8} />
            </p>
          )}
          {data.conversations_remaining === 0 && (
            <p className="error" role="alert">
              The quota is reached: new visitors cannot start a conversation until {formatTime(data.resets_at)}.
            </p>
          )}
          <table className="settings-table usage-history">
            <caption>The last six months</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" className="numeric">
                  Conversations
                </th>
              </tr>
            </thead>
            <tbody>
              {data.history.map((month) => (
                <tr key={month.month}>
                  <th scope="row">{monthName(month.month)}</th>
                  <td className="numeric">{month.conversations}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
