// A downstream MCP client at protocol 2026-07-28 for gatectl's tests
// (cmd/gatectl/mcp_ts26_test.go): the TypeScript SDK v2 Client
// (@modelcontextprotocol/client), pinned to 2026-07-28 so that connecting
// fails unless gate's server/discover offers that version.
//
//   node client26.mjs http URL [TOKEN]     streamable HTTP to URL (serve's /mcp)
//   node client26.mjs stdio COMMAND [ARG...]  stdio to a command it starts
//                                            (gatectl mcp), with this
//                                            process's environment
//
// It speaks to the Go test in JSON lines, as ../tsclient/client.mjs does.
// On standard output, one event a line:
//
//   {"event":"connected","version":"2026-07-28","era":"..."}
//                                      the version the client negotiated
//   {"event":"tools","names":[...]}    for each "list" (names sorted)
//   {"event":"result","text":"...","isError":false}   for each "call"
//   {"event":"listening","honored":{...}}  the listen was acknowledged
//   {"event":"changed"}                a notifications/tools/list_changed
//   {"event":"error","message":"..."}  a request that failed
//   {"event":"closed"}
//
// On standard input, one command a line, run one after another:
//
//   {"op":"list"}
//   {"op":"call","name":"steps","arguments":{"steps":2}}
//   {"op":"listen"}                    subscriptions/listen for tool list changes
//
// The end of standard input closes the listen and the client and exits 0.

import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const version = '2026-07-28';
const [mode, ...rest] = process.argv.slice(2);

function emit(event) {
  process.stdout.write(JSON.stringify(event) + '\n');
}

function transportFor() {
  if (mode === 'http' && rest.length >= 1) {
    const [url, token] = rest;
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  }
  if (mode === 'stdio' && rest.length >= 1) {
    const [command, ...args] = rest;
    return new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
  }
  process.stderr.write('usage: node client26.mjs http URL [TOKEN] | stdio COMMAND [ARG...]\n');
  process.exit(2);
}

const transport = transportFor();
const client = new Client(
  { name: 'gate-ts26-test-client', version: '1.0.0' },
  { versionNegotiation: { mode: { pin: version } } },
);
client.setNotificationHandler('notifications/tools/list_changed', () => emit({ event: 'changed' }));

let subscription;

let chain = client
  .connect(transport)
  .then(() => {
    emit({ event: 'connected', version: client.getNegotiatedProtocolVersion(), era: client.getProtocolEra() });
  })
  .catch((err) => {
    emit({ event: 'error', message: `connect: ${err?.message ?? err}` });
    process.exit(1);
  });
function serially(fn) {
  chain = chain.then(fn);
  return chain;
}

async function run(cmd) {
  switch (cmd.op) {
    case 'list': {
      const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' });
      emit({ event: 'tools', names: tools.map((t) => t.name).sort() });
      return;
    }
    case 'call': {
      const res = await client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} });
      const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
      emit({ event: 'result', text, isError: Boolean(res.isError) });
      return;
    }
    case 'listen': {
      subscription = await client.listen({ toolsListChanged: true });
      emit({ event: 'listening', honored: subscription.honoredFilter });
      return;
    }
    default:
      emit({ event: 'error', message: `unknown op ${JSON.stringify(cmd.op)}` });
  }
}

async function handle(line) {
  if (line.trim() === '') return;
  try {
    await run(JSON.parse(line));
  } catch (err) {
    emit({ event: 'error', message: `${err?.message ?? err}` });
  }
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => serially(() => handle(line)));
rl.on('close', () =>
  serially(async () => {
    await subscription?.close();
    await client.close();
    emit({ event: 'closed' });
    process.exit(0);
  }),
);
