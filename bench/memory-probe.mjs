// Where a running service's memory goes, read from outside: /proc/<pid>/status and smaps (the kernel's
// account: RSS, peak, WebAssembly memories, mapped files, the rest), and each thread's V8 heap through
// the inspector (the service must run with --inspect=127.0.0.1:<port>; nothing is added to the service).
import { readFileSync } from "node:fs";
import { WebSocket } from "undici";

const GIB = 1024 * 1024 * 1024;
const mib = (kib) => kib / 1024;

export { readProcessStatus as readStatus } from "./bench-service.mjs";

function parseSmaps(pid) {
  const mappings = [];
  for (const block of readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const [header] = block.split("\n");
    const [range, permissions, , , , ...rest] = header.split(/\s+/);
    const [start, end] = range.split("-").map((hex) => Number.parseInt(hex, 16));
    const rssKiB = Number(/\nRss:\s+(\d+) kB/.exec(block)?.[1] ?? 0);
    mappings.push({ start, end, permissions, path: rest.join(" "), rssKiB });
  }
  return mappings;
}

/**
 * RSS by kind of mapping: `wasm` — WebAssembly memories (a read-write anonymous mapping directly
 * followed by V8's guard reservation of 1 GiB or more; PGlite's Postgres heap is the large one),
 * `files` — mapped files (node, shared libraries), `heapBrk` — the brk heap, `otherAnon` — the rest
 * (V8 heaps of every thread, malloc arenas, thread stacks, ArrayBuffers), all in MiB.
 */
export function readSmapsBreakdown(pid) {
  const mappings = parseSmaps(pid);
  let wasmKiB = 0;
  let filesKiB = 0;
  let brkKiB = 0;
  let otherKiB = 0;
  const wasmMemories = [];
  mappings.forEach((mapping, index) => {
    const next = mappings[index + 1];
    const isWasm =
      mapping.permissions === "rw-p" && mapping.path === "" && next?.start === mapping.end && next.permissions === "---p" && next.end - next.start >= GIB;
    if (isWasm) {
      wasmKiB += mapping.rssKiB;
      wasmMemories.push(Math.round(mib(mapping.rssKiB)));
    } else if (mapping.path === "[heap]") brkKiB += mapping.rssKiB;
    else if (mapping.path !== "" && !mapping.path.startsWith("[")) filesKiB += mapping.rssKiB;
    else otherKiB += mapping.rssKiB;
  });
  return { wasmMiB: mib(wasmKiB), wasmMemoriesMiB: wasmMemories, filesMiB: mib(filesKiB), heapBrkMiB: mib(brkKiB), otherAnonMiB: mib(otherKiB) };
}

/** A tiny Chrome DevTools Protocol client over the inspector's WebSocket. */
async function connectInspector(inspectorPort) {
  const [target] = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  const listeners = new Set();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.id !== undefined && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    } else for (const listener of listeners) listener(message);
  });
  return {
    send(method, params = {}) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    on: (listener) => listeners.add(listener),
    close: () => socket.close(),
  };
}

const workerName = (url) => (url ?? "").split("/").at(-1).replace(/\.js$/, "") || "worker";

/**
 * Each thread's V8 heap (used and committed, MiB): the main thread, then every worker thread by its
 * script name (pglite-worker, local-embedding-worker, extract-worker …). Resolves within `timeoutMs`.
 */
export async function readThreadHeaps(inspectorPort, timeoutMs = 5_000) {
  const inspector = await connectInspector(inspectorPort);
  try {
    const heap = (reply) => ({ usedMiB: reply.usedSize / 1024 / 1024, totalMiB: reply.totalSize / 1024 / 1024 });
    const threads = [{ thread: "main", ...heap((await inspector.send("Runtime.getHeapUsage")).result) }];
    const workers = [];
    const replies = new Map();
    inspector.on((message) => {
      if (message.method === "NodeWorker.attachedToWorker") workers.push(message.params);
      if (message.method === "NodeWorker.receivedMessageFromWorker") {
        const inner = JSON.parse(message.params.message);
        if (inner.id === 1) replies.get(message.params.sessionId)?.(inner.result);
      }
    });
    await inspector.send("NodeWorker.enable", { waitForDebuggerOnStart: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const deadline = new Promise((resolve) => setTimeout(() => resolve(null), timeoutMs));
    for (const worker of workers) {
      const answered = new Promise((resolve) => replies.set(worker.sessionId, resolve));
      await inspector.send("NodeWorker.sendMessageToWorker", {
        sessionId: worker.sessionId,
        message: JSON.stringify({ id: 1, method: "Runtime.getHeapUsage" }),
      });
      const result = await Promise.race([answered, deadline]);
      if (result) threads.push({ thread: workerName(worker.workerInfo.url), ...heap(result) });
      await inspector.send("NodeWorker.detach", { sessionId: worker.sessionId });
    }
    await inspector.send("NodeWorker.disable");
    return threads;
  } finally {
    inspector.close();
  }
}

