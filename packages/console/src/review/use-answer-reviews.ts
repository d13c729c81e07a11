import { useInfiniteQuery } from "@tanstack/react-query";
import { api, dataOf } from "../api/client.js";

/** The review queue's filters, as the URL keeps them. */
export interface ReviewFilters {
  agentId: string;
  rating: "" | "up" | "down";
  unsure: boolean;
  noCitation: boolean;
  curated: "" | "true" | "false";
  from: string;
  to: string;
}

const PAGE_SIZE = "25";

/** The workspace's bot answers for review, newest first, page after page (cursor). */
export function useAnswerReviews(filters: ReviewFilters) {
  return useInfiniteQuery({
    queryKey: ["answer-reviews", filters],
    queryFn: ({ pageParam }) =>
      dataOf(
        api.GET("/api/v1/console/answers", {
          params: {
            query: {
              limit: PAGE_SIZE,
              ...(filters.agentId ? { agent_id: filters.agentId } : {}),
              ...(filters.rating ? { rating: filters.rating } : {}),
              ...(filters.unsure ? { low_confidence: "true" as const } : {}),
              ...(filters.noCitation ? { no_citation: "true" as const } : {}),
              ...(filters.curated ? { curated: filters.curated } : {}),
              ...(filters.from ? { from: filters.from } : {}),
              ...(filters.to ? { to: filters.to } : {}),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
}
