import type { Services } from "../../services.js";
import { findWorkspace } from "../../tenants/workspaces.js";
import { quotaMonth } from "../../widget/start-session.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { listMonthlyConversationCounts } from "../../conversations/conversation-reports.js";

/** How many months the history shows, the current one included. */
export const USAGE_MONTHS = 6;

const monthKey = (year: number, monthIndex: number) => new Date(Date.UTC(year, monthIndex, 1)).toISOString().slice(0, 10);

/**
 * GET /console/workspace/usage: the monthly conversation quota and what this UTC month used, as
 * init counts it (a conversation counts once, when it starts), with the last six months.
 */
export async function showWorkspaceUsage(services: Services, operator: SignedInOperator) {
  const now = services.now();
  const workspace = await findWorkspace(services.db, operator.workspaceId);
  const months = Array.from({ length: USAGE_MONTHS }, (_, index) => monthKey(now.getUTCFullYear(), now.getUTCMonth() - (USAGE_MONTHS - 1 - index)));
  const counted = new Map((await listMonthlyConversationCounts(services.db, operator.workspaceId, months[0]!)).map((usage) => [usage.month, usage.conversations]));
  const current = quotaMonth(now);
  const used = counted.get(current) ?? 0;
  const quota = workspace?.conversationQuota ?? null;
  return {
    workspace: { id: operator.workspaceId, name: workspace?.name ?? "" },
    month: current.slice(0, 7),
    conversation_quota: quota,
    conversations_used: used,
    conversations_remaining: quota === null ? null : Math.max(quota - used, 0),
    resets_at: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    history: months.map((month) => ({ month: month.slice(0, 7), conversations: counted.get(month) ?? 0 })),
  };
}
