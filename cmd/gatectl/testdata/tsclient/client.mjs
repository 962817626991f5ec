// A downstream MCP client for gatectl's tests (cmd/gatectl/mcp_test.go):
// the official TypeScript SDK's Client, launching `gatectl mcp -m MANIFEST`
// over stdio with the SDK's StdioClientTransport.
//
//   node client.mjs GATECTL MANIFEST
//
// It speaks to the Go test in JSON lines. On standard output, one event a
// line:
//
//   {"event":"tools","names":[...]}    after connecting, and for each "list"
//   {"event":"changed","names":[...]}  for each notifications/tools/list_changed
//                                      (the list, re-read after it)
//   {"event":"result","text":"...","isError":false}  for each "call"
//   {"event":"error","message":"..."}  a request that failed
//   {"event":"closed"}                 the session is closed, gatectl gone
//   {"event":"subscribed","text":URI}  for each "subscribe" answered
//   {"event":"updated","text":URI}     for each notifications/resources/updated
//   {"event":"read","text":"..."}      for each "read": the first content's text
//   {"event":"roots"}                  for each "roots", once announced
//   {"event":"level"}                  for each "level" answered
//   {"event":"log","names":[LEVEL,LOGGER],"text":DATA}  for each
//                                      notifications/message (DATA in JSON)
//
// On standard input, one command a line:
//
//   {"op":"list"}
//   {"op":"call","name":"w_echo","arguments":{"text":"hi"}}
//   {"op":"subscribe","uri":"gate://skills/prompt"}
//   {"op":"read","uri":"gate://skills/notes/SKILL.md"}
//   {"op":"roots","roots":[{"uri":"file:///tmp/w","name":"w"}]}  (then roots/list_changed)
//   {"op":"level","level":"debug"}     (logging/setLevel)
//
// With GATE_TS_ROOTS set (a JSON array of roots like the one above), the
// client declares the roots capability and answers roots/list with them.
//
// The end of standard input closes the session (the SDK ends gatectl's
// stdin, which stops it) and exits 0, so the test controls its life.
// gatectl's stderr goes to this process's stderr; it gets this process's
// environment.

import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const [gatectl, manifest] = process.argv.slice(2);
if (!gatectl || !manifest) {
  process.stderr.write('usage: node client.mjs GATECTL MANIFEST\n');
  process.exit(2);
}

function emit(event) {
  process.stdout.write(JSON.stringify(event) + '\n');
}

async function toolNames(client) {
  const names = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    for (const tool of page.tools) names.push(tool.name);
    cursor = page.nextCursor;
  } while (cursor);
  return names.sort();
}

let roots = process.env.GATE_TS_ROOTS ? JSON.parse(process.env.GATE_TS_ROOTS) : null;
const client = new Client(
  { name: 'gate-ts-test-client', version: '1.0.0' },
  roots ? { capabilities: { roots: { listChanged: true } } } : undefined,
);
if (roots) {
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
}
const transport = new StdioClientTransport({
  command: gatectl,
  args: ['mcp', '-m', manifest],
  env: { ...process.env },
  stderr: 'inherit',
});

let closing = false;
transport.onclose = () => {
  if (!closing) {
    emit({ event: 'error', message: 'gatectl closed the session' });
    process.exit(1);
  }
};

// Everything the client does runs on one chain, in order: the first
// listing, the listing after each list_changed, each command. So the
// events come out in the order of the requests, and each list is as new
// as the one before it or newer.
let chain = client
  .connect(transport)
  .then(async () => emit({ event: 'tools', names: await toolNames(client) }))
  .catch((err) => {
    emit({ event: 'error', message: `connect: ${err?.message ?? err}` });
    process.exit(1);
  });
function serially(fn) {
  chain = chain.then(fn);
  return chain;
}

client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
  serially(async () => {
    try {
      emit({ event: 'changed', names: await toolNames(client) });
    } catch (err) {
      emit({ event: 'error', message: `tools/list after list_changed: ${err?.message ?? err}` });
    }
  });
});

client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
  emit({ event: 'log', names: [n.params.level, n.params.logger ?? ''], text: JSON.stringify(n.params.data) });
});

client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  emit({ event: 'updated', text: n.params.uri });
});

async function handle(line) {
  if (line.trim() === '') return;
  let cmd;
  try {
    cmd = JSON.parse(line);
  } catch (err) {
    emit({ event: 'error', message: `bad command ${JSON.stringify(line)}: ${err.message}` });
    return;
  }
  try {
    if (cmd.op === 'list') {
      emit({ event: 'tools', names: await toolNames(client) });
    } else if (cmd.op === 'call') {
      const res = await client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} });
      const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
      emit({ event: 'result', text, isError: Boolean(res.isError) });
    } else if (cmd.op === 'subscribe') {
      await client.subscribeResource({ uri: cmd.uri });
      emit({ event: 'subscribed', text: cmd.uri });
    } else if (cmd.op === 'read') {
      const res = await client.readResource({ uri: cmd.uri });
      emit({ event: 'read', text: res.contents[0]?.text ?? '' });
    } else if (cmd.op === 'roots') {
      roots = cmd.roots;
      await client.sendRootsListChanged();
      emit({ event: 'roots' });
    } else if (cmd.op === 'level') {
      await client.setLoggingLevel(cmd.level);
      emit({ event: 'level' });
    } else {
      emit({ event: 'error', message: `unknown op ${JSON.stringify(cmd.op)}` });
    }
  } catch (err) {
    emit({ event: 'error', message: `${cmd.op}: ${err?.message ?? err}` });
  }
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => serially(() => handle(line)));
rl.on('close', () =>
  serially(async () => {
    closing = true;
    await client.close();
    emit({ event: 'closed' });
    process.exit(0);
  }),
);
