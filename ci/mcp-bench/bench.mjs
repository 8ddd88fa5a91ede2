// ci/mcp-bench/bench.mjs: fastbrowser mcp against Playwright MCP on the same pages, both
// driven through the official TypeScript MCP client (@modelcontextprotocol/sdk) over stdio.
// ci/bench-mcp starts the sites and runs this; see it for the set-up and docs/mcp.md
// "Against Playwright MCP" for what the figures mean.
//
// Environment: SHOP (the fixture server's origin, its shop signed into with SHOP_PASSWORD),
// SWAGGER (the swagger-ui static server's origin), REDOC (the origin serving ci/mcp-bench:
// redoc/index.html and Redoc's bundle), FASTBROWSER (the binary), OUT (a directory
// for the samples and each page's last outline and snapshot), ROUNDS (default 5).
//
// Per page and server: one navigate and one observe/snapshot are timed, each call alone
// (performance.now() around callTool). Between them, untimed, the page is waited for until
// its ready text shows (swagger-ui renders after fetching its document): fastbrowser by
// reading the page, Playwright MCP by browser_wait_for. Inside each round the order of the
// two servers alternates page by page, and between rounds, so a noisy machine hits both alike.
// At the end of each round both sign in to the shop again, by locator, and the three acting
// calls are timed alone (type the username, type the password, click "Log in"; the wait for
// the signed-in page is untimed). A second table gives their medians and, per round, the sum
// of every timed call (OUT/acting.jsonl keeps the samples).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`bench.mjs: ${name} is not set (ci/bench-mcp sets it)`);
  return v;
};
const SHOP = env('SHOP');
const SWAGGER = env('SWAGGER');
const REDOC = env('REDOC');
const FASTBROWSER = env('FASTBROWSER');
const OUT = env('OUT');
env('SHOP_PASSWORD');
const ROUNDS = Number(process.env.ROUNDS || 5);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`bench.mjs: ROUNDS=${process.env.ROUNDS}: expected a whole number ≥ 1`);

// Every call is bounded: a server that hangs fails the run, it is not waited on.
const CALL_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 15_000;

// The pages: the fixture shop's sign-in and (signed in) orders page, three views of Swagger
// UI (swagger-ui-dist, a real third-party app: scenarios/realapp/swagger-ui) on three of its
// documents, and two views of Redoc (npm "redoc", a second real third-party app: a
// React app with a search box, a side menu and collapsible schemas) on two of the same
// documents. ready is text the page shows once rendered.
const PAGES = [
  { name: 'shop login', url: `${SHOP}/shop/login`, ready: 'Sign in to the shop' },
  { name: 'shop orders', url: `${SHOP}/shop/orders`, ready: 'Signed in as alice' },
  { name: 'swagger-ui petstore', url: `${SWAGGER}/?url=/documents/petstore.swagger.yaml`, ready: 'Find pet by ID' },
  { name: 'swagger-ui external-docs', url: `${SWAGGER}/?url=/documents/features/external-docs.openapi.yaml`, ready: 'Read external docs' },
  { name: 'swagger-ui models', url: `${SWAGGER}/?url=/documents/features/models.openapi.yaml`, ready: 'Schemas' },
  { name: 'redoc petstore', url: `${REDOC}/redoc/?url=documents/petstore.swagger.yaml`, ready: 'A sample server for a pet store.' },
  { name: 'redoc external-docs', url: `${REDOC}/redoc/?url=documents/features/external-docs.openapi.yaml`, ready: 'Everything about your Pets' },
];

const texts = (res) => (res.content || []).filter((c) => c.type === 'text').map((c) => c.text);
const bytes = (s) => Buffer.byteLength(s, 'utf8');

