package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// BenchmarkServeEightSessions is issue 13's acceptance 6: 8 concurrent sessions in one
// `serve --binding-origin` (one browser, a context each) each running a 10-action batch,
// against 8 separate serve processes (a browser each) running the same batch, started
// together. It reports each way's wall time (from the batches sent to the last answer) and
// resident memory (the serve processes and all their descendants: workers, Chromium) after
// the batches, as medians over the iterations.
//
//	go test -run '^$' -bench BenchmarkServeEightSessions -benchtime 5x ./cmd/fastbrowser/
func BenchmarkServeEightSessions(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	const n = 8
	actions := []map[string]any{}
	for i := 0; i < 2; i++ {
		actions = append(actions,
			map[string]any{"action": "navigate", "url": site.URL + "/form"},
			map[string]any{"action": "type", "target": map[string]any{"role": "textbox", "name": "Username"}, "text": "ada"},
			map[string]any{"action": "click", "target": map[string]any{"role": "checkbox", "name": "Remember me"}},
			map[string]any{"action": "page_text"},
			map[string]any{"action": "navigate", "url": site.URL + "/about"},
		)
	}
	run := func(serves []*manyServe) (time.Duration, int64) {
		ids := make([]string, n)
		for i := range ids {
			s := serves[i%len(serves)]
			r := result(s.t, s.call("", "", "openSession", map[string]any{"task": "bench", "allowedOrigins": []string{site.URL}}))
			ids[i] = r["session"].(string)
		}
		start := time.Now()
		var wg sync.WaitGroup
		for i := range ids {
			s := serves[i%len(serves)]
			ch := s.send(ids[i], "bench", "batch", map[string]any{"actions": actions})
			wg.Add(1)
			go func() {
				defer wg.Done()
				if r := result(s.t, s.await(ch)); r["posture"] != "ok" {
					s.t.Errorf("batch: %v", r)
				}
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		var rss int64
		for _, s := range serves {
			rss += treeRSS(s.cmd.Process.Pid)
		}
		for i := range ids {
			s := serves[i%len(serves)]
			result(s.t, s.call("", "", "closeSession", map[string]any{"session": ids[i], "task": "bench"}))
		}
		return wall, rss
	}
	var oneWall, manyWall []time.Duration
	var oneRSS, manyRSS []int64
	for i := 0; i < b.N; i++ {
		one := []*manyServe{startManyServe(b, "--binding-origin", site.URL)}
		w, r := run(one)
		oneWall, oneRSS = append(oneWall, w), append(oneRSS, r)
		one[0].stop()
		many := make([]*manyServe, n)
		for k := range many {
			many[k] = startManyServe(b, "--binding-origin", site.URL)
		}
		w, r = run(many)
		manyWall, manyRSS = append(manyWall, w), append(manyRSS, r)
		for _, s := range many {
			s.stop()
		}
	}
	b.ReportMetric(float64(median(oneWall))/1e6, "one-serve-ms")
	b.ReportMetric(float64(median(manyWall))/1e6, "eight-serves-ms")
	b.ReportMetric(float64(medianInt(oneRSS))/(1<<20), "one-serve-MiB")
	b.ReportMetric(float64(medianInt(manyRSS))/(1<<20), "eight-serves-MiB")
}

func medianInt(xs []int64) int64 {
	ds := make([]time.Duration, len(xs))
	for i, x := range xs {
		ds[i] = time.Duration(x)
	}
	return int64(median(ds))
}

// treeRSS is the resident memory of pid and every process below it, in bytes.
func treeRSS(pid int) int64 {
	children := map[int][]int{}
	rss := map[int]int64{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		if len(f) < 22 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pages, _ := strconv.ParseInt(f[21], 10, 64)
		children[ppid] = append(children[ppid], p)
		rss[p] = pages * int64(os.Getpagesize())
	}
	var total int64
	var walk func(int)
	walk = func(p int) {
		total += rss[p]
		for _, c := range children[p] {
			walk(c)
		}
	}
	walk(pid)
	return total
}
