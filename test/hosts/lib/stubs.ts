// Scripted loopback model servers, so a real host can be driven through tool calls offline:
//
//   startAnthropicStub   Anthropic Messages API (Claude Code): POST /v1/messages (SSE or JSON)
//   startChatStub        OpenAI Chat Completions (OpenCode via @ai-sdk/openai-compatible)
//   startResponsesStub   OpenAI Responses API (Codex, wire_api = "responses")
//
// They run in the test process (the hosts are spawned asynchronously, so the event loop serves
// them), bind 127.0.0.1 on a free port chosen by the OS, log every request, and stop on close().
//
// A script is a list of conversations. Each model request is matched to the first conversation
// whose `when` matches (typically a marker string that only that agent's system prompt holds);
// the step within it is the number of tool results already present in the request, never a
// request counter, so retries and side requests do not knock the script out of step. After the
// last step the conversation answers with `final` text. Requests that offer no tools (title
// generation and other side requests) get a short text answer.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Step =
  /** namespace: Responses API only, for tools offered inside a namespace (e.g. Codex multi_agent_v1) */
  | { tool: string; input: Record<string, unknown>; namespace?: string; delayMs?: number }
  | { text: string; delayMs?: number };

export interface Conversation {
  /** label used in the log */
  name: string;
  /** matches this conversation: a string is looked for in the system prompt / instructions */
  when?: string | ((req: ModelRequest) => boolean);
  /** a function step is resolved per request (e.g. to pick the tool name the host offers) */
  steps: (Step | ((req: ModelRequest) => Step))[];
  /** text answered after the last step (default `<name>-DONE`) */
  final?: string;
}

export interface ModelRequest {
  url: string;
  /** system prompt / instructions / developer messages, as text */
  system: string;
  /** tool names offered */
  tools: string[];
  /** tool results already in the conversation */
  toolResults: number;
  body: Record<string, unknown>;
}

export interface LoggedRequest {
  url: string;
  method: string;
  conversation: string | null;
  step: number;
  reply: Step | null;
  request: ModelRequest | null;
}

export interface Stub {
  port: number;
  /** base URL without /v1 (Anthropic) or with /v1 (OpenAI stubs) — what the host's base-URL setting wants */
  baseUrl: string;
  log: LoggedRequest[];
  /** tool-result texts the host sent back, in order (what the host answered to each scripted call) */
  toolResultTexts(): string[];
  close(): Promise<void>;
}

/** Pick the conversation and step for a request. */
function decide(script: Conversation[], req: ModelRequest): { conv: Conversation | null; step: Step; index: number } {
  if (req.tools.length === 0) return { conv: null, step: { text: "ok" }, index: -1 };
  const conv =
    script.find((c) => (c.when === undefined ? false : typeof c.when === "string" ? req.system.includes(c.when) : c.when(req))) ??
    script.find((c) => c.when === undefined) ??
    null;
  if (!conv) return { conv: null, step: { text: "NO-SCRIPT" }, index: -1 };
  const i = req.toolResults;
  const s = conv.steps[i];
  return { conv, step: (typeof s === "function" ? s(req) : s) ?? { text: conv.final ?? `${conv.name}-DONE` }, index: i };
}

interface Adapter {
  /** false = not a model call; answer `other` */
  isModelCall(method: string, url: string): boolean;
  parse(url: string, body: Record<string, unknown>): ModelRequest;
  reply(res: http.ServerResponse, body: Record<string, unknown>, step: Step, seq: number): void;
  other(url: string): unknown;
  resultTexts(body: Record<string, unknown>): string[];
}

