// ci/mcp's client: the official TypeScript MCP SDK (@modelcontextprotocol/sdk, pinned by
// package-lock.json) spawns `fastbrowser mcp` over stdio and signs in to the fixture shop
// as an agent host would, checking each answer. It writes every tool result it receives to
// OUT/results.jsonl and the server's stderr to OUT/server-stderr.log, for ci/mcp's secret
// sweep (sweep.mjs); it never prints a tool result itself, so the sweep covers everything.
//
//   node client.mjs --fastbrowser BIN --fixture ORIGIN --canary ORIGIN --out DIR [--http]
//
// With --http the same checks run over MCP's streamable HTTP transport: the client starts
// `fastbrowser mcp --http 127.0.0.1:0 --http-token-env MCP_HTTP_TOKEN …` itself (its stdin a
// pipe the client holds), reads the one line saying where it listens (which must not repeat
// the token), and connects with the SDK's StreamableHTTPClientTransport and
// "Authorization: Bearer $MCP_HTTP_TOKEN"; at the end it ends the MCP session (DELETE) and the
// server's stdin, and the server must exit.
//
// After the orders read it exports the session (browser_export) to OUT/export.json, which
// ci/mcp then replays with `fastbrowser run`.
//
// SHOP_PASSWORD (the shop's password) must be set: the server is started with
// --secret-env SHOP_PASSWORD and types it by name. Exits 0 and prints one line per step,
// or exits 1 with "ci/mcp client: STEP: what was wrong".
import { spawn } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// Every tool the server lists (runtime/mcpserver/tools.go), exactly: a tool added or gone
// shows here.
const TOOLS = ["browser_open", "browser_navigate", "browser_back", "browser_forward",
  "browser_reload", "browser_observe", "browser_act", "browser_type_secret", "browser_read",
  "browser_assert", "browser_screenshot", "browser_download", "browser_tabs",
  "browser_select_tab", "browser_wait_popup", "browser_close_tab", "browser_export", "browser_close"];
// The fixture's /shop/orders table (scenarios/fixture/shop_pages.go ShopOrders): id, customer.
const ORDERS = [["1001", "Ada Lovelace"], ["1002", "Grace Hopper"], ["1003", "Alan Turing"],
  ["1004", "Katherine Johnson"], ["1005", "Edsger Dijkstra"]];
// A bound on each call, not a speed goal: a navigation on a loaded 2-CPU machine takes
// seconds, never a minute.
const CALL_TIMEOUT_MS = 60_000;
// How long the server gets to exit once its stdin ends (the SDK then sends TERM, then KILL).
const EXIT_BOUND_MS = 15_000;

const { values: opt } = parseArgs({
  options: {
    fastbrowser: { type: "string" }, fixture: { type: "string" },
    canary: { type: "string" }, out: { type: "string" }, http: { type: "boolean" },
  },
});
for (const name of ["fastbrowser", "fixture", "canary", "out"]) {
  if (!opt[name]) usage(`--${name} is required`);
}
const password = process.env.SHOP_PASSWORD;
if (!password) usage("SHOP_PASSWORD is not set (the shop's password, typed by name)");
const token = process.env.MCP_HTTP_TOKEN;
if (opt.http && !token) usage("--http needs MCP_HTTP_TOKEN (the server's bearer token, 16 characters or more)");

function usage(msg) {
  console.error(`ci/mcp client: ${msg}\nusage: node client.mjs --fastbrowser BIN --fixture ORIGIN --canary ORIGIN --out DIR [--http]`);
  process.exit(2);
}

class StepError extends Error {}
let step = "start";
function check(ok, what) {
  if (!ok) throw new StepError(what);
}

