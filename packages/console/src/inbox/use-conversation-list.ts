import { useInfiniteQuery } from "@tanstack/react-query";
import { api, dataOf } from "../api/client.js";
import type { InboxFilter } from "./inbox-filters.js";

export const CONVERSATIONS_QUERY_KEY = ["conversations"] as const;
const PAGE_SIZE = "50";

/** The conversations of a filter (and words searched in their messages, and a label), newest activity first, page after page (cursor). */
export function useConversationList(filter: InboxFilter, search: string, label: string | null = null) {
  return useInfiniteQuery({
    queryKey: [...CONVERSATIONS_QUERY_KEY, filter.id, search, label],
    queryFn: ({ pageParam }) =>
      dataOf(
        api.GET("/api/v1/console/conversations", {
          params: { query: { ...filter.query, limit: PAGE_SIZE, ...(search ? { q: search } : {}), ...(label ? { label_id: label } : {}), ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
}