async function connect(label, command, args, cwd) {
  const transport = new StdioClientTransport({ command, args, cwd, env: process.env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const client = new Client({ name: 'fastbrowser-bench-mcp', version: '1' });
  await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  const call = async (name, args) => {
    const t0 = performance.now();
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    const ms = performance.now() - t0;
    if (res.isError) throw new Error(`${label} ${name} ${JSON.stringify(args)}: ${texts(res).join('\n')}\n${stderr}`);
    return { res, ms };
  };
  return { label, client, call, stderr: () => stderr };
}

// fastbrowser: a session on both origins; navigate; read until ready; observe.
async function fastbrowser() {
  const s = await connect('fastbrowser', FASTBROWSER, ['mcp', '--binding-origin', SHOP, '--binding-origin', SWAGGER,
    '--binding-origin', REDOC, '--secret-env', 'SHOP_PASSWORD'], OUT);
  const { res } = await s.call('browser_open', { allowedOrigins: [SHOP, SWAGGER, REDOC] });
  const session = res.structuredContent.session;
  s.navigate = async (url) => (await s.call('browser_navigate', { session, url })).ms;
  s.ready = async (text) => {
    const deadline = performance.now() + READY_TIMEOUT_MS;
    for (;;) {
      const { res: r } = await s.call('browser_read', { session });
      if ((r.structuredContent.untrusted.text || '').includes(text)) return;
      if (performance.now() > deadline) throw new Error(`fastbrowser: "${text}" did not show within ${READY_TIMEOUT_MS} ms`);
    }
  };
  s.observe = async () => {
    const { res: r, ms } = await s.call('browser_observe', { session });
    const outline = r.structuredContent.untrusted.text;
    return { ms, outline, resultBytes: texts(r).reduce((n, t) => n + bytes(t), 0), elements: fastbrowserElements(outline) };
  };
  // signIn types the username, types the password and clicks "Log in", by locator (no
  // observe first), and returns each call's time; the wait for the signed-in page is untimed.
  s.signIn = async () => {
    await s.navigate(`${SHOP}/shop/login`);
    const user = await s.call('browser_act', { session, action: 'type', target: { role: 'textbox', name: 'Username' }, text: 'alice' });
    const pass = await s.call('browser_type_secret', { session, target: { label: 'Password' }, name: 'SHOP_PASSWORD' });
    const click = await s.call('browser_act', { session, action: 'click', target: { role: 'button', name: 'Log in' } });
    await s.ready('Signed in as alice');
    return { typeMs: user.ms, passwordMs: pass.ms, clickMs: click.ms };
  };
  return s;
}

// Playwright MCP: on Debian's Chromium (--executable-path) with fastbrowser's closed-network
// launch flags (in its --config), headless, isolated (profile in memory), no sandbox (root in
// a container), service workers blocked, the two origins listed. Its files (snapshots it links instead of
// inlining, console logs) go to a directory of the run's own.
async function playwright() {
  const work = path.join(OUT, 'playwright-mcp');
  fs.mkdirSync(work, { recursive: true });
  const config = path.join(work, 'config.json');
  fs.writeFileSync(config, JSON.stringify({
    browser: { launchOptions: { args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'] } },
  }));
  const bin = path.join(path.dirname(new URL(import.meta.url).pathname), 'node_modules', '.bin', 'playwright-mcp');
  const s = await connect('playwright-mcp', bin, ['--headless', '--executable-path', '/usr/bin/chromium', '--isolated',
    '--no-sandbox', '--block-service-workers', '--allowed-origins', `${SHOP};${SWAGGER};${REDOC}`, '--config', config,
    '--output-dir', work], work);
  s.navigate = async (url) => (await s.call('browser_navigate', { url })).ms;
  s.ready = async (text) => { await s.call('browser_wait_for', { text }); };
  s.observe = async () => {
    const { res: r, ms } = await s.call('browser_snapshot', {});
    const all = texts(r).join('\n');
    const m = all.match(/```yaml\n([\s\S]*?)```/);
    if (!m) throw new Error(`playwright-mcp: browser_snapshot returned no inline snapshot:\n${all.slice(0, 2000)}`);
    return { ms, outline: m[1], resultBytes: texts(r).reduce((n, t) => n + bytes(t), 0), elements: playwrightElements(m[1]) };
  };
  // The same three calls by selector (browser_type, browser_type, browser_click): Playwright
  // MCP's tools take a snapshot ref or a unique selector; its click answers with a snapshot.
  s.signIn = async () => {
    await s.navigate(`${SHOP}/shop/login`);
    const user = await s.call('browser_type', { target: '#username', text: 'alice' });
    const pass = await s.call('browser_type', { target: '#password', text: process.env.SHOP_PASSWORD });
    const click = await s.call('browser_click', { target: 'role=button[name="Log in"]' });
    await s.ready('Signed in as alice');
    return { typeMs: user.ms, passwordMs: pass.ms, clickMs: click.ms };
  };
  return s;
}

// The roles a user acts on. Playwright gives a ref to nearly every node (generic, paragraph,
// heading…); only these count as its actionable elements. fastbrowser gives refs to
// actionable elements only, so each of its refs counts.
const ACTIONABLE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem', 'option']);
// The same element, named alike by both: roles fastbrowser names more narrowly, names
// without zero-width spaces, whitespace and case (Swagger UI's paths break differently).
const ROLE_ALIAS = { password: 'textbox', searchbox: 'textbox' };
const key = (role, name) => `${ROLE_ALIAS[role] || role} ${(name || '').replace(/[\u200b\s]/g, '').toLowerCase()}`;
const unquote = (q) => { try { return JSON.parse(`"${q}"`); } catch { return q; } };

// fastbrowser's outline: `  button [e3] "Log in"`, one line per element.
function fastbrowserElements(outline) {
  const out = [];
  for (const line of outline.split('\n')) {
    const m = line.match(/^\s*([a-z]+) \[(e\d+)\](?: "((?:[^"\\]|\\.)*)")?/);
    if (m) out.push({ role: m[1], name: unquote(m[3] || ''), ref: m[2] });
  }
  return { refs: out.length, actionable: out };
}

// Playwright's snapshot (YAML): `- button "Log in" [ref=e10]`, quoted when it holds ':' etc.
// An element whose name is its content is written without one, its text in the lines under
// it (`- button [ref=e68]:` then `- strong [ref=e71]: Order`): that text is its name.
function playwrightElements(yaml) {
  const lines = yaml.split('\n');
  const indent = (l) => l.length - l.trimStart().length;
  const out = [];
  let refs = 0;
  for (const [i, raw] of lines.entries()) {
    if (!/\[ref=[a-z0-9]+\]/.test(raw)) continue;
    refs++;
    let line = raw.replace(/^\s*- /, '');
    if (line.startsWith("'")) line = line.slice(1).replace(/'?:?$/, '').replace(/''/g, "'");
    const m = line.match(/^([a-z]+)(?: "((?:[^"\\]|\\.)*)")?/);
    if (!m || !ACTIONABLE.has(m[1])) continue;
    let name = unquote(m[2] || '');
    if (!name) {
      const words = [];
      for (let j = i + 1; j < lines.length && indent(lines[j]) > indent(raw); j++) {
        const v = lines[j].match(/:\s+(.+)$/);
        if (v && !/^\s*- \/url:/.test(lines[j])) words.push(v[1].replace(/^"(.*)"$/, '$1'));
      }
      name = words.join(' ');
    }
    out.push({ role: m[1], name, ref: (raw.match(/\[ref=([a-z0-9]+)\]/) || [])[1] });
  }
  return { refs, actionable: out };
}

// reach: which of Playwright's actionable elements fastbrowser's outline also offers (same
// role and name; each of fastbrowser's used once).
function reach(pw, fb) {
  const left = new Map();
  for (const e of fb.actionable) left.set(key(e.role, e.name), (left.get(key(e.role, e.name)) || 0) + 1);
  const missing = [];
  for (const e of pw.actionable) {
    const k = key(e.role, e.name);
    if (left.get(k) > 0) left.set(k, left.get(k) - 1);
    else missing.push(`${e.role} "${e.name}"`);
  }
  return { reached: pw.actionable.length - missing.length, missing };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const servers = {};
  const stop = async () => { await Promise.allSettled(Object.values(servers).map((s) => s.client.close())); };
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stop().finally(() => process.exit(130)); });
  try {
    servers.fb = await fastbrowser();
    servers.pw = await playwright();
    // Both sign in to the shop once, untimed; the orders page needs it.
    for (const s of Object.values(servers)) await s.signIn();

    const samples = fs.createWriteStream(path.join(OUT, 'samples.jsonl'));
    const acting = fs.createWriteStream(path.join(OUT, 'acting.jsonl'));
    const last = {}; // page name -> server -> the last round's observation
    for (let r = 1; r <= ROUNDS; r++) {
      const line = [`round ${r}/${ROUNDS}:`];
      for (const [i, page] of PAGES.entries()) {
        const order = (r + i) % 2 ? ['fb', 'pw'] : ['pw', 'fb'];
        for (const id of order) {
          const s = servers[id];
          const navigateMs = await s.navigate(page.url);
          await s.ready(page.ready);
          const ob = await s.observe();
          samples.write(JSON.stringify({ round: r, page: page.name, server: id, navigateMs, observeMs: ob.ms,
            outlineBytes: bytes(ob.outline), resultBytes: ob.resultBytes, refs: ob.elements.refs,
            actionable: ob.elements.actionable.length }) + '\n');
          ((last[page.name] ||= {})[id] = ob).navigateMs = navigateMs;
          line.push(`${page.name} ${id} ${navigateMs.toFixed(0)}+${ob.ms.toFixed(0)} ms`);
        }
      }
      // The shop's sign-in again, its three acting calls timed (signed in already: the shop
      // takes a second sign-in as the first).
      for (const id of r % 2 ? ['fb', 'pw'] : ['pw', 'fb']) {
        const acts = await servers[id].signIn();
        acting.write(JSON.stringify({ round: r, server: id, ...acts }) + '\n');
        line.push(`sign-in ${id} ${acts.typeMs.toFixed(0)}+${acts.passwordMs.toFixed(0)}+${acts.clickMs.toFixed(0)} ms`);
      }
      console.log(line.join(' '));
    }
    await Promise.all([samples, acting].map((w) => new Promise((r) => w.end(r))));
    report(last);
  } finally {
    await stop();
  }
}

function report(last) {
  const rows = fs.readFileSync(path.join(OUT, 'samples.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const x of rows) x.bothMs = x.navigateMs + x.observeMs;
  const med = (page, server, field) => median(rows.filter((x) => (!page || x.page === page) && x.server === server).map((x) => x[field]));
  const ratio = (a, b) => (a / b).toFixed(2);
  const table = [
    '| page | outline / snapshot bytes, fb · pw (ratio) | tool result bytes, fb · pw (ratio) | refs fb · pw (pw actionable) | pw actionable reachable in fb | navigate ms, fb · pw (ratio) | observe / snapshot ms, fb · pw (ratio) | both calls ms, fb · pw (ratio) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const sum = { fbOut: 0, pwOut: 0, fbRes: 0, pwRes: 0, reached: 0, actionable: 0 };
  for (const page of PAGES) {
    const { fb, pw } = last[page.name];
    fs.writeFileSync(path.join(OUT, `${page.name.replace(/\W+/g, '-')}.fastbrowser.txt`), fb.outline);
    fs.writeFileSync(path.join(OUT, `${page.name.replace(/\W+/g, '-')}.playwright.yml`), pw.outline);
    const rc = reach(pw.elements, fb.elements);
    if (rc.missing.length) console.error(`${page.name}: Playwright's actionable elements not in fastbrowser's outline: ${rc.missing.join('; ')}`);
    const [fo, po, fr, pr] = [med(page.name, 'fb', 'outlineBytes'), med(page.name, 'pw', 'outlineBytes'),
      med(page.name, 'fb', 'resultBytes'), med(page.name, 'pw', 'resultBytes')];
    Object.assign(sum, { fbOut: sum.fbOut + fo, pwOut: sum.pwOut + po, fbRes: sum.fbRes + fr, pwRes: sum.pwRes + pr,
      reached: sum.reached + rc.reached, actionable: sum.actionable + pw.elements.actionable.length });
    const [fn, pn, fs_, ps, fb2, pb2] = [med(page.name, 'fb', 'navigateMs'), med(page.name, 'pw', 'navigateMs'),
      med(page.name, 'fb', 'observeMs'), med(page.name, 'pw', 'observeMs'), med(page.name, 'fb', 'bothMs'), med(page.name, 'pw', 'bothMs')];
    table.push(`| ${page.name} | ${fo} · ${po} (${ratio(fo, po)}×) | ${fr} · ${pr} (${ratio(fr, pr)}×) | ` +
      `${fb.elements.refs} · ${pw.elements.refs} (${pw.elements.actionable.length}) | ${rc.reached}/${pw.elements.actionable.length} | ` +
      `${fn.toFixed(1)} · ${pn.toFixed(1)} (${ratio(fn, pn)}×) | ${fs_.toFixed(1)} · ${ps.toFixed(1)} (${ratio(fs_, ps)}×) | ` +
      `${fb2.toFixed(1)} · ${pb2.toFixed(1)} (${ratio(fb2, pb2)}×) |`);
  }
  // The all-pages row's times are medians over every page's samples together.
  const [fn, pn, fs_, ps, fb2, pb2] = [med(null, 'fb', 'navigateMs'), med(null, 'pw', 'navigateMs'), med(null, 'fb', 'observeMs'),
    med(null, 'pw', 'observeMs'), med(null, 'fb', 'bothMs'), med(null, 'pw', 'bothMs')];
  table.push(`| all pages | ${sum.fbOut} · ${sum.pwOut} (${ratio(sum.fbOut, sum.pwOut)}×) | ${sum.fbRes} · ${sum.pwRes} (${ratio(sum.fbRes, sum.pwRes)}×) | | ` +
    `${sum.reached}/${sum.actionable} | ${fn.toFixed(1)} · ${pn.toFixed(1)} (${ratio(fn, pn)}×) | ${fs_.toFixed(1)} · ${ps.toFixed(1)} (${ratio(fs_, ps)}×) | ${fb2.toFixed(1)} · ${pb2.toFixed(1)} (${ratio(fb2, pb2)}×) |`);
  console.log(`\nmedians of ${ROUNDS} rounds (fb = fastbrowser mcp, pw = Playwright MCP):\n${table.join('\n')}`);

  // The acting calls of the shop's sign-in, and every timed call of a round together.
  const acts = fs.readFileSync(path.join(OUT, 'acting.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const amed = (server, field) => median(acts.filter((x) => x.server === server).map((x) => x[field]));
  const perRound = (server) => median([...new Set(rows.map((x) => x.round))].map((r) =>
    rows.filter((x) => x.round === r && x.server === server).reduce((n, x) => n + x.bothMs, 0) +
    acts.filter((x) => x.round === r && x.server === server).reduce((n, x) => n + x.typeMs + x.passwordMs + x.clickMs, 0)));
  const acting = [
    '| call (shop sign-in, by locator) | fastbrowser | Playwright MCP | ms, fb · pw (ratio) |',
    '|---|---|---|---|',
  ];
  for (const [field, fbTool, pwTool] of [['typeMs', 'browser_act type', 'browser_type'],
    ['passwordMs', 'browser_type_secret', 'browser_type'], ['clickMs', 'browser_act click', 'browser_click']]) {
    const [f, w] = [amed('fb', field), amed('pw', field)];
    acting.push(`| ${field.replace(/Ms$/, '')} | ${fbTool} | ${pwTool} | ${f.toFixed(1)} · ${w.toFixed(1)} (${ratio(f, w)}×) |`);
  }
  const [fr, pr] = [perRound('fb'), perRound('pw')];
  acting.push(`| every timed call of a round (${PAGES.length} navigates, ${PAGES.length} observes, 3 acting calls) | | | ${fr.toFixed(0)} · ${pr.toFixed(0)} (${ratio(fr, pr)}×) |`);
  console.log(`\n${acting.join('\n')}`);
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