const results = createWriteStream(join(opt.out, "results.jsonl"));
const serverStderr = createWriteStream(join(opt.out, "server-stderr.log"));
// FASTBROWSER_DEBUG=1: the browser's and worker's logs reach stderr, so the sweep covers them.
const serverArgs = ["mcp", "--binding-origin", opt.fixture, "--secret-env", "SHOP_PASSWORD"];
const serverEnv = { ...process.env, FASTBROWSER_DEBUG: "1" };
const client = new Client({ name: "fastbrowser-ci-mcp", version: "1" });
// server: {transport, pid, stop()}: how this run reaches the server, and how it ends it.
let server;

// overStdio: the SDK spawns the server and speaks on its stdin/stdout; closing the client
// ends its stdin.
function overStdio() {
  const transport = new StdioClientTransport({ command: opt.fastbrowser, args: serverArgs, env: serverEnv, stderr: "pipe" });
  transport.stderr.pipe(serverStderr);
  return { transport, pid: () => transport.pid, stop: () => client.close() };
}

// overHTTP: the server is started here with --http and the token from the environment; the
// SDK's streamable HTTP client reaches it at the URL of its listening line.
async function overHTTP() {
  const child = spawn(opt.fastbrowser, [...serverArgs, "--http", "127.0.0.1:0", "--http-token-env", "MCP_HTTP_TOKEN"],
    { env: serverEnv, stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.pipe(serverStderr);
  const exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new StepError("no listening line within 60 s")), CALL_TIMEOUT_MS);
    child.once("exit", (code) => reject(new StepError(`the server exited ${code} before listening`)));
    createInterface({ input: child.stdout }).once("line", (l) => { clearTimeout(timer); resolve(l); });
  });
  const ready = JSON.parse(line);
  check(Object.keys(ready).join() === "url" && /^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(ready.url),
    `listening line ${line}: want only {"url": "http://127.0.0.1:PORT/mcp"} (the token is the operator's)`);
  const transport = new StreamableHTTPClientTransport(new URL(ready.url),
    { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  return {
    transport, pid: () => child.pid,
    stop: async () => {
      await transport.terminateSession(); // the DELETE that ends the MCP session
      await client.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_BOUND_MS);
      const code = await exit;
      clearTimeout(timer);
      check(code === 0, `the server exited ${code} after its stdin ended, want 0 within ${EXIT_BOUND_MS / 1000} s`);
    },
  };
}

// call returns a tool's result as JSON (its one text content, which must equal its
// structuredContent) and whether it is an error. Every result is kept for the sweep.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
  results.write(JSON.stringify(res) + "\n");
  check(res.content?.length === 1 && res.content[0].type === "text",
    `${name}: want one text content, got ${JSON.stringify(res.content?.map((c) => c.type))}`);
  const out = JSON.parse(res.content[0].text);
  check(JSON.stringify(out) === JSON.stringify(res.structuredContent),
    `${name}: structuredContent differs from the text content`);
  return { out, isError: res.isError === true };
}

// exported calls browser_export, which must succeed: its result {file, operations,
// warnings} comes inside the envelope (the file names elements as the page named them).
async function exported(args) {
  const x = await ok("browser_export", args);
  check(typeof x.file === "string" && Number.isInteger(x.operations) && Array.isArray(x.warnings),
    "browser_export: the envelope does not hold {file, operations, warnings}");
  return x;
}

// ok calls a tool that must succeed; page content must come inside the envelope.
async function ok(name, args, enveloped = true) {
  const { out, isError } = await call(name, args);
  check(!isError, `${name}: refused: ${JSON.stringify(out.error)}`);
  if (!enveloped) return out;
  check(out.untrusted && typeof out.note === "string" && Object.keys(out).length === 2,
    `${name}: result not in the envelope {untrusted, note}`);
  return out.untrusted;
}

