#!/usr/bin/env python3
"""The suite's static server: the host page and spec documents from site/, and the prebuilt
Swagger UI (swagger-ui-dist, installed by `npm ci` into node_modules/) under /dist/.

    python3 server.py [--port 4477] [--bind 127.0.0.1]

GET /health answers 200 once the server listens (the scenarios' readiness probe). Nothing is
cached (no-store), so every test loads the documents as they are on disk.
"""
import argparse
import functools
import http.server
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = os.path.join(HERE, "site")
DIST = os.path.join(HERE, "node_modules", "swagger-ui-dist")


class Handler(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path):
        p = path.split("?", 1)[0].split("#", 1)[0]
        if p == "/dist" or p.startswith("/dist/"):
            rel = p[len("/dist"):]
            return super().translate_path(rel).replace(SITE, DIST, 1)
        return super().translate_path(path)

    def do_GET(self):
        if self.path.split("?", 1)[0] == "/health":
            body = b"ok\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, fmt, *args):  # quiet: one line per error only
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=4477)
    ap.add_argument("--bind", default="127.0.0.1")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(DIST, "swagger-ui-bundle.js")):
        sys.exit("server.py: %s is missing: run `npm ci` in %s first" % (DIST, HERE))
    Handler.extensions_map[".yaml"] = "text/yaml"
    Handler.extensions_map[".yml"] = "text/yaml"
    handler = functools.partial(Handler, directory=SITE)
    with http.server.ThreadingHTTPServer((a.bind, a.port), handler) as srv:
        print("swagger-ui suite serving on http://%s:%d" % (a.bind, a.port), flush=True)
        try:
            srv.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
