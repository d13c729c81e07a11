import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { exportLeadsCsv } from "./export-leads-csv.js";
import { listLeads } from "./list-leads.js";
import { exportLeadsRouteSchema, listLeadsRouteSchema } from "./schemas.js";

/** The workspace's leads: GET /api/v1/console/leads (a page) and /leads.csv (all of them, as a file). */
export const leadRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.get("/leads", { schema: listLeadsRouteSchema, preValidation: guard }, async (request) => listLeads(services, operatorOf(request), request.query));

  app.get("/leads.csv", { schema: exportLeadsRouteSchema, preValidation: guard }, async (request, reply) => {
    const operator = operatorOf(request);
    const lines = exportLeadsCsv(services, operator, request.query);
    // The first page is read before answering, so a failing store is an error answer, not a cut file.
    const first = await lines.next();
    const head = first.done ? "" : first.value;
    const day = services.now().toISOString().slice(0, 10);
    // The file is a stream of text; the route's schema documents it as a string.
    const file: FastifyReply = reply;
    return file
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="leads-${day}.csv"`)
      .header("cache-control", "no-store")
      .send(
        Readable.from(
          (async function* () {
            yield head;
            yield* lines;
          })(),
        ),
      );
  });
};
