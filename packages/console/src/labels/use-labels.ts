import { useQuery } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";

export type Label = Schemas["Label"];
export type ConversationLabel = Schemas["ConversationLabel"];

/** Every cached answer about labels: the list, and the conversations and analytics that show them. */
export const LABELS_KEY = ["labels"] as const;

/** The workspace's labels by name (any operator reads them). */
export function useLabels() {
  return useQuery({ queryKey: LABELS_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/labels"))).data });
}
