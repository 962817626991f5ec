// An upstream MCP server at protocol 2026-07-28 for gate's relay tests
// (internal/mcpgw/relay_ts26_test.go): the TypeScript SDK v2's McpServer
// (@modelcontextprotocol/server), serving 2026-07-28 alone (a 2025-era
// opening, initialize or a request without the version, is refused) and
// with the SDK's shim for 2025-era requests off: it can ask for input only
// by answering input_required, never with a request of its own.
//
//   node server26.mjs        over stdio (serveStdio)
//   node server26.mjs http   over streamable HTTP (createMcpHandler) on a
//                            loopback port of the system's choosing; its
//                            first line of output is {"url":"http://..."}
//
// Its tool "interview" asks in two rounds:
//
//   1. input_required with an elicitation ("name", a form with a string
//      "name") and a sampling request ("haiku"), requestState "round-1";
//   2. once both are answered, input_required with a second elicitation
//      ("confirm", a form with a boolean "ok"), requestState "round-2:"
//      followed by what round 1 heard;
//   3. once that is answered, the result: one text, the JSON
//      {"name":...,"haiku":...,"model":...,"ok":...,"rounds":3}, what the
//      client's handlers answered, as the server received it.
//
// Its tool "visit" asks a url-mode elicitation (to open
// https://auth.invalid/authorize?state=s1) in one round of
// input_required, and returns {"action":...,"content":...}, the answer it
// received (content null when there was none).
//
// A retry whose requestState or answers it does not expect is answered an
// error result that says what came.

import { createServer } from 'node:http';
import { McpServer, createMcpHandler, inputRequired, acceptedContent, inputResponse } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const nameForm = {
  type: 'object',
  properties: { name: { type: 'string', description: 'your name' } },
  required: ['name'],
};
const okForm = {
  type: 'object',
  properties: { ok: { type: 'boolean', description: 'go ahead?' } },
  required: ['ok'],
};

function text(s, isError = false) {
  return { content: [{ type: 'text', text: s }], isError };
}

function refuse(what, ctx) {
  return text(`${what}: state ${JSON.stringify(ctx.mcpReq.requestState())}, responses ${JSON.stringify(ctx.mcpReq.inputResponses ?? null)}`, true);
}

function newServer() {
  const server = new McpServer({ name: 'gate-ts26-upstream', version: '1.0.0' }, { inputRequired: { legacyShim: false } });
  server.registerTool('interview', { description: 'Asks for a name, a haiku and a go-ahead, in two rounds of input_required.' }, async (ctx) => {
    const state = ctx.mcpReq.requestState();
    if (state === undefined) {
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({ message: 'Who is asking?', requestedSchema: nameForm }),
          haiku: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku about gates.' } }],
            maxTokens: 40,
          }),
        },
        requestState: 'round-1',
      });
    }
    if (state === 'round-1') {
      const who = acceptedContent(ctx.mcpReq.inputResponses, 'name');
      const haiku = inputResponse(ctx.mcpReq.inputResponses, 'haiku');
      if (typeof who?.name !== 'string' || haiku.kind !== 'sampling') return refuse('round 1 was not answered', ctx);
      // One content block, or (sampling with tools' form) a list of them.
      const [said] = [haiku.result.content].flat();
      const heard = { name: who.name, haiku: said?.text, model: haiku.result.model };
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: `Go ahead, ${who.name}?`, requestedSchema: okForm }) },
        requestState: 'round-2:' + JSON.stringify(heard),
      });
    }
    if (typeof state === 'string' && state.startsWith('round-2:')) {
      const confirm = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
      if (typeof confirm?.ok !== 'boolean') return refuse('round 2 was not answered', ctx);
      return text(JSON.stringify({ ...JSON.parse(state.slice('round-2:'.length)), ok: confirm.ok, rounds: 3 }));
    }
    return refuse('a state this server never minted', ctx);
  });

  server.registerTool('visit', { description: 'Asks its client to open a URL, in one round of input_required.' }, async (ctx) => {
    if (ctx.mcpReq.requestState() === undefined) {
      return inputRequired({
        inputRequests: { visit: inputRequired.elicitUrl({ message: 'Sign in', url: 'https://auth.invalid/authorize?state=s1' }) },
        requestState: 'visit',
      });
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'visit');
    if (answer.kind !== 'elicit') return refuse('the visit was not answered', ctx);
    return text(JSON.stringify({ action: answer.action, content: answer.content ?? null }));
  });

  return server;
}

// Over HTTP each request is served on its own (the handler's web-standard
// fetch, which node's http server is bridged to here); over stdio the
// connection's opening picks its era. A 2025-era request or opening is
// refused either way, naming the versions served.
if (process.argv[2] === 'http') {
  const mcp = createMcpHandler(newServer, { legacy: 'reject' });
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(new URL(req.url, `http://${req.headers.host}`), {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => [v].flat().map((one) => [k, one])),
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const response = await mcp.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` }) + '\n');
  });
} else {
  serveStdio(newServer, { legacy: 'reject' });
}
