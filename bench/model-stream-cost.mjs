#!/usr/bin/env node
// Model stream cost: `npm run build && node bench/model-stream-cost.mjs`.
//
// The CPU one answer from a chat model costs the thread that reads it (the service's model worker
// thread): BENCH_ANSWERS answers of BENCH_PIECES chunks each, BENCH_CONCURRENCY at once, from the
// stand-in OpenAI-compatible server of bench/answers (in a child process, so its CPU is not
// counted), read (a) by the service's own model generator (`createModelAnswerGenerator`, which reads
// the provider's `doStream`) and (b) through the AI SDK's `streamText` and its `fullStream`, as the
// generator did before. Alternated, BENCH_REPEAT times each. Prints CPU ms per answer and answers/s.
//
// Environment (all optional):
//   BENCH_ANSWERS=2000   BENCH_PIECES=40   BENCH_CONCURRENCY=100   BENCH_REPEAT=2
//   BENCH_FRONTDESK_ROOT=<checkout>  the build to measure (default: this repository)
import { fork } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const root = process.env.BENCH_FRONTDESK_ROOT ?? dirname(benchDirectory);
const answers = Number(process.env.BENCH_ANSWERS ?? 2000);
const pieces = Number(process.env.BENCH_PIECES ?? 40);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 100);
const repeats = Number(process.env.BENCH_REPEAT ?? 2);

if (process.argv[2] === "model-server") {
  const { startModelServer } = await import("./answers-model-server.mjs");
  // A piece every 2 ms: the answers overlap, as in the burst, without the run taking minutes.
  const server = await startModelServer({ pieceIntervalMs: 2, pieces });
  process.send?.(server.baseUrl);
} else {
  const child = fork(fileURLToPath(import.meta.url), ["model-server"]);
  const baseUrl = await new Promise((resolve) => child.once("message", resolve));
  const serverModule = (path) => import(pathToFileURL(join(root, "packages/server/dist", path)).href);
  const { createModelAnswerGenerator } = await serverModule("answering/generate/create-answer-generator.js");
  const { buildPrompt } = await serverModule("answering/generate/build-prompt.js");
  // The SDK as the service's package resolves it.
  const { createRequire } = await import("node:module");
  const requireFromServer = createRequire(join(root, "packages/server/package.json"));
  const { streamText } = await import(pathToFileURL(requireFromServer.resolve("ai")).href);
  const { createOpenAICompatible } = await import(pathToFileURL(requireFromServer.resolve("@ai-sdk/openai-compatible")).href);

  const settings = { provider: "openai", modelId: "bench", baseUrl, timeoutMs: 20_000 };
  const generator = createModelAnswerGenerator(settings);
  const model = createOpenAICompatible({ name: "openai-compatible", baseURL: baseUrl }).chatModel("bench");
  let asked = 0;
  const request = () => ({
    question: `How do I return an order? (${asked++})`,
    passages: [{ number: 1, documentId: 1, title: "Returns", heading: null, url: "https://shop.example/returns", content: "Returns are free within 30 days." }],
    lowConfidence: false,
    history: [],
    persona: { name: "Assistant", tone: "friendly" },
    language: "en",
    signal: new AbortController().signal,
  });

  const ways = {
    async "service generator (doStream)"() {
      let text = "";
      for await (const event of generator.generate(request())) if (event.type === "token") text += event.token;
      return text;
    },
    async "streamText (fullStream)"() {
      const { system, messages } = buildPrompt(request());
      const result = streamText({ model, system, messages, maxRetries: 0, onError: () => {} });
      let text = "";
      for await (const part of result.fullStream) if (part.type === "text-delta") text += part.text;
      return text;
    },
  };

  async function run(answer, count) {
    let started = 0;
    let characters = 0;
    const caller = async () => {
      while (started++ < count) characters += (await answer()).length;
    };
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    await Promise.all(Array.from({ length: concurrency }, caller));
    const cpu = process.cpuUsage(cpuBefore);
    const seconds = (performance.now() - wallBefore) / 1000;
    return { cpuMsPerAnswer: (cpu.user + cpu.system) / 1000 / count, answersPerSecond: count / seconds, characters };
  }

  const results = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const [name, answer] of Object.entries(ways)) {
      await run(answer, Math.min(300, answers)); // warm-up
      const result = await run(answer, answers);
      if (result.characters === 0) throw new Error(`${name}: the answers were empty`);
      results[name].push(result);
      console.log(`[model-stream-cost] ${name}: ${result.cpuMsPerAnswer.toFixed(2)} ms CPU per answer, ${result.answersPerSecond.toFixed(0)} answers/s`);
    }
  }
  child.kill();
  console.log(`\n${answers} answers of ${pieces} chunks, ${concurrency} at once, ${repeats} runs each (alternated)\n`);
  console.log("| read by | CPU per answer (ms) | answers/s |");
  console.log("|---|---|---|");
  for (const [name, runs] of Object.entries(results)) {
    const list = (of) => runs.map((result) => of(result)).join(", ");
    console.log(`| ${name} | ${list((result) => result.cpuMsPerAnswer.toFixed(2))} | ${list((result) => result.answersPerSecond.toFixed(0))} |`);
  }
}
