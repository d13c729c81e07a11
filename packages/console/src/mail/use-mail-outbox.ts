import { useQuery } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import { useOperator } from "../session.js";

export type MailStatus = Schemas["MailMessage"]["status"];

/** Where an admin reads how to set up e-mail: the SMTP rows of the configuration docs. */
export const SMTP_DOCS_URL = "https://github.com/frontdesk/frontdesk/blob/main/docs/configuration.md#smtp";

export const MAIL_OUTBOX_KEY = ["mail", "outbox"] as const;

/**
 * GET /console/mail: whether SMTP is set up, the counts and the latest mails. Admins only: for an
 * agent the query never runs (the server would answer 403), so agents see no banner and no log.
 */
export function useMailOutbox(filter: { status?: MailStatus; limit?: number } = {}) {
  const admin = useOperator().role === "admin";
  return useQuery({
    queryKey: [...MAIL_OUTBOX_KEY, filter.status ?? "all", filter.limit ?? 50],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/mail", { params: { query: { status: filter.status, limit: filter.limit ?? 50 } } }))).data,
    enabled: admin,
    // The outbox changes as mails are queued and sent; read again now and then, and on focus.
    refetchInterval: 60_000,
    placeholderData: (previous) => previous,
  });
}
