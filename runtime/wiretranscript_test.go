package runtime_test

import (
	"bufio"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

var updateTranscript = flag.Bool("update-transcript", false, "rewrite testdata/wire-transcript.golden")

// transcriptScript is what a parent sends: every operation, results and refusals, failure
// evidence on an error, a narrowed context, a popup. SITE is the fixture's origin.
const transcriptScript = `{"v":1,"id":"1","op":"navigate","request":{"url":"SITE/form"}}
{"v":1,"id":"2","op":"read"}
{"v":1,"id":"3","op":"assert","request":{"kind":"titleContains","value":"Sign"}}
{"v":1,"id":"4","op":"assert","request":{"kind":"textContains","value":"Welcome back","wait":"none"}}
{"v":1,"id":"5","op":"navigate","request":{"url":"http://127.0.0.1:9/"}}
{"v":1,"id":"6","op":"listTabs"}
{"v":1,"id":"7","op":"evaluate","request":{"expression":"1+1"}}
{"v":1,"id":"8","op":"navigate","request":{"url":"SITE/controls"}}
{"v":1,"id":"9","op":"observe","request":{"maxNodes":40}}
{"v":1,"id":"10","op":"act","request":{"action":"type","target":{"role":"textbox","name":"Full name"},"text":"Ada Lovelace"}}
{"v":1,"id":"11","op":"act","request":{"action":"select","target":{"role":"combobox","name":"Country"},"option":"Denmark"}}
{"v":1,"id":"12","op":"act","request":{"action":"click","target":{"role":"button","name":"No such button"}}}
{"v":1,"id":"13","op":"narrowOriginPolicy","request":{"origins":["SITE"]}}
{"v":1,"id":"14","op":"read","context":{"origins":["SITE"]}}
{"v":1,"id":"15","op":"navigate","request":{"url":"SITE/popup"}}
{"v":1,"id":"16","op":"act","request":{"action":"click","target":{"role":"button","name":"Open popup"}}}
{"v":1,"id":"17","op":"waitPopup","request":{"opener":"t1"}}
{"v":1,"id":"18","op":"selectTab","request":{"tab":"t2"}}
{"v":1,"id":"19","op":"listTabs","request":{"select":{"kind":"index","index":1}}}
{"v":1,"id":"20","op":"closeTab","request":{"tab":"t2"}}
{"v":1,"id":"21","op":"selectTab","request":{"tab":"t1"}}
{"v":1,"id":"22","op":"reload"}
{"v":1,"id":"23","op":"captureEvidence","request":{"runId":"run-1","operation":"observe"}}
{"v":1,"id":"24","op":"read","request":{"tab":"t9"}}
{"v":1,"id":"25","op":"navigate","request":{"url":"SITE/","bogus":1}}
{"v":1,"id":"26","op":"close"}
`

// volatile are the values that differ between two identical runs: browser build, target and
// document ids, the fixture's port, artifact digests, sizes and timings.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"browser":"[^"]*"`), `"browser":"B"`},
	{regexp.MustCompile(`\b[0-9A-F]{32}\b`), `ID`},
	{regexp.MustCompile(`"(documentId|sha256)":"[^"]*"`), `"$1":"X"`},
	{regexp.MustCompile(`"id":"[^"]*","owner"`), `"id":"X","owner"`},
	{regexp.MustCompile(`"path":"[^"]*","bytes":[0-9]+`), `"path":"X","bytes":0`},
	{regexp.MustCompile(`"dataBase64":"[^"]*","byteLength":[0-9]+`), `"dataBase64":"X","byteLength":0`},
	{regexp.MustCompile(`\b(e|r)[0-9]+\b`), `${1}N`},
}

// lockstep serves rt on protocol v1 to a parent that sends one line at a time and waits for
// its answer, so the served bytes come in one order on every run.
func lockstep(t *testing.T, rt *runtime.Runtime, script string) string {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- wire.Serve(context.Background(), inR, outW, rt, wire.ServerOptions{Ready: transport.ReadyInfo{Browser: rt.BrowserVersion()}})
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	var got strings.Builder
	next := func() {
		line, err := answers.ReadString('\n')
		if err != nil {
			t.Fatalf("served output ended: %v", err)
		}
		got.WriteString(line)
	}
	next() // ready
	for _, line := range strings.SplitAfter(script, "\n") {
		if line == "" {
			continue
		}
		if _, err := io.WriteString(inW, line); err != nil {
			t.Fatal(err)
		}
		next()
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	return got.String()
}

// TestWireTranscriptUnchanged records both wires of one session, byte for byte: what a
// parent reads from the session served on protocol v1 (as `fastbrowser serve` serves it) and
// what the runtime and its worker write to each other. Only values that differ between two
// identical runs are normalised. Refactors must leave the golden file as it is.
func TestWireTranscriptUnchanged(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The worker behind a tee: its stdin and stdout are copied to files as they pass.
	tee := filepath.Join(dir, "tee-worker")
	script := "#!/bin/sh\ntee " + filepath.Join(dir, "to-worker") + " | " + bin + ` worker "$@" | tee ` + filepath.Join(dir, "from-worker") + "\n"
	if err := os.WriteFile(tee, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	store, err := artifacts.Open(filepath.Join(dir, "store"), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rt, err := runtime.Open(context.Background(), runtime.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL},
		WorkerPath: tee, Evidence: &runtime.EvidenceOptions{Store: store, RunID: "run-1", Owner: "transcript", OnFailure: true}})
	if err != nil {
		t.Fatal(err)
	}
	served := lockstep(t, rt, strings.ReplaceAll(transcriptScript, "SITE", site.URL))
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	toWorker, _ := os.ReadFile(filepath.Join(dir, "to-worker"))
	fromWorker, _ := os.ReadFile(filepath.Join(dir, "from-worker"))
	got := "== served\n" + served + "== to worker\n" + string(toWorker) + "== from worker\n" + string(fromWorker)
	got = strings.ReplaceAll(got, site.URL, "SITE")
	got = strings.ReplaceAll(got, strings.TrimPrefix(site.URL, "http://"), "HOST")
	for _, v := range volatile {
		got = v.re.ReplaceAllString(got, v.with)
	}
	golden := filepath.Join("testdata", "wire-transcript.golden")
	if *updateTranscript {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("wire transcript differs at line %d:\n got: %s\nwant: %s", i+1, g, w)
			}
		}
	}
}
