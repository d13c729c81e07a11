import { threadId } from "node:worker_threads";
import type { EmbeddingTask, EmbeddingTaskResult } from "./embedding-worker-protocol.js";

/** What a worker thread hosts: something that embeds a batch, loaded once per thread. */
export interface WorkerBatchEmbedder {
  readonly dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The task handler an embedding worker module exports as its default: it loads the embedder on
 * the thread's first task and keeps it for the thread's life (a failed load is retried by the next
 * task), then embeds each task's texts. A batch that throws fails alone.
 */
export function serveEmbeddingWorker(load: () => Promise<WorkerBatchEmbedder>): (task: EmbeddingTask) => Promise<EmbeddingTaskResult> {
  let loading: Promise<WorkerBatchEmbedder> | undefined;
  return async (task) => {
    loading ??= load();
    let embedder: WorkerBatchEmbedder;
    try {
      embedder = await loading;
    } catch (error) {
      loading = undefined;
      return { kind: "load_failed", message: messageOf(error) };
    }
    const vectors = task.texts.length === 0 ? [] : await embedder.embed(task.texts);
    return { kind: "embedded", dimensions: embedder.dimensions, vectors, threadId };
  };
}