async function startStub(adapter: Adapter, script: Conversation[], withV1: boolean): Promise<Stub> {
  const log: LoggedRequest[] = [];
  let seq = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (raw += c));
    req.on("end", () => {
      seq++;
      const url = req.url ?? "";
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        /* not JSON */
      }
      try {
        if (!adapter.isModelCall(req.method ?? "GET", url)) {
          log.push({ url, method: req.method ?? "", conversation: null, step: -1, reply: null, request: null });
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(adapter.other(url)));
          return;
        }
        const mr = adapter.parse(url, body);
        const d = decide(script, mr);
        log.push({ url, method: req.method ?? "", conversation: d.conv?.name ?? null, step: d.index, reply: d.step, request: mr });
        // delayMs: answer late (a model still thinking), e.g. so a test can interrupt the host mid-call
        if (d.step.delayMs) setTimeout(() => res.destroyed || adapter.reply(res, body, d.step, seq), d.step.delayMs).unref();
        else adapter.reply(res, body, d.step, seq);
      } catch (e) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "stub_error", message: (e as Error).message } }));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}${withV1 ? "/v1" : ""}`,
    log,
    toolResultTexts() {
      // every model request carries the whole conversation; collect from all of them, de-duplicated
      const seen = new Set<string>();
      const out: string[] = [];
      for (const l of log) {
        if (!l.request) continue;
        for (const t of adapter.resultTexts(l.request.body)) if (!seen.has(t)) (seen.add(t), out.push(t));
      }
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const textOf = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v ?? ""));

// ---------------------------------------------------------------- Anthropic Messages (Claude Code)

export function startAnthropicStub(script: Conversation[]): Promise<Stub> {
  let ids = 0;
  const adapter: Adapter = {
    isModelCall: (method, url) => method === "POST" && /^\/v1\/messages(\?|$)/.test(url),
    parse(url, b) {
      const messages = asArray(b.messages) as { content?: unknown }[];
      const toolResults = messages.flatMap((m) => asArray(m.content) as { type?: string }[]).filter((c) => c.type === "tool_result").length;
      return { url, system: textOf(b.system), tools: (asArray(b.tools) as { name?: string }[]).map((t) => t.name ?? ""), toolResults, body: b };
    },
    reply(res, b, step, seq) {
      const model = typeof b.model === "string" ? b.model : "stub";
      const content =
        "tool" in step
          ? [{ type: "tool_use", id: `toolu_stub_${String(++ids).padStart(4, "0")}`, name: step.tool, input: step.input }]
          : [{ type: "text", text: step.text }];
      const stop = "tool" in step ? "tool_use" : "end_turn";
      if (!b.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: `msg_${seq}`, type: "message", role: "assistant", model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const ev = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev("message_start", {
        message: { id: `msg_${seq}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
      });
      content.forEach((c, index) => {
        if (c.type === "text") {
          ev("content_block_start", { index, content_block: { type: "text", text: "" } });
          ev("content_block_delta", { index, delta: { type: "text_delta", text: (c as { text: string }).text } });
        } else {
          const t = c as { id: string; name: string; input: unknown };
          ev("content_block_start", { index, content_block: { type: "tool_use", id: t.id, name: t.name, input: {} } });
          ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(t.input) } });
        }
        ev("content_block_stop", { index });
      });
      ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
      ev("message_stop", {});
      res.end();
    },
    other(url) {
      if (url.startsWith("/v1/messages/count_tokens")) return { input_tokens: 100 };
      if (url.startsWith("/v1/models")) return { data: [{ type: "model", id: "claude-sonnet-4-5", display_name: "stub" }], has_more: false };
      return {};
    },
    resultTexts(b) {
      const out: string[] = [];
      for (const m of asArray(b.messages) as { content?: unknown }[])
        for (const c of asArray(m.content) as { type?: string; content?: unknown }[])
          if (c.type === "tool_result") out.push(textOf(c.content));
      return out;
    },
  };
  return startStub(adapter, script, false);
}

// ---------------------------------------------------------------- OpenAI Chat Completions (OpenCode)

export function startChatStub(script: Conversation[]): Promise<Stub> {
  const adapter: Adapter = {
    isModelCall: (method, url) => method === "POST" && url.includes("/chat/completions"),
    parse(url, b) {
      const messages = asArray(b.messages) as { role?: string; content?: unknown }[];
      return {
        url,
        system: messages.filter((m) => m.role === "system").map((m) => textOf(m.content)).join("\n"),
        tools: (asArray(b.tools) as { function?: { name?: string } }[]).map((t) => t.function?.name ?? ""),
        toolResults: messages.filter((m) => m.role === "tool").length,
        body: b,
      };
    },
    reply(res, b, step, seq) {
      const model = typeof b.model === "string" ? b.model : "stub";
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      const finish = "tool" in step ? "tool_calls" : "stop";
      const call = "tool" in step ? { id: `call_${seq}`, type: "function", function: { name: step.tool, arguments: JSON.stringify(step.input) } } : null;
      const message = call ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: (step as { text: string }).text };
      if (!b.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: `chatcmpl-${seq}`, object: "chat.completion", created: 0, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (delta: unknown, finishReason: string | null, withUsage = false) =>
        res.write(
          `data: ${JSON.stringify({ id: `chatcmpl-${seq}`, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...(withUsage ? { usage } : {}) })}\n\n`,
        );
      if (call) chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, ...call }] }, null);
      else chunk({ role: "assistant", content: (step as { text: string }).text }, null);
      chunk({}, finish, true);
      res.write("data: [DONE]\n\n");
      res.end();
    },
    other(url) {
      return url.includes("/models") ? { object: "list", data: [{ id: "stub", object: "model" }] } : {};
    },
    resultTexts(b) {
      return (asArray(b.messages) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool").map((m) => textOf(m.content));
    },
  };
  return startStub(adapter, script, true);
}

// ---------------------------------------------------------------- OpenAI Responses (Codex)

