#!/usr/bin/env python3
"""compare.py FB_REPORT PW_JSON EXPECTED: the per-test table of ci/realapp.

Reads fastbrowser's report.json (scenarios[].id, status, the failed operation's error) and
Playwright's JSON reporter output (each test's title starts with "<id>: "), prints one line per
test of expected.json with both outcomes, the missing capability of every test fastbrowser
fails, the counts, and exits 1 when a test regressed: fastbrowser failed a test expected.json
says it passes today, or Playwright failed any test (the baseline: the port itself works).
A test that passes in fastbrowser though expected.json says it fails is listed (update
expected.json) and does not fail the run.
"""
import json
import sys


def fastbrowser_results(path):
    out = {}
    with open(path) as f:
        rep = json.load(f)
    for sc in rep.get("scenarios", []):
        status = sc.get("status", "?")
        why = ""
        if status not in ("passed", "flaky"):
            err = sc.get("error")
            for op in sc.get("operations", []):
                if op.get("status") == "failed":
                    e = op.get("error") or {}
                    name = op.get("id") or op.get("op")
                    why = "operations[%s] %s (%s): %s: %s" % (op.get("index"), name, op.get("op"), e.get("code"), e.get("message"))
                    break
            if not why and err:
                why = "%s: %s" % (err.get("code"), err.get("message"))
        out[sc["id"]] = ("pass" if status in ("passed", "flaky") else "fail", status, why)
    return out


def playwright_results(path):
    out = {}
    with open(path) as f:
        rep = json.load(f)

    def walk(suite):
        for spec in suite.get("specs", []):
            tid = spec["title"].split(":", 1)[0].strip()
            for t in spec.get("tests", []):
                st = t.get("status")  # expected | unexpected | flaky | skipped
                why = ""
                if st == "unexpected":
                    for r in t.get("results", []):
                        if r.get("error"):
                            why = (r["error"].get("message") or "").strip().splitlines()[0]
                out[tid] = ("pass" if st in ("expected", "flaky") else "fail", st, why)
        for s in suite.get("suites", []):
            walk(s)

    for s in rep.get("suites", []):
        walk(s)
    return out


def main():
    fb_path, pw_path, exp_path = sys.argv[1:4]
    with open(exp_path) as f:
        expected = json.load(f)["tests"]
    try:
        fb = fastbrowser_results(fb_path)
    except (OSError, ValueError) as e:
        print("compare: no fastbrowser report (%s)" % e)
        fb = {}
    try:
        pw = playwright_results(pw_path)
    except (OSError, ValueError) as e:
        print("compare: no Playwright report (%s)" % e)
        pw = {}

    width = max(len(i) for i in expected)
    print("%-*s  %-13s  %-13s  %s" % (width, "test", "playwright", "fastbrowser", "fastbrowser expected today"))
    regressions, newly, counts = [], [], {"pw": 0, "fb": 0, "fbexp": 0, "both": 0, "pwonly": 0, "incomplete": 0}
    for tid, e in expected.items():
        p = pw.get(tid, ("missing", "missing", "not in the Playwright report"))
        b = fb.get(tid, ("missing", "missing", "not in the fastbrowser report"))
        pshow = p[0] + (" (flaky)" if p[1] == "flaky" else "")
        bshow = b[0] + (" (flaky)" if b[1] == "flaky" else "")
        print("%-*s  %-13s  %-13s  %s" % (width, tid, pshow, bshow, e["fastbrowser"]))
        counts["pw"] += p[0] == "pass"
        counts["fb"] += b[0] == "pass"
        counts["fbexp"] += e["fastbrowser"] == "pass"
        counts["both"] += p[0] == "pass" and b[0] == "pass"
        if e.get("gaps"):
            counts["incomplete"] += 1
        if p[0] == "pass" and b[0] != "pass":
            counts["pwonly"] += 1
            print("%-*s    fastbrowser: %s" % (width, "", b[2]))
            print("%-*s    missing: %s" % (width, "", e.get("missing", "(not recorded in expected.json)")))
        if p[0] != "pass":
            print("%-*s    playwright: %s" % (width, "", p[2]))
            regressions.append("%s: Playwright %s" % (tid, p[1]))
        if e["fastbrowser"] == "pass" and b[0] != "pass":
            regressions.append("%s: fastbrowser %s, expected to pass" % (tid, b[1]))
        if e["fastbrowser"] != "pass" and b[0] == "pass":
            newly.append(tid)
    n = len(expected)
    print()
    print("%d tests: Playwright passed %d/%d, fastbrowser passed %d/%d (expected today: %d); "
          "%d pass in Playwright and fail in fastbrowser; %d fastbrowser ports check less than "
          "Playwright's (see 'gaps' in expected.json)" % (n, counts["pw"], n, counts["fb"], n, counts["fbexp"], counts["pwonly"], counts["incomplete"]))
    if newly:
        print("now passing in fastbrowser (set \"fastbrowser\": \"pass\" in expected.json): " + ", ".join(newly))
    if regressions:
        print("REGRESSIONS:")
        for r in regressions:
            print("  " + r)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
