import { z } from "zod";

/**
 * How an agent's new human requests find an operator (issue 33, part 6): `manual` (every operator
 * is alerted, whoever takes it has it) or `round_robin` (the next operator online in turn gets it,
 * among `team` when it names any).
 */
export const routingModes = ["manual", "round_robin"] as const;
export type RoutingMode = (typeof routingModes)[number];

/** At most this many operators in an agent's routing team. */
export const MAX_ROUTING_TEAM = 100;

export const agentRoutingSchema = z.object({
  mode: z.enum(routingModes).describe("`manual`: every operator is alerted and anyone takes it over; `round_robin`: the next operator online in turn is assigned."),
  team: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an operator id"))
    .max(MAX_ROUTING_TEAM)
    .refine((ids) => new Set(ids).size === ids.length, "must not name an operator twice")
    .describe("With `round_robin`: only these operators of the workspace take turns; `[]`: every operator of the workspace."),
});
export type AgentRouting = z.infer<typeof agentRoutingSchema>;
