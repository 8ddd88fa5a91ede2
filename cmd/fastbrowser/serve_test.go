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

// TestServeCaptureEvidence: with --artifacts, a protocol caller's captureEvidence answers
// with artifact metadata (never bytes), the files are private, and a failed operation's
// error carries its failure evidence.
func TestServeCaptureEvidence(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir() + "/evidence"
	input := strings.Join([]string{
		`{"v":1,"id":"1","op":"navigate","request":{"url":"` + site.URL + `/form"}}`,
		`{"v":1,"id":"2","op":"captureEvidence","request":{"runId":"r1","operation":"observe"}}`,
		`{"v":1,"id":"3","op":"assert","request":{"kind":"title","value":"Nope","wait":"none"}}`,
		`{"v":1,"id":"4","op":"close"}`,
	}, "\n") + "\n"
	bin, _ := runtimetest.Binary()
	cmd := exec.Command(bin, "serve", "--allowed-origin", site.URL, "--artifacts", dir)
	cmd.Stdin = strings.NewReader(input)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stdout.String())
	}
	type meta struct{ Kind, Path, SHA256 string }
	var capture struct {
		Result struct {
			Artifacts []meta `json:"artifacts"`
			Payloads  []any  `json:"payloads"`
		} `json:"result"`
	}
	var failed struct {
		Error struct {
			Code     string `json:"code"`
			Evidence []meta `json:"evidence"`
		} `json:"error"`
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		switch {
		case strings.Contains(line, `"id":"2"`):
			_ = json.Unmarshal([]byte(line), &capture)
		case strings.Contains(line, `"id":"3"`):
			_ = json.Unmarshal([]byte(line), &failed)
		}
		if strings.Contains(line, "dataBase64") {
			t.Fatalf("evidence bytes reached the caller: %.200s", line)
		}
	}
	if len(capture.Result.Artifacts) != 4 || capture.Result.Payloads != nil {
		t.Fatalf("captureEvidence answer: %s", stdout.String())
	}
	for _, m := range capture.Result.Artifacts {
		fi, err := os.Stat(dir + "/" + m.Path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", m.Path, fi, err)
		}
	}
	if failed.Error.Code != "assertion_failed" || len(failed.Error.Evidence) == 0 {
		t.Fatalf("failed assert: %+v", failed.Error)
	}
}
