import type { SourceKindPlugin } from "../ingest/ingest-job-context.js";
import { measuredJobHandler } from "../jobs/measured-job-handler.js";
import { runIndexWordpressPostsJob } from "./index-wordpress-posts-job.js";
import { resyncWordpressSource } from "./resync-wordpress-source.js";

/** The WordPress sync as a source kind of ingestion: a re-sync indexes the stored posts again, and its posts' job runs with the indexing workers. */
export const wordpressSourceKind: SourceKindPlugin = {
  kind: "wordpress",
  sync: resyncWordpressSource,
  async registerWorkers(context, concurrency) {
    await context.jobs.work(
      "index-wordpress-posts",
      concurrency,
      measuredJobHandler(context.pipeline.metrics, "index-wordpress-posts", (payload, attempt) => runIndexWordpressPostsJob(context, payload, attempt)),
    );
  },
};
