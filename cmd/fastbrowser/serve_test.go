package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestServeReplaysDocumentedTranscript runs docs/transcript.jsonl through `fastbrowser
// serve`, as a parent process in another language would, against the fixture on a free port,
// and checks every answer docs/protocol.md shows.
func TestServeReplaysDocumentedTranscript(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	host := strings.TrimPrefix(site.URL, "http://")
	raw, err := os.ReadFile("../../docs/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	input := strings.ReplaceAll(string(raw), "127.0.0.1:4310", host)
	bin, _ := runtimetest.Binary()
	cmd := exec.Command(bin, "serve", "--allowed-origin", site.URL)
	cmd.Stdin = strings.NewReader(input)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v\n%s", err, stdout.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("serve did not finish the transcript")
	}

	type frame struct {
		ID     string          `json:"id"`
		Ready  json.RawMessage `json:"ready"`
		Result json.RawMessage `json:"result"`
		Error  *struct{ Code, Path string }
	}
	got := map[string]frame{}
	sc := bufio.NewScanner(&stdout)
	first := true
	for sc.Scan() {
		var f frame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("stdout line is not a frame: %q", sc.Text())
		}
		if first != (f.Ready != nil) {
			t.Fatalf("the ready frame must come first and once: %q", sc.Text())
		}
		first = false
		got[f.ID] = f
	}
	want := map[string]string{ // id → "ok" or error code ("" id: the unreadable line)
		"1": "ok", "2": "ok", "3": "ok", "4": "assertion_failed", "5": "origin_denied",
		"6": "ok", "7": "invalid_request", "": "protocol_error", "9": "ok",
	}
	for id, w := range want {
		f, ok := got[id]
		switch {
		case !ok:
			t.Errorf("no answer for id %q", id)
		case w == "ok" && (f.Error != nil || f.Result == nil):
			t.Errorf("id %q: want a result, got %+v", id, f.Error)
		case w != "ok" && (f.Error == nil || f.Error.Code != w):
			t.Errorf("id %q: want error %s, got %+v", id, w, f.Error)
		}
	}
	if r := string(got["2"].Result); !strings.Contains(r, `"tab":"t1"`) || !strings.Contains(r, "Username") {
		t.Errorf("read result %s", r)
	}
}