export function startResponsesStub(script: Conversation[]): Promise<Stub> {
  const flatTools = (ts: unknown[]): { name?: string; type?: string; tools?: unknown[] }[] =>
    (ts as { name?: string; type?: string; tools?: unknown[] }[]).flatMap((t) => (t.type === "namespace" ? flatTools(t.tools ?? []) : [t]));
  const adapter: Adapter = {
    isModelCall: (method, url) => method === "POST" && /\/responses(\?|$)/.test(url),
    parse(url, b) {
      const input = asArray(b.input) as { type?: string; role?: string; content?: unknown }[];
      const dev = input.filter((i) => i.role === "developer" || i.role === "system").map((i) => textOf(i.content));
      return {
        url,
        system: [textOf(b.instructions), ...dev].join("\n"),
        tools: flatTools(asArray(b.tools)).map((t) => t.name ?? t.type ?? ""),
        toolResults: input.filter((i) => /_output$/.test(i.type ?? "")).length,
        body: b,
      };
    },
    reply(res, b, step, seq) {
      let item: Record<string, unknown>;
      if ("tool" in step) {
        const def = flatTools(asArray(b.tools)).find((t) => t.name === step.tool);
        if (def && def.type === "custom" && typeof step.input.input === "string")
          item = { type: "custom_tool_call", id: `ctc_${seq}`, call_id: `call_${seq}`, name: step.tool, input: step.input.input };
        else
          item = {
            type: "function_call",
            id: `fc_${seq}`,
            call_id: `call_${seq}`,
            name: step.tool,
            ...(step.namespace ? { namespace: step.namespace } : {}),
            arguments: JSON.stringify(step.input),
          };
      } else item = { type: "message", id: `msg_${seq}`, role: "assistant", content: [{ type: "output_text", text: step.text, annotations: [] }] };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const ev = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      const resp = { id: `resp_${seq}`, object: "response", status: "in_progress", model: typeof b.model === "string" ? b.model : "stub", output: [] as unknown[] };
      ev("response.created", { response: resp });
      ev("response.output_item.added", { output_index: 0, item });
      ev("response.output_item.done", { output_index: 0, item });
      ev("response.completed", {
        response: {
          ...resp,
          status: "completed",
          output: [item],
          usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
        },
      });
      res.end();
    },
    other(url) {
      return url.includes("/models") ? { models: [] } : {};
    },
    resultTexts(b) {
      return (asArray(b.input) as { type?: string; output?: unknown }[]).filter((i) => /_output$/.test(i.type ?? "")).map((i) => textOf(i.output));
    },
  };
  return startStub(adapter, script, true);
}

// ---------------------------------------------------------------- Gemini API (Gemini CLI via GOOGLE_GEMINI_BASE_URL)

/**
 * POST /v1beta/models/<model>:streamGenerateContent (SSE) or :generateContent (JSON); :countTokens is
 * answered with a count. Side requests that ask for JSON (the model router's classifier, next-speaker
 * checks) offer no tools and get a fixed JSON object, so they never consume a scripted step.
 */
export function startGeminiStub(script: Conversation[]): Promise<Stub> {
  type Part = { text?: string; functionCall?: unknown; functionResponse?: { response?: unknown } };
  const parts = (b: Record<string, unknown>): Part[] => (asArray(b.contents) as { parts?: unknown }[]).flatMap((c) => asArray(c.parts) as Part[]);
  const wantsJson = (b: Record<string, unknown>) => /responseMimeType|responseJsonSchema|responseSchema/.test(JSON.stringify(b.generationConfig ?? {}));
  const adapter: Adapter = {
    isModelCall: (method, url) => method === "POST" && /:(stream)?generateContent/i.test(url),
    parse(url, b) {
      const sys = b.systemInstruction as { parts?: unknown } | undefined;
      return {
        url,
        system: (asArray(sys?.parts) as Part[]).map((p) => p.text ?? "").join("\n"),
        tools: wantsJson(b) ? [] : (asArray(b.tools) as { functionDeclarations?: { name?: string }[] }[]).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name ?? "")),
        toolResults: parts(b).filter((p) => p.functionResponse).length,
        body: b,
      };
    },
    reply(res, b, step, seq) {
      const json = wantsJson(b) && !("tool" in step);
      const text = json ? '{"reasoning":"scripted stub","model_choice":"flash","complexity_reasoning":"stub","complexity_score":1,"next_speaker":"user"}' : "tool" in step ? "" : step.text;
      const part = "tool" in step ? { functionCall: { id: `call_${seq}`, name: step.tool, args: step.input } } : { text };
      const out = {
        candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
        modelVersion: "stub",
      };
      if (/:streamGenerateContent/i.test(res.req.url ?? "")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(out)}\r\n\r\n`);
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(out));
      }
    },
    other(url) {
      return url.includes(":countTokens") ? { totalTokens: 10 } : {};
    },
    resultTexts(b) {
      return parts(b)
        .filter((p) => p.functionResponse)
        .map((p) => textOf(p.functionResponse!.response));
    },
  };
  return startStub(adapter, script, false);
}
