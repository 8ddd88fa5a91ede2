#!/usr/bin/env python3
"""A host that owns a task over `fastbrowser serve`, standard library only (docs/models.md
"Hosted tasks").

It opens the fixture's sign-in form, types the user name, begins a task (beginTask answers at once with its id),
refreshes the task's lease with facts it knows on its own (an account label, the origin),
prints every event frame as it arrives, and finishes the task for its sealed accounting.
Usage:

    python3 task_host.py FASTBROWSER SITE_URL MODEL_BASE_URL KEY_ENV [MODE [LEASE_MS]]

MODEL_BASE_URL is an OpenAI-compatible endpoint (…/v1) whose key is in the environment
variable KEY_ENV. MODE is "complete" (the default); "cancel": the host waits for a line
"cancel" on its own stdin and then cancels the task; or "attach": it waits for a line
"attach", asks the session for its attach endpoint and connects to it as a person's DevTools
would, which stops the task (stoppedBy "person"). LEASE_MS is the lease beginTask asks
for (default 30000, the most). It prints "begun ID", "refreshed", "event JSON" for each
event, then "sealed JSON", and exits non-zero on a protocol failure.
"""
import base64
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import urllib.parse

# Every wait of this host is bounded: a task's budget is 30 s.
WAIT_S = 45


class Serve:
    """One `fastbrowser serve` process: requests on its stdin; answers and events on its stdout."""

    def __init__(self, exe, args):
        self.proc = subprocess.Popen([exe, "serve"] + args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        ready = json.loads(self.proc.stdout.readline())
        if ready.get("ready", {}).get("protocol") != 1:
            raise SystemExit("not a protocol v1 ready frame: %r" % ready)
        self.answers, self.events = queue.Queue(), queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        # An event frame answers no request: it goes to the events queue. A host that did
        # not know events could skip any frame without an "id" and lose nothing else.
        for line in self.proc.stdout:
            frame = json.loads(line)
            if "event" in frame:
                self.events.put(frame["event"])
            else:
                self.answers.put(frame)

    def call(self, op, request=None, expect_error=None):
        self.next_id += 1
        frame = {"v": 1, "id": str(self.next_id), "op": op, "request": request or {}}
        self.proc.stdin.write(json.dumps(frame) + "\n")
        self.proc.stdin.flush()
        answer = self.answers.get(timeout=WAIT_S)
        if answer.get("id") != frame["id"]:
            raise SystemExit("answer to another request: %r" % answer)
        if "error" in answer:
            if expect_error and answer["error"]["code"] == expect_error:
                return answer["error"]
            raise SystemExit("%s failed: %s: %s" % (op, answer["error"]["code"], answer["error"]["message"]))
        return answer["result"]

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=WAIT_S)


def attach(url):
    """Connects to the session's attach endpoint as a person's DevTools would: a WebSocket
    handshake (standard library only) on the token URL, which answers only this user. The
    URL is a credential: it is never printed. Returns the open socket; closing it detaches."""
    u = urllib.parse.urlsplit(url)
    sock = socket.create_connection((u.hostname, u.port), timeout=WAIT_S)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (u.path, u.netloc, key)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            raise SystemExit("the attach endpoint closed during the handshake")
        head += chunk
    status = head.split(b"\r\n", 1)[0].decode()
    if status.split(" ")[1:2] != ["101"]:
        raise SystemExit("the attach endpoint refused: %s" % status)
    return sock


def main():
    exe, site, model_url, key_env = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]
    mode = sys.argv[5] if len(sys.argv) > 5 else "complete"
    lease_ms = int(sys.argv[6]) if len(sys.argv) > 6 else 30000
    serve = Serve(exe, ["--allowed-origin", site, "--model", "openai:scripted-model",
                        "--model-base-url", model_url, "--model-api-key-env", key_env])
    serve.call("navigate", {"url": site + "/form"})
    serve.call("act", {"action": "type", "target": {"role": "textbox", "name": "Username"}, "text": "ada"})
    begun = serve.call("beginTask", {"goal": "Sign in", "postcondition": {"kind": "title", "value": "Welcome"},
                                     "leaseMs": lease_ms})
    task = begun["task"]
    print("begun", task, flush=True)
    # The host's own facts: which account it works as, and where the page must be.
    serve.call("refreshTask", {"task": task, "facts": {"account": "acct-ada", "origin": site}})
    print("refreshed", flush=True)
    if mode == "cancel":
        if sys.stdin.readline().strip() != "cancel":
            raise SystemExit("expected the line cancel")
        print("cancelTask", json.dumps(serve.call("cancelTask", {"task": task})), flush=True)
    person = None
    if mode == "attach":
        if sys.stdin.readline().strip() != "attach":
            raise SystemExit("expected the line attach")
        # Handed to a person in a real host; here the host stands in for their DevTools.
        person = attach(serve.call("attachEndpoint")["url"])
        print("attached", flush=True)
    while True:
        event = serve.events.get(timeout=WAIT_S)
        print("event", json.dumps(event), flush=True)
        if event["kind"] == "settled":
            break
    # Nothing is in flight once the task settled: finishTask seals it.
    sealed = serve.call("finishTask", {"task": task})
    print("sealed", json.dumps(sealed), flush=True)
    if person is not None:
        person.close()
    code = serve.close()
    print("serve exited", code, flush=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
