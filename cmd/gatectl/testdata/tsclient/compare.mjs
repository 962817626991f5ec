// One session of the official TypeScript SDK's client with an MCP server,
// made step by step the same way whatever it speaks to, so that a Go test
// (cmd/gatectl/transparency_test.go) can compare a session with the
// server directly and one through gatectl mcp, message by message.
//
//   node compare.mjs ROOT COMMAND [ARG...]
//
// COMMAND is the server itself, or gatectl mcp -m MANIFEST fronting it.
// The client declares roots (ROOT, a directory, as its one root) and
// answers roots/list with it; it declares elicitation (form and url) and
// sampling, as gate does to every upstream, and answers them: a form
// {"name":"Ann Example"}, a url accepted, sampling a fixed text. On standard output, one line a step:
//
//   {"step":"tools","result":...}   the result of each request, as it came
//   {"step":"...","error":"..."}    a request that failed
//
// The steps list the tools, resources, resource templates and prompts
// (every page), read each resource and one of each template, get each
// prompt, ask for completions, have the server report the client's roots
// through its get-roots-list tool, turn its simulated logging on at level
// debug and report the first message, subscribe to a resource and report
// the first update of it, and have it elicit (form and url) and sample. The server is the reference server everything
// (testdata/tsservers), whose tools drive the logging and updates.

import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const [root, command, ...args] = process.argv.slice(2);
if (!root || !command) {
  process.stderr.write('usage: node compare.mjs ROOT COMMAND [ARG...]\n');
  process.exit(2);
}
const wait = 15000;

// steady replaces the clock times the server writes into the dynamic
// resources it makes (in text, and in base64 blobs), which differ between
// two sessions made a second apart.
const clock = /\b\d{1,2}:\d{2}:\d{2}\s?[AP]M\b/g;
function steady(v) {
  if (Array.isArray(v)) return v.map(steady);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = k === 'blob' && typeof x === 'string'
        ? Buffer.from(Buffer.from(x, 'base64').toString('utf8').replace(clock, 'TIME')).toString('base64')
        : steady(x);
    }
    return out;
  }
  return typeof v === 'string' ? v.replace(clock, 'TIME') : v;
}

// plain leaves out what two SDKs write differently for the same meaning:
// a field at its default (the Go SDK's server writes a result's ttlMs 0
// and cacheScope "public", which mean what their absence means; it leaves
// out hasMore and required when false, which the TypeScript one writes).
function plain(v) {
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'ttlMs' && x === 0) || (k === 'cacheScope' && x === 'public') || ((k === 'hasMore' || k === 'required') && x === false)) continue;
      out[k] = plain(x);
    }
    return out;
  }
  return v;
}

function emit(step, result, error) {
  process.stdout.write(JSON.stringify(error === undefined ? { step, result: plain(steady(result)) } : { step, error }) + '\n');
}

async function step(name, fn) {
  try {
    emit(name, await fn());
  } catch (e) {
    emit(name, undefined, String(e && e.message ? e.message : e));
  }
}

// first resolves with the first notification that fits, or rejects after
// the wait.
function first(list, fits) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no notification within ' + wait + ' ms')), wait);
    list.push((n) => {
      if (!fits(n)) return false;
      clearTimeout(timer);
      resolve(n);
      return true;
    });
  });
}

const logWaiters = [];
const updateWaiters = [];
function deliver(waiters, n) {
  for (let i = 0; i < waiters.length; i++) {
    if (waiters[i](n)) {
      waiters.splice(i, 1);
      return;
    }
  }
}

const client = new Client(
  { name: 'gate-compare', version: '1.0.0' },
  { capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} }, sampling: {} } },
);
client.setRequestHandler(ElicitRequestSchema, async (req) =>
  req.params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { name: 'Ann Example' } });
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  model: 'compare-model',
  role: 'assistant',
  content: { type: 'text', text: 'sampled by the client' },
}));
client.setRequestHandler(ListRootsRequestSchema, async () => ({
  roots: [{ uri: pathToFileURL(root).href, name: 'the test root' }],
}));
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => deliver(logWaiters, n.params));
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => deliver(updateWaiters, n.params));

const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
await client.connect(transport);

// all lists every page, sorted by by: gate lists each kind sorted (so
// that a list equal to an earlier one is the same bytes, for a model
// provider's prompt cache), a server in its own order.
async function all(list, key, by) {
  const out = [];
  let cursor;
  do {
    const page = await list(cursor ? { cursor } : undefined);
    out.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor);
  return out.sort((a, b) => (a[by] < b[by] ? -1 : a[by] > b[by] ? 1 : 0));
}

const tools = await all((p) => client.listTools(p), 'tools', 'name');
emit('tools', tools.map((t) => ({ name: t.name, title: t.title, description: t.description })));
let resources = [];
await step('resources', async () => (resources = await all((p) => client.listResources(p), 'resources', 'uri')));
let templates = [];
await step('templates', async () => (templates = await all((p) => client.listResourceTemplates(p), 'resourceTemplates', 'uriTemplate')));
let prompts = [];
await step('prompts', async () => (prompts = await all((p) => client.listPrompts(p), 'prompts', 'name')));

for (const r of resources) {
  await step('read ' + r.uri, () => client.readResource({ uri: r.uri }));
}
for (const t of templates) {
  const uri = t.uriTemplate.replace(/\{[^}]*\}/g, '1');
  await step('read ' + uri, () => client.readResource({ uri }));
}
await step('read demo://nowhere', () => client.readResource({ uri: 'demo://nowhere' }));

const values = { city: 'Paris', state: 'TX', department: 'Engineering', name: 'Alice', resourceType: 'Text', resourceId: '1' };
for (const p of prompts) {
  const a = {};
  for (const arg of p.arguments || []) a[arg.name] = values[arg.name] || 'x';
  await step('prompt ' + p.name, () => client.getPrompt({ name: p.name, arguments: a }));
}
await step('complete prompt', () =>
  client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } }));
await step('complete prompt in context', () =>
  client.complete({
    ref: { type: 'ref/prompt', name: 'completable-prompt' },
    argument: { name: 'name', value: '' },
    context: { arguments: { department: 'Engineering' } },
  }));
for (const t of templates) {
  await step('complete ' + t.uriTemplate, () =>
    client.complete({ ref: { type: 'ref/resource', uri: t.uriTemplate }, argument: { name: 'resourceId', value: '1' } }));
}

await step('roots', () => client.callTool({ name: 'get-roots-list', arguments: {} }));
await step('elicit', () => client.callTool({ name: 'trigger-elicitation-request', arguments: {} }));
await step('elicit url', () =>
  client.callTool({ name: 'trigger-url-elicitation', arguments: { url: 'https://auth.invalid/authorize', message: 'sign in', elicitationId: 'e1' } }));
await step('sample', () => client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } }));

await step('logging', async () => {
  await client.setLoggingLevel('debug');
  const message = first(logWaiters, () => true);
  await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
  const m = await message;
  await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
  // The level is drawn at random; what must come through is a message of
  // the server's, whole.
  return { levelIsOne: ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(m.level), data: String(m.data).replace(/^[A-Za-z]+[- ]level[- ]message/i, 'LEVEL message') };
});

if (resources.length > 0) {
  const uri = resources[0].uri;
  await step('subscribe', async () => {
    await client.subscribeResource({ uri });
    const update = first(updateWaiters, (n) => n.uri === uri);
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    const u = await update;
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await client.unsubscribeResource({ uri });
    return u;
  });
}

await client.close();
