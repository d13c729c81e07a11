import { measuredJobHandler } from "../../jobs/measured-job-handler.js";
import { runReembedWorkspaceJob, type ReembeddingContext } from "./reembed-workspace-job.js";
import { runRetireEmbedderJob } from "./retire-embedder-job.js";

/**
 * Starts this process's re-embedding workers. One batch at a time per process: a workspace's
 * batches follow each other, and a remote server is not flooded. What a stopped process left
 * queued (the next batch's job is written with each batch) is picked up when they start.
 */
export async function registerReembeddingWorkers(context: ReembeddingContext): Promise<void> {
  const { jobs, pipeline } = context;
  await jobs.work("reembed-workspace", 1, measuredJobHandler(pipeline.metrics, "reembed-workspace", (payload, attempt) => runReembedWorkspaceJob(context, payload, attempt)));
  await jobs.work("retire-embedder", 1, measuredJobHandler(pipeline.metrics, "retire-embedder", (payload) => runRetireEmbedderJob(context, payload)));
}
