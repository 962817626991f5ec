// A downstream MCP client at protocol 2026-07-28 that answers an
// upstream's requests for input, for the gateway's relay tests
// (internal/mcpgw/relay_ts26_test.go): the TypeScript SDK v2 Client
// (@modelcontextprotocol/client) over streamable HTTP, pinned to
// 2026-07-28, declaring elicitation (form and url) and sampling. At that version
// a server asks by answering input_required; the SDK fulfils each input
// request through the handlers below and retries the call with the
// answers, round after round, inside callTool.
//
//   node relay_client26.mjs URL TOOL...
//
// It calls each TOOL in turn, with no arguments, and prints one line of
// JSON for each: {"tool":"...","text":"...","isError":false} or
// {"tool":"...","error":"..."}; then {"asked":[...]}, what it was asked,
// in order: "elicitation/create form FIELD..." (the form's fields, sorted),
// "elicitation/create url URL" or "sampling/createMessage".
//
// Its answers: a form elicitation is accepted with each string field
// "Ada via ts26" and each boolean field true; a url-mode one is accepted
// with content it must not carry, {"password":"hunter2"}, which gate is
// to keep from the upstream; sampling is the text "gates open for ts26"
// from model "ts26-model".

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, ...tools] = process.argv.slice(2);
if (!url) {
  process.stderr.write('usage: node relay_client26.mjs URL TOOL...\n');
  process.exit(2);
}

function emit(event) {
  process.stdout.write(JSON.stringify(event) + '\n');
}

const asked = [];
const client = new Client(
  { name: 'gate-ts26-relay-client', version: '1.0.0' },
  {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {} },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  },
);
client.setRequestHandler('elicitation/create', async (req) => {
  if (req.params.mode === 'url') {
    asked.push('elicitation/create url ' + req.params.url);
    return { action: 'accept', content: { password: 'hunter2' } };
  }
  const fields = Object.entries(req.params.requestedSchema?.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  asked.push(['elicitation/create', req.params.mode ?? 'form', ...fields.map(([k]) => k)].join(' '));
  const content = Object.fromEntries(fields.map(([k, v]) => [k, v.type === 'boolean' ? true : 'Ada via ts26']));
  return { action: 'accept', content };
});
client.setRequestHandler('sampling/createMessage', async () => {
  asked.push('sampling/createMessage');
  return { model: 'ts26-model', role: 'assistant', content: { type: 'text', text: 'gates open for ts26' } };
});

await client.connect(new StreamableHTTPClientTransport(new URL(url)));
for (const name of tools) {
  try {
    const res = await client.callTool({ name, arguments: {} }, { timeout: 60000 });
    const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    emit({ tool: name, text, isError: Boolean(res.isError) });
  } catch (err) {
    emit({ tool: name, error: `${err?.message ?? err}` });
  }
}
emit({ asked });
await client.close();
process.exit(0);
