package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"html/template"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

const leakSecret = "Hunter2-Tok&n<42>"

// secretForms are the encodings a sweep must not find anywhere: the raw value, what a page
// or a report makes of it (URL, base64, JSON, HTML), what the outline and %q messages make
// of it (Go quoting), and that quoting as report.json, report.html and junit.xml write it.
func secretForms(s string) []string {
	j, _ := json.Marshal(s)
	quoted := strconv.Quote(s)
	quoted = quoted[1 : len(quoted)-1]
	jq, _ := json.Marshal(quoted)
	var tmpl, xmlRaw, xmlQuoted strings.Builder
	_ = template.Must(template.New("").Parse(`{{.}}`)).Execute(&tmpl, s)
	_ = xml.EscapeText(&xmlRaw, []byte(s))
	_ = xml.EscapeText(&xmlQuoted, []byte(quoted))
	// The test's own encodings, written out here independently of the scrubber, and then
	// every spelling the scrubber itself masks (secrets.Forms: hex, UTF-16, folded, …).
	return append([]string{s, url.QueryEscape(s), url.PathEscape(s), strings.ReplaceAll(url.QueryEscape(s), "+", "%20"),
		base64.StdEncoding.EncodeToString([]byte(s)), base64.URLEncoding.EncodeToString([]byte(s)),
		string(j[1 : len(j)-1]), html.EscapeString(s), tmpl.String(), xmlRaw.String(),
		quoted, string(jq[1 : len(jq)-1]), html.EscapeString(quoted), xmlQuoted.String()}, secrets.Forms(s)...)
}

