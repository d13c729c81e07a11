import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, type ReactNode } from "react";
import { api, ApiError, dataOf, onSignedOut, type Schemas } from "./api/client.js";

export type Operator = Schemas["ConsoleOperator"];

export const ME_QUERY_KEY = ["me"] as const;

/**
 * Who is signed in now (null: nobody): every other cached answer belonged to the previous session
 * and is dropped, the operator's query kept (its observers must see the change).
 */
export function switchSession(queryClient: QueryClient, operator: Operator | null): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== ME_QUERY_KEY[0] });
  queryClient.setQueryData(ME_QUERY_KEY, operator);
}

/** The signed-in operator, or null when the cookie holds no live session. */
export function useMeQuery() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSignedOut(() => switchSession(queryClient, null)),
    [queryClient],
  );
  return useQuery({
    queryKey: ME_QUERY_KEY,
    queryFn: async (): Promise<Operator | null> => {
      try {
        return (await dataOf(api.GET("/api/v1/console/me"))).data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

const OperatorContext = createContext<Operator | null>(null);

export function OperatorProvider({ operator, children }: { operator: Operator; children: ReactNode }) {
  return <OperatorContext.Provider value={operator}>{children}</OperatorContext.Provider>;
}

/** The signed-in operator (inside the signed-in part of the app). */
export function useOperator(): Operator {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error("useOperator outside OperatorProvider");
  return operator;
}
