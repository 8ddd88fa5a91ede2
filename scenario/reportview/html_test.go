package reportview

import (
	"bytes"
	"encoding/base64"
	"html"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

func render(t *testing.T, dir string, rep *scenario.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := HTML(&buf, rep, dir); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestHTMLEscapesReportText(t *testing.T) {
	dir := t.TempDir()
	rep := failingReport(t, dir, `title was <script>alert(1)</script> & "x"`)
	rep.Scenarios[1].ID = `<img src=x onerror=alert(2)>`
	// A dialog's message is the page's own text.
	rep.Scenarios[1].Operations[1].Dialogs = []transport.Dialog{{Type: "alert", Message: `<b onclick=x>hi</b>`, Action: transport.DialogDismissed}}
	out := render(t, dir, rep)
	if strings.Contains(out, "<script>") || strings.Contains(out, "<img src=x") || strings.Contains(out, "<b onclick") {
		t.Fatal("report text reached the page as markup")
	}
	if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Fatal("the escaped message is missing")
	}
	if !strings.Contains(out, `alert dialog dismissed: <span class="mono">&lt;b onclick=x&gt;hi&lt;/b&gt;</span>`) {
		t.Fatal("the dialog is missing or not escaped")
	}
	for _, want := range []string{
		`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'">`,
		`<link rel="icon" href="data:,">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
}

func TestHTMLEmbedsVerifiedEvidence(t *testing.T) {
	dir := t.TempDir()
	rep := failingReport(t, dir, "title did not equal")
	out := render(t, dir, rep)
	png, _ := os.ReadFile(filepath.Join(dir, "sess/run1/a1.png"))
	// Attribute values are entity-escaped ("+" becomes &#43;): compare what the browser reads.
	if !strings.Contains(html.UnescapeString(out), `src="data:image/png;base64,`+base64.StdEncoding.EncodeToString(png)+`"`) {
		t.Error("the screenshot is not embedded as a data URI")
	}
	for _, want := range []string{
		"assertion_failed", "check-title", "verify",
		"Uncaught TypeError: x is undefined",  // console
		"http://127.0.0.1:8080", "http_error", // network
		"textbox &#34;Email&#34;", // outline text
		"redaction_not_proven", "a secret field stayed visible",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(out, "<script") || strings.Contains(out, "evidence file unavailable") {
		t.Fatal("unexpected script or refused evidence")
	}
}

func TestHTMLRefusesUnverifiedEvidence(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string, rep *scenario.Report){
		"sha mismatch": func(t *testing.T, dir string, rep *scenario.Report) {
			p := filepath.Join(dir, "sess/run1/a1.png")
			b, _ := os.ReadFile(p)
			b[len(b)-20] ^= 0xff // same size, different bytes
			os.WriteFile(p, b, 0o600)
		},
		"symlink": func(t *testing.T, dir string, rep *scenario.Report) {
			p := filepath.Join(dir, "sess/run1/a1.png")
			real := filepath.Join(t.TempDir(), "real.png")
			b, _ := os.ReadFile(p)
			os.WriteFile(real, b, 0o600)
			os.Remove(p)
			if err := os.Symlink(real, p); err != nil {
				t.Fatal(err)
			}
		},
		"symlinked directory": func(t *testing.T, dir string, rep *scenario.Report) {
			elsewhere := t.TempDir()
			os.Rename(filepath.Join(dir, "sess/run1"), filepath.Join(elsewhere, "run1"))
			if err := os.Symlink(filepath.Join(elsewhere, "run1"), filepath.Join(dir, "sess/run1")); err != nil {
				t.Fatal(err)
			}
		},
		"size mismatch": func(t *testing.T, dir string, rep *scenario.Report) {
			rep.Scenarios[1].Operations[2].Evidence[0].Bytes--
		},
		"dot dot": func(t *testing.T, dir string, rep *scenario.Report) {
			rep.Scenarios[1].Operations[2].Evidence[0].Path = "sess/../sess/run1/a1.png"
		},
		"absolute": func(t *testing.T, dir string, rep *scenario.Report) {
			rep.Scenarios[1].Operations[2].Evidence[0].Path = filepath.Join(dir, "sess/run1/a1.png")
		},
		"unclean": func(t *testing.T, dir string, rep *scenario.Report) {
			rep.Scenarios[1].Operations[2].Evidence[0].Path = "sess//run1/a1.png"
		},
		"too large": func(t *testing.T, dir string, rep *scenario.Report) {
			rep.Scenarios[1].Operations[2].Evidence[0].Bytes = budgets.ScreenshotBytes + 1 // the screenshot kind's limit
		},
		"not a png": func(t *testing.T, dir string, rep *scenario.Report) {
			// A verified file of the wrong format must still not become an image URI.
			m := writeArtifact(t, dir, "sess/run1/x.png", "screenshot", "image/png", []byte("<svg onload=alert(1)>"))
			rep.Scenarios[1].Operations[2].Evidence[0] = m
		},
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			rep := failingReport(t, dir, "m")
			tamper(t, dir, rep)
			out := render(t, dir, rep)
			if strings.Contains(out, "data:image/png;base64,") {
				t.Fatal("an unverified screenshot was embedded")
			}
			if !strings.Contains(out, "evidence file unavailable") {
				t.Fatal("the refused file is not reported")
			}
			if name != "symlinked directory" && !strings.Contains(out, "Uncaught TypeError") {
				t.Fatal("the other, verified evidence should still show")
			}
		})
	}
}

func TestWriteHTMLFile(t *testing.T) {
	dir := t.TempDir()
	rep := failingReport(t, dir, "the password hunter2 leaked")
	out := filepath.Join(dir, "report.html")
	scrub := secrets.New()
	if err := scrub.Add("hunter2"); err != nil {
		t.Fatal(err)
	}
	// The strictest umask: the file must still come out 0600, not 0000.
	old := syscall.Umask(0o777)
	err := WriteHTMLFile(out, rep, dir, scrub, artifacts.ModePrivate)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(out)
	if bytes.Contains(b, []byte("hunter2")) || !bytes.Contains(b, []byte(secrets.Mask)) {
		t.Fatal("the scrubber was not applied")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".report-*")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}
