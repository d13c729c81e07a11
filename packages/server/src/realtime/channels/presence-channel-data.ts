import { z } from "zod";
import type { PresenceMember } from "../presence/presence-store.js";

const channelDataSchema = z.object({
  user_id: z.union([z.string().min(1).max(200), z.number().finite()]),
  user_info: z.unknown().optional(),
});

/** A presence subscription's `channel_data` (`{"user_id": …, "user_info": …}`), or null when malformed. */
export function parsePresenceChannelData(channelData: string | undefined): PresenceMember | null {
  if (channelData === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(channelData);
  } catch {
    return null;
  }
  const parsed = channelDataSchema.safeParse(json);
  if (!parsed.success) return null;
  return { userId: String(parsed.data.user_id), userInfo: parsed.data.user_info ?? null };
}
