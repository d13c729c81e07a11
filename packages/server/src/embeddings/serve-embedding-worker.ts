import { parentPort } from "node:worker_threads";
import { isEmbeddingWorkerRequest, type EmbeddingWorkerReply } from "./embedding-worker-protocol.js";

/** What a worker thread hosts: something that embeds a batch, loaded once when the thread starts. */
export interface WorkerBatchEmbedder {
  readonly dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The worker-thread side of an embedding pool: loads the embedder, says `ready` (or
 * `load_failed`), then answers `embed` requests one at a time, in order, until `close`.
 */
export function serveEmbeddingWorker(load: () => Promise<WorkerBatchEmbedder>): void {
  const port = parentPort;
  if (port === null) throw new Error("serveEmbeddingWorker must run inside a worker thread");
  const reply = (message: EmbeddingWorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

  const loading = load();
  // Requests are handled strictly in order, so `close` waits for the batch in flight.
  let previous: Promise<unknown> = loading;

  void loading.then(
    (embedder) => reply({ type: "ready", dimensions: embedder.dimensions }),
    (error: unknown) => {
      reply({ type: "load_failed", message: messageOf(error) });
      port.close();
    },
  );

  port.on("message", (message: unknown) => {
    if (!isEmbeddingWorkerRequest(message)) return;
    previous = previous.then(
      async () => {
        const embedder = await loading;
        if (message.type === "close") {
          await embedder.dispose();
          port.close();
          return;
        }
        try {
          const vectors = await embedder.embed(message.texts);
          const buffers = new Set(vectors.map((vector) => vector.buffer).filter((buffer) => buffer instanceof ArrayBuffer));
          reply({ type: "embedded", taskId: message.taskId, vectors }, [...buffers]);
        } catch (error) {
          reply({ type: "embed_failed", taskId: message.taskId, message: messageOf(error) });
        }
      },
      () => undefined,
    );
  });
}
