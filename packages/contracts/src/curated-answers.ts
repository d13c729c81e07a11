import { z } from "zod";

/**
 * `curated_answer.updated` on the workspace channel (`private-workspace.{id}`): a curated answer
 * was created, changed or deleted (`deleted`) in a console; the Curated answers screen and the
 * knowledge gaps ("answered") read their lists again. Ids only: the lists come from their routes.
 */
export const curatedAnswerEventSchema = z.object({
  curated_answer_id: z.string(),
  agent_id: z.string(),
  deleted: z.boolean(),
});
export type CuratedAnswerEvent = z.infer<typeof curatedAnswerEventSchema>;
