package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestSessionTLSTrust is issue 27's TLS acceptance at the session level, every command its
// own process: a site of a private CA fails tls_failed without --trusted-ca and opens
// tls_verified with it; list shows the capability; with --client-cert the mTLS site loads
// between commands, and the origin with no certificate configured is refused saying so;
// session.json keeps the paths alone, and nothing of the key reaches any output, the state
// directory (history.jsonl, session.json) or the host's debug log.
func TestSessionTLSTrust(t *testing.T) {
	f := runtimetest.NewTLSFixture(t)
	s := newSessionCLI(t)

	refused := s.run(sessionCmdOpts{}, "session", "open", f.Site.URL+"/")
	refused.want(t, "open without --trusted-ca", exitFailed, sessions.CodeOperationFailed)
	if c := refused.str("error", "cause"); c != "tls_failed" || !strings.Contains(refused.str("error", "message"), f.Site.URL) {
		t.Fatalf("open without --trusted-ca: cause %q, message %q; want tls_failed naming %s", c, refused.str("error", "message"), f.Site.URL)
	}

	missing := filepath.Join(t.TempDir(), "missing.pem")
	bad := s.run(sessionCmdOpts{}, "session", "open", "--trusted-ca", missing, f.Site.URL+"/")
	bad.want(t, "open with a --trusted-ca that does not exist", exitFailed, sessions.CodeInvalidInput)
	if m := bad.str("error", "message"); !strings.Contains(m, "--trusted-ca") || !strings.Contains(m, missing) {
		t.Fatalf("a missing --trusted-ca: message %q, want the flag and the file", m)
	}
	usage := s.run(sessionCmdOpts{}, "session", "open", "--client-cert", "http://127.0.0.1:1="+f.ClientCert+","+f.ClientKey, f.Site.URL+"/")
	usage.want(t, "--client-cert for an http origin", exitInvalid, sessions.CodeInvalidInput)

	certFlag := f.MTLS.URL + "=" + f.ClientCert + "," + f.ClientKey
	r := s.run(sessionCmdOpts{env: []string{"FASTBROWSER_DEBUG=1"}}, "session", "open", "--trusted-ca", f.CAFile, "--client-cert", certFlag,
		"--allowed-origin", f.Site.URL, "--allowed-origin", f.MTLS.URL, "--allowed-origin", f.OtherMTLS.URL, f.Site.URL+"/")
	id := r.str("id")
	if r.code != 0 || id == "" {
		t.Fatalf("open with --trusted-ca: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	t.Cleanup(func() { s.run(sessionCmdOpts{}, "session", "close", id) })
	if r.obj["tls_verified"] != true || r.str("title") != runtimetest.TLSPageTitle {
		t.Fatalf("open with --trusted-ca: tls_verified %v, title %q\n%s", r.obj["tls_verified"], r.str("title"), r.stdout)
	}

	list := s.run(sessionCmdOpts{}, "session", "list")
	if caps, _ := list.obj["capabilities"].([]any); !slices.Contains(caps, any("trusted_cas")) {
		t.Fatalf("list: capabilities %v\n%s", list.obj["capabilities"], list.stdout)
	}

	mtls := s.do(id, `{"op":"navigate","request":{"url":"`+f.MTLS.URL+`/"}}`)
	if mtls.str("status") != sessions.StatusDone || mtls.obj["tls_verified"] != true || mtls.str("page", "title") != runtimetest.TLSPageTitle {
		t.Fatalf("the mTLS site with --client-cert: exit %d\n%s", mtls.code, mtls.stdout)
	}
	other := s.do(id, `{"op":"navigate","request":{"url":"`+f.OtherMTLS.URL+`/"}}`)
	if other.str("status") != sessions.StatusFailed || other.str("error", "cause") != "tls_failed" ||
		!strings.Contains(other.str("error", "message"), "client certificate required") {
		t.Fatalf("the mTLS site with no certificate for its origin: exit %d\n%s", other.code, other.stdout)
	}

	rec := s.record(id)
	want := []sessions.ClientCertificateFiles{{Origin: f.MTLS.URL, Cert: f.ClientCert, Key: f.ClientKey}}
	if !slices.Equal(rec.Options.ClientCertificates, want) || !slices.Equal(rec.Options.TrustedCAs, []string{f.CAFile}) {
		t.Fatalf("session.json options: %+v %+v", rec.Options.ClientCertificates, rec.Options.TrustedCAs)
	}
	dir := s.sessionDir(id)
	for _, name := range []string{"history.jsonl", "host.log"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatalf("no %s to sweep: %v", name, err)
		}
	}
	if len(f.KeyLines) == 0 {
		t.Fatal("the fixture's key has no lines to look for")
	}
	for _, line := range f.KeyLines {
		sweepForSecret(t, line, s.state, s.printed)
	}
}
