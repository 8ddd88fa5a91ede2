package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// Secrets the session holds but never types (Options.Secrets: `serve --secret-env`, a
// scenario's server and hook env): the page shows them anyway, here because they are typed
// as literal text into /clip, which echoes the field so that a secret straddles read's and
// the outline's bounds.
const (
	atOpen    = "At0pen-T0k&n<42>" // in the Set when the session opens
	meanwhile = "Me4nw-h1le&n<43>" // added while the session runs
)

// noHead fails when text holds the first 4 or more characters of secret.
func noHead(t *testing.T, where, text, secret string) {
	t.Helper()
	for n := len(secret); n >= 4; n-- {
		if i := strings.Index(text, secret[:n]); i >= 0 {
			t.Errorf("%s holds %q, the first %d characters of a secret: …%s", where, secret[:n], n, text[max(0, i-20):min(len(text), i+n+10)])
			return
		}
	}
}

// showOnClip loads /clip and types v into Token as plain text: the act does not tell the
// worker it is a secret.
func showOnClip(t *testing.T, rt transport.Caller, site, v string) {
	t.Helper()
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site + "/clip"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Token")}, Text: transport.Literal(v)}); err != nil {
		t.Fatal(err)
	}
}

// TestUntypedSecretNeverCut is item 7b of issue 30: a secret in the session's Set that no act
// typed, whether there when the session opened or added while it runs, straddles the end of
// read's 20000 characters and the 200-character cut of an outline name and text, and
// leaves no part of itself in read's text or the outline: the runtime hands it to the
// worker, which masks it before it cuts.
func TestUntypedSecretNeverCut(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	set := secrets.New()
	if err := set.Add(atOpen); err != nil {
		t.Fatal(err)
	}
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Secrets: set})
	for _, secret := range []string{atOpen, meanwhile} {
		if secret == meanwhile {
			if err := set.Add(meanwhile); err != nil {
				t.Fatal(err)
			}
		}
		showOnClip(t, rt, site.URL, secret)
		rd, err := transport.Dispatch(bg, rt, transport.Read{})
		if err != nil {
			t.Fatal(err)
		}
		if !rd.Truncated || !strings.HasPrefix(rd.Text, strings.Repeat("x", 19994)) || len(rd.Text) > 20000 {
			t.Fatalf("read: truncated %v, %d bytes, starting %q", rd.Truncated, len(rd.Text), rd.Text[:min(len(rd.Text), 20)])
		}
		noHead(t, "read's text", rd.Text, secret)
		ob := observe(t, rt)
		if !strings.Contains(ob.Text, strings.Repeat("x", 193)) {
			t.Fatalf("the echo is not in the outline:\n%s", ob.Text)
		}
		nodes, _ := json.Marshal(ob.Nodes)
		noHead(t, "the outline's text", ob.Text, secret)
		noHead(t, "the outline's nodes", string(nodes), secret)
	}
}

// TestWorkerToldOnlyWhatItLacks reads both wires' worker half: a session whose only secret is
// typed sends the worker nothing new (the act carries it); a secret added to the Set later
// goes to the worker once, alone, in one maskSecrets frame before the next call, and never
// reaches the worker's stderr (FASTBROWSER_DEBUG's log).
func TestWorkerToldOnlyWhatItLacks(t *testing.T) {
	t.Parallel()
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
	toWorker := filepath.Join(dir, "to-worker")
	tee := filepath.Join(dir, "tee-worker")
	if err := os.WriteFile(tee, []byte("#!/bin/sh\ntee "+toWorker+" | "+bin+" worker \"$@\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	set := secrets.New()
	log := &proctest.SyncBuffer{}
	rt, err := runtime.Open(context.Background(), runtime.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, WorkerPath: tee,
		Secrets: set, Log: log, LookupEnv: func(name string) (string, bool) { return atOpen, name == "PORTAL_TOKEN" }})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := rt.Close(); err != nil {
			t.Error(err)
		}
	}()
	frames := func() []string {
		b, _ := os.ReadFile(toWorker) // tee wrote each frame before the worker answered it
		var masks []string
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, `"op":"maskSecrets"`) {
				masks = append(masks, line)
			}
		}
		return masks
	}
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/clip"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Token")}, Text: transport.FromEnv("PORTAL_TOKEN")}); err != nil {
		t.Fatal(err)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	noHead(t, "read's text", rd.Text, atOpen)
	if got := frames(); len(got) != 0 {
		t.Fatalf("a session whose only secret is typed sent %q", got)
	}
	if err := set.Add(meanwhile); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := transport.Dispatch(bg, rt, transport.Read{}); err != nil {
			t.Fatal(err)
		}
	}
	got := frames()
	var frame struct{ Request transport.MaskSecrets }
	if len(got) != 1 || json.Unmarshal([]byte(got[0]), &frame) != nil || strings.Join(frame.Request.Values, ",") != meanwhile {
		t.Fatalf("maskSecrets frames %q, want one carrying only the secret added", got)
	}
	for _, secret := range []string{atOpen, meanwhile} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("the worker's log holds a secret:\n%s", log.String())
		}
	}
}

// TestMaskSecretsIsTheRuntimes: a caller of a session cannot send the worker's own operation.
func TestMaskSecretsIsTheRuntimes(t *testing.T) {
	t.Parallel()
	rt := runtimetest.Open(t)
	_, err := rt.Call(bg, &transport.MaskSecrets{Values: []string{atOpen}}, nil)
	oe := transport.AsOperationError("", err)
	if oe == nil || oe.Code != transport.CodeInvalidRequest || oe.Path != "op" || strings.Contains(oe.Message, atOpen) {
		t.Fatalf("Call(maskSecrets) = %v, want invalid_request at op", err)
	}
}