// sweepForSecret fails t for each output holding secret in any of secretForms: the texts
// given (stdout, stderr, a serve transcript…) and every file under dir (reports,
// artifacts). It returns how many files it read.
func sweepForSecret(t *testing.T, secret, dir string, texts map[string][]byte) int {
	t.Helper()
	outputs := map[string][]byte{}
	for name, b := range texts {
		outputs[name] = b
	}
	files := 0
	if dir != "" {
		err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil || !info.Mode().IsRegular() { // not a session's socket
				return err
			}
			b, err := os.ReadFile(p)
			outputs[p] = b
			files++
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range outputs {
		for _, form := range secretForms(secret) {
			if bytes.Contains(b, []byte(form)) {
				t.Errorf("%s holds the secret as %q", name, form)
			}
		}
	}
	return files
}

// TestSecretNeverLeaks is the evidence issue's acceptance 1: a secret from the environment is
// typed into a text field and a password field of a page that echoes it into its text,
// title, URL query and console; the scenario then fails. stdout, stderr, report.json,
// report.html and every artifact are free of the secret in all its encodings, and the
// failure kept a screenshot (both fields masked: the redaction was proven).
func TestSecretNeverLeaks(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "leak.json", fmt.Sprintf(`{
  "version": 1, "id": "secret-echo",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/echo"}},
    {"id": "token", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Token"}, "text": {"env": "PORTAL_TOKEN"}}},
    {"id": "password", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Password"}, "text": {"env": "PORTAL_TOKEN"}}},
    {"id": "read", "op": "read"},
    {"id": "title", "op": "assert", "request": {"kind": "titleContains", "value": "Welcome", "wait": "none"}}
  ]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	res := runCLI(t, map[string]string{"PORTAL_TOKEN": leakSecret}, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	failed := r.Scenarios[0].Operations[4]
	if failed.Error == nil || failed.Error.Code != "assertion_failed" {
		t.Fatalf("failing operation %+v\n%s", failed, res.stdout)
	}
	var shot string
	for _, m := range failed.Evidence {
		if m.Kind == "screenshot" {
			shot = filepath.Join(out, "artifacts", m.Path)
		}
	}
	if shot == "" {
		t.Fatalf("no screenshot kept: evidence %+v unavailable %+v", failed.Evidence, failed.EvidenceUnavailable)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("screenshot %v mode %v", err, fi)
	}
	if b, _ := os.ReadFile(shot); len(b) == 0 {
		t.Fatal("empty screenshot")
	} else if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if !strings.Contains(string(r.Scenarios[0].Operations[3].Result), "[secret]") {
		t.Errorf("the read result does not show the masked echo: %s", r.Scenarios[0].Operations[3].Result)
	}
	for _, want := range []string{"report.json", "report.html", "junit.xml"} {
		if _, err := os.Stat(filepath.Join(out, want)); err != nil {
			t.Errorf("%s was not written", want)
		}
	}
	sweepForSecret(t, leakSecret, out, map[string][]byte{"stdout": []byte(res.stdout), "stderr": []byte(res.stderr)})
}

// TestRedactionNotProvenInRun is acceptance 2: a redaction rule matching a field the mask
// cannot cover (a modal dialog) keeps no screenshot and says redaction_not_proven, and the
// scenario's error is still the assertion that failed.
func TestRedactionNotProvenInRun(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "unmaskable.json", fmt.Sprintf(`{
  "version": 1, "id": "unmaskable",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "redaction": {"rules": [{"label": "Account number"}]},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/unmaskable"}},
    {"id": "title", "op": "assert", "request": {"kind": "title", "value": "Welcome", "wait": "none"}}
  ]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	op := readReport(t, filepath.Join(out, "report.json")).Scenarios[0].Operations[1]
	if op.Error == nil || op.Error.Code != "assertion_failed" {
		t.Fatalf("error %+v", op.Error)
	}
	for _, m := range op.Evidence {
		if m.Kind == "screenshot" {
			t.Fatalf("screenshot kept: %+v", m)
		}
	}
	proven := true
	for _, u := range op.EvidenceUnavailable {
		if u.Part == "screenshot" && u.Code == "redaction_not_proven" {
			proven = false
		}
	}
	if proven {
		t.Fatalf("unavailable %+v", op.EvidenceUnavailable)
	}
	shots, _ := filepath.Glob(filepath.Join(out, "artifacts", "*", "*", "*.png"))
	if len(shots) != 0 {
		t.Fatalf("png files on disk: %v", shots)
	}
}

// TestRunScreenshotOperation: a scenario file's screenshot op keeps a redacted PNG in the
// run's artifacts and reports its metadata as the operation's result; on a page whose masking
// cannot be proven it fails the scenario with redaction_not_proven and keeps nothing more.
func TestRunScreenshotOperation(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "shots.json", fmt.Sprintf(`{
  "version": 1, "id": "shots",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "redaction": {"rules": [{"label": "Account number"}]},
  "operations": [
    {"op": "navigate", "request": {"url": "/form"}},
    {"id": "form", "op": "screenshot"},
    {"op": "navigate", "request": {"url": "/unmaskable"}},
    {"id": "modal", "op": "screenshot", "request": {"tab": {"source": "initial", "target": "selected"}}}
  ]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	// --trace off: the PNGs counted are the screenshot operation's (a step trace keeps its own).
	res := runCLI(t, nil, "run", "--trace", "off", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	ops := readReport(t, filepath.Join(out, "report.json")).Scenarios[0].Operations
	var shot struct {
		Artifact struct{ Kind, Path string }
	}
	if ops[1].Status != "passed" || json.Unmarshal(ops[1].Result, &shot) != nil || shot.Artifact.Kind != "screenshot" {
		t.Fatalf("screenshot op: %s %s", ops[1].Status, ops[1].Result)
	}
	if _, err := os.Stat(filepath.Join(out, "artifacts", shot.Artifact.Path)); err != nil {
		t.Fatalf("the screenshot is not in the run's artifacts: %v", err)
	}
	if ops[3].Error == nil || ops[3].Error.Code != "redaction_not_proven" {
		t.Fatalf("unmaskable screenshot: %s %+v", ops[3].Status, ops[3].Error)
	}
	shots, _ := filepath.Glob(filepath.Join(out, "artifacts", "*", "*", "*.png"))
	if len(shots) != 1 {
		t.Fatalf("png files on disk: %v, want the one of /form", shots)
	}
}
