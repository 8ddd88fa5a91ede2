#!/usr/bin/env python3
"""A protocol v1 client for `fastbrowser serve --binding-origin`, standard library only.

It opens a session for a task, runs one batch (navigate, type, click, page_text), observes
the page, and ends the task. Usage:

    python3 client.py FASTBROWSER SITE_URL

FASTBROWSER is the fastbrowser executable; SITE_URL the fixture site (e.g.
http://127.0.0.1:4310, whose /form page has a sign-in form). It prints one line per step
and exits non-zero on any failure.
"""
import json
import subprocess
import sys


class Serve:
    """One `fastbrowser serve` process: JSONL frames on its stdin and stdout."""

    def __init__(self, exe, binding):
        self.proc = subprocess.Popen(
            [exe, "serve", "--binding-origin", binding],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        ready = json.loads(self.proc.stdout.readline())
        if ready.get("ready", {}).get("protocol") != 1:
            raise SystemExit("not a protocol v1 ready frame: %r" % ready)
        self.next_id = 0

    def call(self, op, request=None, session=None, task=None):
        self.next_id += 1
        frame = {"v": 1, "id": str(self.next_id), "op": op, "request": request or {}}
        if session:
            frame["session"], frame["task"] = session, task
        self.proc.stdin.write(json.dumps(frame) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if answer.get("id") != frame["id"]:
            raise SystemExit("answer to another request: %r" % answer)
        if "error" in answer:
            raise SystemExit("%s failed: %s: %s" % (op, answer["error"]["code"], answer["error"]["message"]))
        return answer["result"]

    def close(self):
        self.proc.stdin.close()  # the end of input ends serve, which closes every session
        return self.proc.wait(timeout=30)


def main():
    exe, site = sys.argv[1], sys.argv[2].rstrip("/")
    serve = Serve(exe, site)
    task = "python-example"
    opened = serve.call("openSession", {"task": task, "allowedOrigins": [site], "idleTimeoutS": 60,
                                        "pageText": {"maxNodes": 50}})
    session = opened["session"]
    print("openSession:", session)
    batch = serve.call("batch", {"actions": [
        {"action": "navigate", "url": site + "/form"},
        {"action": "type", "target": {"role": "textbox", "name": "Username"}, "text": "ada"},
        {"action": "click", "target": {"role": "checkbox", "name": "Remember me"}},
        {"action": "page_text"},
    ]}, session, task)
    statuses = [a["status"] for a in batch["actions"]]
    print("batch:", batch["posture"], statuses)
    if batch["posture"] != "ok" or statuses != ["ok"] * 4:
        raise SystemExit("the batch did not run whole")
    observed = serve.call("observe", {}, session, task)
    if 'checkbox [e' not in observed["text"] or "checked=true" not in observed["text"]:
        raise SystemExit("the page does not show what the batch did:\n" + observed["text"])
    print("observe:", observed["title"])
    ended = serve.call("endTask", {"task": task})
    print("endTask:", ended["closed"])
    if ended["closed"] != [session]:
        raise SystemExit("endTask closed %r" % ended["closed"])
    code = serve.close()
    print("serve exited", code)
    sys.exit(code)


if __name__ == "__main__":
    main()
