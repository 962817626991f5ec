// A downstream MCP client for gatectl serve's tests
// (cmd/gatectl/serve_mcp_test.go): the official TypeScript SDK's Client
// over its StreamableHTTPClientTransport, against serve's /mcp.
//
//   node http_client.mjs URL TOKEN [nostream]
//
// TOKEN is sent as a bearer token ("" for none). With "nostream" the
// client never has a standalone GET stream: its GET is answered 405
// without reaching the server, as a server that offers none answers, so
// everything the server sends it must come on the streams of its POSTs.
//
// It speaks to the Go test in JSON lines, as client.mjs does. On standard
// output, one event a line:
//
//   {"event":"tools","names":[...]}    after connecting
//   {"event":"result","text":"...","isError":false,"progress":[1,2,...]}
//                                      for each "call": the progress
//                                      values heard during the call
//   {"event":"error","message":"..."}  a request that failed
//   {"event":"closed"}
//
// On standard input, one command a line:
//
//   {"op":"call","name":"steps","arguments":{"steps":10}}
//
// The end of standard input closes the session and exits 0.

import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, token, mode] = process.argv.slice(2);
if (!url) {
  process.stderr.write('usage: node http_client.mjs URL TOKEN [nostream]\n');
  process.exit(2);
}

function emit(event) {
  process.stdout.write(JSON.stringify(event) + '\n');
}

const headers = token ? { Authorization: `Bearer ${token}` } : {};
const noStream = async (input, init) => {
  if ((init?.method ?? 'GET') === 'GET') {
    return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
  }
  return fetch(input, init);
};
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers },
  ...(mode === 'nostream' ? { fetch: noStream } : {}),
});
const client = new Client({ name: 'gate-ts-http-test-client', version: '1.0.0' });

let chain = client
  .connect(transport)
  .then(async () => {
    const { tools } = await client.listTools();
    emit({ event: 'tools', names: tools.map((t) => t.name).sort() });
  })
  .catch((err) => {
    emit({ event: 'error', message: `connect: ${err?.message ?? err}` });
    process.exit(1);
  });
function serially(fn) {
  chain = chain.then(fn);
  return chain;
}

async function handle(line) {
  if (line.trim() === '') return;
  try {
    const cmd = JSON.parse(line);
    if (cmd.op !== 'call') {
      emit({ event: 'error', message: `unknown op ${JSON.stringify(cmd.op)}` });
      return;
    }
    const progress = [];
    const res = await client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 60000,
    });
    const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    emit({ event: 'result', text, isError: Boolean(res.isError), progress });
  } catch (err) {
    emit({ event: 'error', message: `${err?.message ?? err}` });
  }
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => serially(() => handle(line)));
rl.on('close', () =>
  serially(async () => {
    await client.close();
    emit({ event: 'closed' });
    process.exit(0);
  }),
);
