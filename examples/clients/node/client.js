#!/usr/bin/env node
// A protocol v1 client for `fastbrowser serve --binding-origin`, Node's standard library
// only. It opens a session for a task, runs one batch (navigate, type, click, page_text),
// observes the page, and ends the task. Usage:
//
//     node client.js FASTBROWSER SITE_URL
//
// FASTBROWSER is the fastbrowser executable; SITE_URL the fixture site (its /form page has a
// sign-in form). It prints one line per step and exits non-zero on any failure.
'use strict';
const { spawn } = require('node:child_process');
const readline = require('node:readline');

class Serve {
  constructor(exe, binding) {
    this.proc = spawn(exe, ['serve', '--binding-origin', binding], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = readline.createInterface({ input: this.proc.stdout })[Symbol.asyncIterator]();
    this.nextId = 0;
  }

  async frame() {
    const { value, done } = await this.lines.next();
    if (done) throw new Error('serve ended its output');
    return JSON.parse(value);
  }

  async ready() {
    const f = await this.frame();
    if (!f.ready || f.ready.protocol !== 1) throw new Error('not a protocol v1 ready frame: ' + JSON.stringify(f));
  }

  async call(op, request, session, task) {
    const frame = { v: 1, id: String(++this.nextId), op, request: request || {} };
    if (session) Object.assign(frame, { session, task });
    this.proc.stdin.write(JSON.stringify(frame) + '\n');
    const answer = await this.frame();
    if (answer.id !== frame.id) throw new Error('answer to another request: ' + JSON.stringify(answer));
    if (answer.error) throw new Error(`${op} failed: ${answer.error.code}: ${answer.error.message}`);
    return answer.result;
  }

  close() {
    return new Promise((resolve) => {
      this.proc.on('exit', (code) => resolve(code));
      this.proc.stdin.end(); // the end of input ends serve, which closes every session
    });
  }
}

async function main() {
  const [exe, siteArg] = process.argv.slice(2);
  const site = siteArg.replace(/\/$/, '');
  const serve = new Serve(exe, site);
  await serve.ready();
  const task = 'node-example';
  const opened = await serve.call('openSession', { task, allowedOrigins: [site], idleTimeoutS: 60, pageText: { maxNodes: 50 } });
  const session = opened.session;
  console.log('openSession:', session);
  const batch = await serve.call('batch', { actions: [
    { action: 'navigate', url: site + '/form' },
    { action: 'type', target: { role: 'textbox', name: 'Username' }, text: 'ada' },
    { action: 'click', target: { role: 'checkbox', name: 'Remember me' } },
    { action: 'page_text' },
  ] }, session, task);
  const statuses = batch.actions.map((a) => a.status);
  console.log('batch:', batch.posture, statuses);
  if (batch.posture !== 'ok' || statuses.some((s) => s !== 'ok') || statuses.length !== 4) throw new Error('the batch did not run whole');
  const observed = await serve.call('observe', {}, session, task);
  if (!observed.text.includes('checked=true')) throw new Error('the page does not show what the batch did:\n' + observed.text);
  console.log('observe:', observed.title);
  const ended = await serve.call('endTask', { task });
  console.log('endTask:', ended.closed);
  if (ended.closed.length !== 1 || ended.closed[0] !== session) throw new Error('endTask closed ' + JSON.stringify(ended.closed));
  const code = await serve.close();
  console.log('serve exited', code);
  process.exit(code);
}

main().catch((err) => { console.error(err.message); process.exit(1); });
