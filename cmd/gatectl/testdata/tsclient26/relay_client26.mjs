// A downstream MCP client at protocol 2026-07-28 that answers an
// upstream's requests for input, for the gateway's relay tests
// (internal/mcpgw/relay_ts26_test.go) and gatectl's parked-call tests
// (cmd/gatectl/mcp_ts26_parked_test.go): the TypeScript SDK v2 Client
// (@modelcontextprotocol/client) over streamable HTTP or stdio, pinned to
// 2026-07-28, declaring elicitation (form and url) and sampling. At that version
// a server asks by answering input_required; the SDK fulfils each input
// request through the handlers below and retries the call with the
// answers, round after round, inside callTool.
//
//   node relay_client26.mjs URL TOOL...          streamable HTTP to URL; the
//                                                environment's RELAY_TOKEN, if
//                                                set, as its bearer token
//   node relay_client26.mjs stdio COMMAND [ARG...] -- TOOL...
//                                                stdio to a command it starts
//                                                (gatectl mcp)
//
// A TOOL is a name, called with no arguments, or NAME=JSON, called with
// that object. It calls each TOOL in turn and prints one line of
// JSON for each: {"tool":"...","text":"...","isError":false} or
// {"tool":"...","error":"..."}; then {"asked":[...]}, what it was asked,
// in order: "elicitation/create form FIELD..." (the form's fields, sorted),
// "elicitation/create url URL" or "sampling/createMessage".
//
// Its answers: a form elicitation is accepted with each field that has a
// default given its default, each other plain string field (no format,
// no enum) "Ada via ts26" and each boolean field true, the rest left out
// (so that it holds against a schema such as everything's, whose email,
// uri and date fields have formats); a url-mode one is accepted
// with content it must not carry, {"password":"hunter2"}, which gate is
// to keep from the upstream; sampling is the text "gates open for ts26"
// from model "ts26-model".

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

function usage() {
  process.stderr.write('usage: node relay_client26.mjs URL TOOL... | stdio COMMAND [ARG...] -- TOOL...\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
let transport;
let tools;
if (argv[0] === 'stdio') {
  const end = argv.indexOf('--');
  if (end < 2) usage();
  const [command, ...args] = argv.slice(1, end);
  transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
  tools = argv.slice(end + 1);
} else if (argv[0]) {
  const token = process.env.RELAY_TOKEN;
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  transport = new StreamableHTTPClientTransport(new URL(argv[0]), { requestInit: { headers } });
  tools = argv.slice(1);
} else {
  usage();
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
  const answer = (v) => {
    if (v.default !== undefined) return v.default;
    if (v.type === 'boolean') return true;
    if (v.type === 'string' && !v.format && !v.enum && !v.oneOf) return 'Ada via ts26';
    return undefined;
  };
  const content = Object.fromEntries(fields.map(([k, v]) => [k, answer(v)]).filter(([, v]) => v !== undefined));
  return { action: 'accept', content };
});
client.setRequestHandler('sampling/createMessage', async () => {
  asked.push('sampling/createMessage');
  return { model: 'ts26-model', role: 'assistant', content: { type: 'text', text: 'gates open for ts26' } };
});

await client.connect(transport);
for (const tool of tools) {
  const eq = tool.indexOf('=');
  const name = eq < 0 ? tool : tool.slice(0, eq);
  try {
    const args = eq < 0 ? {} : JSON.parse(tool.slice(eq + 1));
    const res = await client.callTool({ name, arguments: args }, { timeout: 60000 });
    const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    emit({ tool: name, text, isError: Boolean(res.isError) });
  } catch (err) {
    emit({ tool: name, error: `${err?.message ?? err}` });
  }
}
emit({ asked });
await client.close();
process.exit(0);
