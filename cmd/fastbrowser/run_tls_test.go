package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestRunConfigTLS is issue 27's TLS acceptance for run: a scenario against the HTTPS and
// mTLS fixtures passes with fastbrowser.json's tls (files relative to the config), fails
// tls_failed without it, and a malformed tls is refused before anything runs, naming the
// field. Nothing of the key reaches the output or the report directory.
func TestRunConfigTLS(t *testing.T) {
	f := runtimetest.NewTLSFixture(t)
	dir := t.TempDir()
	files := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for name, src := range map[string]string{"pki/ca.pem": f.CAFile, "pki/client.pem": f.ClientCert, "pki/client-key.pem": f.ClientKey} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	files["tls.json"] = fmt.Sprintf(`{"version": 1, "id": "tls", "allowedOrigins": [%q, %q], "operations": [
    {"op": "navigate", "request": {"url": %q}},
    {"op": "assert", "request": {"kind": "title", "value": %q}},
    {"op": "navigate", "request": {"url": %q}},
    {"op": "assert", "request": {"kind": "title", "value": %q}}]}`,
		f.Site.URL, f.MTLS.URL, f.Site.URL+"/", runtimetest.TLSPageTitle, f.MTLS.URL+"/", runtimetest.TLSPageTitle)
	config := func(tls string) string { return `{"version": 1, "jobs": 1` + tls + `}` }
	files["with-tls.json"] = config(fmt.Sprintf(`, "tls": {"trustedCAs": ["pki/ca.pem"],
  "clientCertificates": [{"origin": %q, "cert": "pki/client.pem", "key": "pki/client-key.pem"}]}`, f.MTLS.URL))
	files["without-tls.json"] = config("")
	files["bad-tls.json"] = config(`, "tls": {"clientCertificates": [{"origin": "http://127.0.0.1:1", "cert": "pki/client.pem", "key": "pki/client-key.pem"}]}`)
	runtimetest.WriteFiles(t, dir, files)
	scenario := filepath.Join(dir, "tls.json")
	out := filepath.Join(dir, "out")

	printed := map[string][]byte{}
	res := runCLI(t, nil, "run", "--out", out, "--config", filepath.Join(dir, "with-tls.json"), scenario)
	printed["with stdout"], printed["with stderr"] = []byte(res.stdout), []byte(res.stderr)
	if res.code != 0 {
		t.Fatalf("run with the config's tls: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	res = runCLI(t, nil, "run", "--out", out+"-without", "--config", filepath.Join(dir, "without-tls.json"), scenario)
	if res.code != exitFailed || !strings.Contains(res.stdout, "tls_failed") || !strings.Contains(res.stdout, f.Site.URL) {
		t.Fatalf("run without tls: exit %d, want %d with tls_failed naming %s\n%s%s", res.code, exitFailed, f.Site.URL, res.stdout, res.stderr)
	}

	res = runCLI(t, nil, "run", "--out", out+"-bad", "--config", filepath.Join(dir, "bad-tls.json"), scenario)
	printed["bad stdout"], printed["bad stderr"] = []byte(res.stdout), []byte(res.stderr)
	if res.code != exitInvalid || !strings.Contains(res.stderr, "tls.clientCertificates[0].origin") || !strings.Contains(res.stderr, "expected an https origin") {
		t.Fatalf("a malformed tls: exit %d, want %d naming the field\n%s%s", res.code, exitInvalid, res.stdout, res.stderr)
	}

	for _, line := range f.KeyLines {
		sweepForSecret(t, line, out, printed)
	}
}
