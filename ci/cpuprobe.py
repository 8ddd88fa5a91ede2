#!/usr/bin/env python3
"""ci/cpuprobe.py CMD [ARG...]: where the CPU of one command goes, by process kind.

It runs CMD and samples /proc every 20 ms: every descendant of CMD (Chromium's processes, the
workers, `run` itself) is classified once by its command line, and the last user+system time
seen for it is kept. When CMD exits it prints each kind's total CPU and process count, the
largest first. A process's last <20 ms before it exits is not seen, so the totals are a little
low; read them on a quiet machine, next to ci/bench-vs's machine CPU per scenario.

Kinds: chromium-browser, chromium-renderer, chromium-gpu-process, chromium-utility:NAME,
chromium-zygote, `fastbrowser SUBCOMMAND` (run, worker, ...) and the executable's name for
anything else. /usr/bin/chromium is a shell script that execs the browser, so the browser
process is recognised by its flags, not its first name.

Example (the ci/bench-vs suite, once written): python3 ci/cpuprobe.py bin/fastbrowser run
--trace off --jobs 1 --out /tmp/o DIR
"""
import collections
import os
import subprocess
import sys
import time

HZ = os.sysconf('SC_CLK_TCK')


def stat(pid):
    """(ppid, user+system ticks) of pid, or None when it is gone."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[11]) + int(fields[12])


def kind(pid):
    try:
        with open(f'/proc/{pid}/cmdline') as f:
            args = f.read().replace('\0', ' ').split()
    except OSError:
        return '?'
    if not args:
        return '?'
    flags = [a for a in args if a.startswith('--')]
    chromium = any(a.startswith(('--type=', '--remote-debugging-pipe', '--user-data-dir=')) for a in flags)
    if chromium:
        t = next((a[len('--type='):] for a in flags if a.startswith('--type=')), '')
        if not t:
            return 'chromium-browser'
        if t == 'utility':
            sub = next((a.split('=', 1)[1] for a in flags if a.startswith('--utility-sub-type=')), '?')
            return 'chromium-utility:' + sub.rsplit('.', 1)[-1]
        return 'chromium-' + t
    exe = os.path.basename(args[0])
    if exe == 'fastbrowser':
        if '--fastbrowser-process-supervisor' in args:
            return 'fastbrowser supervisor'
        sub = next((a for a in args[1:] if not a.startswith('-')), '')
        return ('fastbrowser ' + sub).strip()
    return exe


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    family = {child.pid}
    kinds, ticks = {}, {}
    while child.poll() is None:
        seen = {}
        for name in os.listdir('/proc'):
            if name.isdigit():
                st = stat(int(name))
                if st:
                    seen[int(name)] = st
        # Descendants: a parent already in the family brings its children in, however deep.
        grew = True
        while grew:
            grew = False
            for pid, (ppid, _) in seen.items():
                if pid not in family and ppid in family:
                    family.add(pid)
                    grew = True
        for pid in family:
            if pid in seen:
                if pid not in kinds or kinds[pid] in ('?', 'sh'):
                    kinds[pid] = kind(pid)  # again after an exec (the chromium wrapper)
                ticks[pid] = seen[pid][1]
        time.sleep(0.02)
    total, count = collections.Counter(), collections.Counter()
    for pid, t in ticks.items():
        total[kinds[pid]] += t
        count[kinds[pid]] += 1
    print(f'exit {child.returncode}; CPU by process kind (ms, processes):')
    for k, t in total.most_common():
        print(f'{t * 1000 / HZ:9.0f}  {count[k]:4d}  {k}')
    print(f'{sum(total.values()) * 1000 / HZ:9.0f}  {sum(count.values()):4d}  total')
    return child.returncode


if __name__ == '__main__':
    sys.exit(main())
