#!/usr/bin/env python3
"""ci/memsample.py [--every SECONDS] CMD...: run CMD and report the peak RSS (VmHWM) of every
fastbrowser process it starts, sampled from /proc every few milliseconds (--every: that often;
ci/bench-scale samples a long run less often, to leave the CPU to it) until CMD exits.

VmHWM is the kernel's own high-water mark, so a sample only has to land before the process
exits to hold its peak up to then. VmHWM counts every page
mapped, the binary's file pages included, and those are shared: `run` and its workers map
the same executable, so each process's VmHWM counts them again. The physical total is the
sum of the processes' PSS (shared pages split among their sharers), sampled at the same
instant; its peak is printed last. Prints to stdout:
  ROLE PID VmHWM_kB RssAnon_peak_kB RssFile_peak_kB VmRSS_last_kB
  total - PSS_peak_kB
where VmRSS_last is the process's RSS at the last sample that saw it: for `run`, its RSS at
the end, after the report was written (within one interval of its exit).
where ROLE is "run" (CMD itself) or "worker" (a `fastbrowser worker` child). CMD's output is
discarded; its exit status is this script's."""
import os
import subprocess
import sys
import time


def fields_kb(path, names):
    """The named "Name: N kB" fields of a /proc file, or None once the process is gone."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in names:
                    out[k] = int(v.split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return out if len(out) == len(names) else None


def children(pid):
    """All descendants of pid (through /proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                continue
            out += kids
            todo += kids
    return out


def main():
    argv, every = sys.argv[1:], 0.005
    if argv[:1] == ["--every"]:
        every, argv = float(argv[1]), argv[2:]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak, last, role, pss_peak = {}, {}, {proc.pid: "run"}, 0
    while True:
        pss = 0
        for p in [proc.pid] + children(proc.pid):
            if p not in role:
                try:
                    with open(f"/proc/{p}/cmdline", "rb") as f:
                        argv = f.read().split(b"\0")
                except OSError:
                    continue
                if os.path.basename(argv[0]) != b"fastbrowser":
                    role[p] = None  # Chromium and the like: not measured
                elif len(argv) > 1 and argv[1] == b"worker":
                    role[p] = "worker"
                else:
                    continue  # forked, not yet exec'd: still `run`'s command line; look again
            if role.get(p):
                st = fields_kb(f"/proc/{p}/status", ("VmHWM", "RssAnon", "RssFile", "VmRSS"))
                if st:
                    last[p] = st["VmRSS"]
                    old = peak.get(p, (0, 0, 0))
                    peak[p] = tuple(max(a, b) for a, b in zip(old, (st["VmHWM"], st["RssAnon"], st["RssFile"])))
                sm = fields_kb(f"/proc/{p}/smaps_rollup", ("Pss",))
                if sm:
                    pss += sm["Pss"]
        pss_peak = max(pss_peak, pss)
        if proc.poll() is not None:
            break
        time.sleep(every)
    for p, kb in peak.items():
        print(role[p], p, *kb, last[p])
    print("total -", pss_peak)
    sys.exit(proc.returncode)


main()
