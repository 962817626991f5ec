// A downstream MCP client that answers a server's requests for input, for
// the gateway's relay tests (internal/mcpgw/relay_ts_test.go): the
// official TypeScript SDK's Client over its StreamableHTTPClientTransport,
// declaring elicitation (form and url) and sampling.
//
//   node relay_client.mjs URL [--nostream] TOOL...
//
// With --nostream the client never has a standalone GET stream (its GET is
// answered 405 without reaching the server), so every request the server
// sends it must come on the stream of the POST it is for.
//
// It calls each TOOL in turn, with no arguments, and prints one line of
// JSON for each: {"tool":"...","text":"...","isError":false} or
// {"tool":"...","error":"..."}; then {"asked":[...]}, the methods (and a
// url-mode elicitation's URL) it was asked, in order.
//
// Its answers: a form elicitation {"ok":true}, accepted; a url-mode one,
// accepted; sampling, the text "sampled by ts" from model "ts-model".

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, ...rest] = process.argv.slice(2);
const noStream = rest[0] === '--nostream';
const tools = noStream ? rest.slice(1) : rest;
if (!url) {
  process.stderr.write('usage: node relay_client.mjs URL TOOL...\n');
  process.exit(2);
}

function emit(event) {
  process.stdout.write(JSON.stringify(event) + '\n');
}

const asked = [];
const client = new Client(
  { name: 'gate-ts-relay-client', version: '1.0.0' },
  { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } },
);
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  if (req.params.mode === 'url') {
    asked.push('elicitation/create url ' + req.params.url);
    return { action: 'accept' };
  }
  asked.push('elicitation/create form');
  return { action: 'accept', content: { ok: true } };
});
client.setRequestHandler(CreateMessageRequestSchema, async () => {
  asked.push('sampling/createMessage');
  return { model: 'ts-model', role: 'assistant', content: { type: 'text', text: 'sampled by ts' } };
});

const fetchNoGET = async (input, init) =>
  (init?.method ?? 'GET') === 'GET' ? new Response(null, { status: 405, statusText: 'Method Not Allowed' }) : fetch(input, init);
await client.connect(new StreamableHTTPClientTransport(new URL(url), noStream ? { fetch: fetchNoGET } : {}));
for (const name of tools) {
  try {
    const res = await client.callTool({ name, arguments: {} }, undefined, { timeout: 60000 });
    const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    emit({ tool: name, text, isError: Boolean(res.isError) });
  } catch (err) {
    emit({ tool: name, error: `${err?.message ?? err}` });
  }
}
emit({ asked });
await client.close();
process.exit(0);