// refused calls a tool that must fail, and returns its error: what the server decided
// (code, retry, mutationState) beside the words and what the page did (message, blocked),
// which come inside the error's detail envelope and are lifted out of it here.
async function refused(name, args) {
  const { out, isError } = await call(name, args);
  check(isError && out.error, `${name}: want isError with an error, got a success`);
  for (const k of ["code", "retry", "mutationState"]) {
    check(typeof out.error[k] === "string" && out.error[k] !== "", `${name}: error without ${k}: ${JSON.stringify(out.error)}`);
  }
  const d = out.error.detail;
  check(d && d.untrusted && typeof d.note === "string" && Object.keys(d).length === 2,
    `${name}: error's detail not in the envelope {untrusted, note}: ${JSON.stringify(out.error)}`);
  check(!("message" in out.error) && !("blocked" in out.error), `${name}: page-quoting fields outside the detail envelope`);
  check(typeof d.untrusted.message === "string" && d.untrusted.message !== "", `${name}: error without a message`);
  return { ...out.error, ...d.untrusted };
}

// ref finds an element's ref in an observe outline ("textbox [e3] \"Username\"").
function ref(outline, role, name) {
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`^\\s*${esc(role)} \\[?(e\\d+)\\]? "${esc(name)}"`, "m").exec(outline);
  check(m, `no ${role} "${name}" in the outline`);
  return m[1];
}

function done(what) {
  console.log(`ci/mcp client: ${step}: ${what}`);
}

