// ci/mcp's secret sweep: fails when a file holds the secret (the value of the variable
// named by --env) in any form the server's scrubber masks that a file here could carry:
// raw, base64 and base64url (padded or not), hex (lower and upper case), percent-encoded
// as Go and browsers do it, and those inside a JSON string (Go escapes & < > as \u00XX).
// transport/secrets/forms.go is the full list; this is the part a tool result, a log line
// or a URL in either can plausibly hold. A results.jsonl file is also swept line by line
// after decoding each tool result's text content, so a form hidden by a second JSON
// escaping is found too.
//
//   node sweep.mjs --env NAME FILE...
//
// Exits 0 with one line (forms × files swept), 1 naming each file and form found, 2 on
// bad arguments (an unset or too plain secret included: see plainness below).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";

const { values: opt, positionals: files } = parseArgs({
  options: { env: { type: "string" } }, allowPositionals: true,
});
if (!opt.env || files.length === 0) die(2, "usage: node sweep.mjs --env NAME FILE...");
const secret = process.env[opt.env];
if (!secret || secret.length < 4) die(2, `${opt.env} is unset or shorter than 4 characters`);

function die(code, msg) {
  console.error(`ci/mcp sweep: ${msg}`);
  process.exit(code);
}

// percentEncode escapes every byte but ASCII letters, digits and keep, in upper-case hex.
function percentEncode(v, keep, spacePlus) {
  let out = "";
  for (const b of Buffer.from(v, "utf8")) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9]/.test(c) || keep.includes(c)) out += c;
    else if (spacePlus && c === " ") out += "+";
    else out += "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

// forms are the secret's spellings, each with the name of its encoding, deduplicated (see
// the file comment). A finding is reported by that name: no part of the secret is printed.
function forms(v) {
  const buf = Buffer.from(v, "utf8");
  const b64 = buf.toString("base64");
  const b64url = buf.toString("base64url"); // unpadded
  const text = [
    ["raw", v],
    ["base64", b64], ["base64 unpadded", b64.replace(/=+$/, "")],
    ["base64url unpadded", b64url], ["base64url", b64url + "=".repeat((4 - (b64url.length % 4)) % 4)],
    ["hex", buf.toString("hex")], ["HEX", buf.toString("hex").toUpperCase()],
    ["url.QueryEscape", percentEncode(v, "-_.~", true)],
    ["url.QueryEscape with %20", percentEncode(v, "-_.~", false)],
    ["url.PathEscape", percentEncode(v, "-_.~!$&'()*+,;=:@", false)],
    ["encodeURIComponent", encodeURIComponent(v)], ["encodeURI", encodeURI(v)],
    ["form-urlencoded", percentEncode(v, "*-._", true)],
  ];
  const all = new Map(); // spelling -> name
  const add = (name, f) => { if (!all.has(f)) all.set(f, name); };
  for (const [name, t] of text) {
    add(name, t);
    const json = JSON.stringify(t).slice(1, -1);
    add(`${name} in JSON`, json);
    add(`${name} in Go's JSON`, json.replace(/[<>&]/g, (c) => "\\u00" + c.charCodeAt(0).toString(16).padStart(2, "0")));
  }
  return all;
}

const spellings = forms(secret);
// plainness: a secret of letters and digits alone is its own URL and JSON form, and the
// sweep would prove less than it says. A space is escaped by every URL encoder here, and
// & by Go's JSON; ci/mcp makes its secret with both.
if (!secret.includes(" ") || !/[&<>]/.test(secret)) {
  die(2, `${opt.env} has no space or no & < >: its URL and JSON forms would be the raw one`);
}

let found = 0;
function sweep(name, text) {
  for (const [f, form] of spellings) {
    if (text.includes(f)) {
      console.error(`ci/mcp sweep: ${name} holds the value of ${opt.env} (${form})`);
      found++;
    }
  }
}

let swept = 0;
for (const file of files) {
  const text = readFileSync(file, "utf8");
  sweep(file, text);
  swept++;
  if (basename(file).endsWith(".jsonl")) {
    text.split("\n").filter(Boolean).forEach((line, i) => {
      for (const c of JSON.parse(line).content ?? []) {
        if (c.type === "text") sweep(`${file}:${i + 1} (text content)`, c.text);
      }
    });
  }
}
if (found > 0) die(1, `the value of ${opt.env} was found ${found} times`);
console.log(`ci/mcp sweep: ${spellings.size} forms of ${opt.env} in none of ${swept} files`);
