import type { TestApp } from "./test-app.js";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { adminOf } from "./seed.js";

/** Pushes text sources through the Sources API and waits until the workers have indexed them all. */
export async function pushKnowledge(
  t: TestApp,
  workspaceId: string,
  agentId: string,
  texts: { title: string; content: string; source_url: string }[],
): Promise<string[]> {
  const { token } = (await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId, name: "knowledge" })) as { token: string };
  const ids: string[] = [];
  for (const text of texts) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/workspace/sources",
      headers: { authorization: `Bearer ${token}` },
      payload: { agent_id: agentId, kind: "text", ...text },
    });
    ids.push(response.json().data.id);
  }
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const { rows } = await t.services.db.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM sources WHERE id = ANY (SELECT jsonb_array_elements_text($1::jsonb)) AND status = 'pending'`,
      [JSON.stringify(ids)],
    );
    if (rows[0]!.pending === 0) return ids;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("knowledge was not indexed in time");
}

/** The integer id of the document a source's content became. */
export async function documentIdOf(t: TestApp, sourceId: string): Promise<number> {
  const { rows } = await t.services.db.query<{ id: number }>(`SELECT id::int AS id FROM documents WHERE source_id = $1`, [sourceId]);
  return rows[0]!.id;
}

export const bikeShopKnowledge = [
  {
    title: "Delivery times",
    source_url: "https://shop.example.com/help/delivery",
    content:
      "Standard delivery within the country takes three to five working days. Express delivery arrives the next working day if you order before 2 pm. Orders over 50 euros ship for free.\n\nWe do not deliver on Sundays or public holidays.",
  },
  {
    title: "Returns and refunds",
    source_url: "https://shop.example.com/help/returns",
    content:
      "You can return any unused bike within 60 days of delivery for a full refund. Refunds are paid to the original payment method within five working days after we receive the return.\n\nReturn labels are free for members of the loyalty club.",
  },
  {
    title: "E-bike battery care",
    source_url: "https://shop.example.com/help/battery",
    content:
      "Store your e-bike battery at room temperature and keep it between 30 and 80 percent charge during winter. A full charge takes about four hours with the standard charger.\n\nBatteries are covered by a two year warranty.",
  },
];