async function main() {
  const fixture = opt.fixture;
  step = "connect";
  server = opt.http ? await overHTTP() : overStdio();
  await client.connect(server.transport, { timeout: CALL_TIMEOUT_MS });
  const serverPid = server.pid();
  done(`${client.getServerVersion()?.name} ${client.getServerVersion()?.version}, protocol negotiated over ${opt.http ? "streamable HTTP" : "stdio"}`);

  step = "list tools";
  const names = (await client.listTools(undefined, { timeout: CALL_TIMEOUT_MS })).tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === JSON.stringify([...TOOLS].sort()), `tools ${names}, want ${TOOLS}`);
  done(`${names.length} tools`);

  step = "open";
  const opened = await ok("browser_open", { allowedOrigins: [fixture] }, false);
  const session = opened.session;
  check(typeof session === "string" && session !== "", `no session id: ${JSON.stringify(opened)}`);
  done(`session ${session} on ${fixture}`);

  step = "sign in";
  const nav = await ok("browser_navigate", { session, url: `${fixture}/shop/login` });
  check(String(nav.url).endsWith("/shop/login"), `navigate landed on ${nav.url}`);
  const login = (await ok("browser_observe", { session })).text;
  check(typeof login === "string", "observe returned no outline text");
  const user = ref(login, "textbox", "Username");
  const pw = ref(login, "password", "Password");
  await ok("browser_act", { session, action: "type", target: { ref: user }, text: "alice" });
  const typed = await ok("browser_type_secret", { session, target: { ref: pw }, name: "SHOP_PASSWORD" });
  check(typed.receipt?.typedLength === password.length,
    `type_secret receipt ${JSON.stringify(typed.receipt)}: want typedLength ${password.length}`);
  await ok("browser_act", { session, action: "click", target: { role: "button", name: "Log in" } });
  const home = await ok("browser_read", { session });
  check(String(home.text).includes("Signed in as alice"), "after Log in the page does not say Signed in as alice");
  done(`username by ref ${user}, password by name into ${pw}, signed in`);

  step = "orders";
  await ok("browser_navigate", { session, url: `${fixture}/shop/orders` });
  const orders = String((await ok("browser_read", { session })).text);
  for (const [id, customer] of ORDERS) {
    check(new RegExp(`${id}\\s+${customer}`).test(orders), `the orders page lacks the row ${id} ${customer}`);
  }
  done(`${ORDERS.length} rows read`);

  step = "export";
  const x = await exported({ session, id: "mcp-shop-signin" });
  const file = JSON.parse(x.file);
  const ops = file.operations.map((o) => o.op).join(" ");
  // navigate, the username by ref, the password by name, Log in, navigate: the reads and the
  // outline are not in it.
  check(ops === "navigate act act act navigate", `the export's operations are ${ops}`);
  check(file.operations[2].request?.text?.env === "SHOP_PASSWORD",
    `the typed secret is exported as ${JSON.stringify(file.operations[2].request?.text)}, want {"env":"SHOP_PASSWORD"}`);
  check(!x.file.includes('"ref"'), "the export names an element by ref");
  writeFileSync(join(opt.out, "export.json"), x.file, { mode: 0o600 });
  done(`${x.operations} operations, ${x.warnings.length} warnings, written to export.json`);

  step = "off policy";
  const direct = await refused("browser_navigate", { session, url: `${opt.canary}/canary/direct` });
  check(direct.code === "origin_denied" && direct.mutationState === "not_attempted",
    `navigate to the canary: ${direct.code}/${direct.mutationState}, want origin_denied/not_attempted`);
  // A page of the fixture that sends the browser to the canary: failed inside the browser.
  const egress = `${fixture}/egress/redirect?to=${encodeURIComponent(opt.canary)}`;
  const redirected = await refused("browser_navigate", { session, url: egress });
  check(redirected.code === "egress_denied", `navigate to ${egress}: ${redirected.code}, want egress_denied`);
  // A link on a fixture page to the canary (opening a new tab), clicked by its ref.
  await ok("browser_navigate", { session, url: `${fixture}/egress/blank-noopener?to=${encodeURIComponent(opt.canary)}` });
  const link = ref((await ok("browser_observe", { session })).text, "link", "Open noopener");
  const clicked = await refused("browser_act", { session, action: "click", target: { ref: link } });
  check(clicked.code === "egress_denied" && clicked.blocked?.some((b) => b.origin === opt.canary),
    `click a link to the canary: ${clicked.code} blocking ${JSON.stringify(clicked.blocked)}, want egress_denied blocking ${opt.canary}`);
  done(`the canary named: ${direct.code}; reached by a redirect: ${redirected.code}; by a link clicked: ${clicked.code}`);

  step = "stale ref";
  await ok("browser_navigate", { session, url: `${fixture}/shop/orders` });
  const logout = ref((await ok("browser_observe", { session })).text, "button", "Log out");
  await ok("browser_navigate", { session, url: `${fixture}/shop/orders` });
  const stale = await refused("browser_act", { session, action: "click", target: { ref: logout } });
  check(stale.code === "stale_document" && stale.mutationState === "not_attempted",
    `click a ref from before a navigation: ${stale.code}/${stale.mutationState}, want stale_document/not_attempted`);
  check(String((await ok("browser_read", { session })).text).includes("Signed in as alice"), "the stale click signed out");
  done(`${logout} after a navigation: ${stale.code}, still signed in`);

  step = "close";
  const closed = await ok("browser_close", { session }, false);
  check(closed.closed === true, `close answered ${JSON.stringify(closed)}`);
  const ended = await refused("browser_read", { session });
  check(ended.code === "session_ended", `read after close: ${ended.code}, want session_ended`);
  await server.stop();
  await exited(serverPid);
  done("session closed, server exited");
}

// exited waits, bounded, for the server (the SDK's child, which it reaps) to be gone.
async function exited(pid) {
  const deadline = Date.now() + EXIT_BOUND_MS;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    check(Date.now() < deadline, `the server (pid ${pid}) still runs ${EXIT_BOUND_MS / 1000} s after its stdin ended`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// flush ends a log stream and waits for it to reach the disk.
const flush = (s) => new Promise((r) => s.end(r));

let code = 0;
try {
  await main();
} catch (err) {
  const what = err instanceof StepError ? err.message : `${err?.name}: ${err?.message}`;
  console.error(`ci/mcp client: ${step}: ${what}`);
  code = 1;
  await client.close().catch(() => {});
}
await Promise.all([flush(results), flush(serverStderr)]);
process.exit(code);
