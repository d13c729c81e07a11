import type { FetchedPage } from "./fetch/fetch-page.js";
import { FetchError } from "./fetch/fetch-error.js";
import type { IngestPipeline } from "./ingest-pipeline.js";

/** Fetches one page through the pipeline's crawler, counting the outcome (`ok` or the fetch error's code). */
export async function fetchPageMeasured(pipeline: IngestPipeline, url: string): Promise<FetchedPage> {
  try {
    const page = await pipeline.crawler.fetchPage(url);
    pipeline.metrics.pageFetched("ok");
    return page;
  } catch (error) {
    pipeline.metrics.pageFetched(error instanceof FetchError ? error.code : "error");
    throw error;
  }
}
