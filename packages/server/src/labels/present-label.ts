import type { ConversationLabel, Label } from "@frontdesk/contracts";
import type { StoredLabel } from "./label-repository.js";

/** A label as a conversation carries it: id, name and colour. */
export const presentConversationLabel = (label: StoredLabel): ConversationLabel => ({ id: label.id, name: label.name, colour: label.colour });

/** A label as the console lists it, with how many conversations carry it. */
export const presentLabel = (label: StoredLabel, conversations: number): Label => ({ ...presentConversationLabel(label), conversations, created_at: label.createdAt });
