package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// Two ASCII secrets nothing types, with what JSON, HTML and URLs escape, whose base64 holds
// '+' or '/' at each of the three alignments (so base64url differs from it):
// TestEverySpellingOfAServerSecretIsMasked checks that premise.
const (
	formsServerSecret = "Tok&n<??>-w1de~"
	formsHookSecret   = "H00k&s3cr3t<??>~x"
)

// printForms is a shell script printing the value of the variable name in every spelling
// the scrubber knows, one labelled line each, as a careless server or hook might log a
// credential: raw, JSON- and URL-escaped, HTML-escaped, base64 and base64url (standalone,
// padded and not, and inside a longer encoded text at each alignment), hex in both cases,
// \uXXXX escapes in both cases and the raw UTF-16LE and UTF-16BE bytes. Only POSIX sh, od,
// tr, sed and base64: the value (ASCII) never leaves the script's environment.
func printForms(name string) string {
	v := `"$` + name + `"`
	return strings.NewReplacer("$V", v).Replace(`
printf 'raw %s\n' $V
printf 'raw-stderr %s\n' $V >&2
printf 'json %s\n' "$(printf %s $V | sed 's/&/\\u0026/g; s/</\\u003c/g; s/>/\\u003e/g')"
printf 'url %s\n' "$(printf %s $V | sed 's/%/%25/g; s/&/%26/g; s/</%3C/g; s/>/%3E/g; s/?/%3F/g')"
printf 'html %s\n' "$(printf %s $V | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')"
for pre in '' x xy; do
  b=$(printf '%s%s!' "$pre" $V | base64 | tr -d '\n')
  printf 'base64-%s %s\n' "$pre" "$b"
  printf 'base64url-%s %s\n' "$pre" "$(printf %s "$b" | tr '+/' '-_')"
  printf 'base64url-raw-%s %s\n' "$pre" "$(printf %s "$b" | tr '+/' '-_' | tr -d '=')"
done
printf 'base64-alone %s\n' "$(printf %s $V | base64 | tr -d '\n')"
printf 'base64url-alone %s\n' "$(printf %s $V | base64 | tr -d '\n' | tr '+/' '-_' | tr -d '=')"
printf 'hex %s\n' "$(printf %s $V | od -An -v -tx1 | tr -d ' \n')"
printf 'HEX %s\n' "$(printf %s $V | od -An -v -tx1 | tr -d ' \n' | tr a-f A-F)"
u=; U=; le=; be=
for d in $(printf %s $V | od -An -v -tu1); do
  u="$u$(printf '\\u%04x' "$d")"
  U="$U$(printf '\\u%04X' "$d")"
done
for o in $(printf %s $V | od -An -v -to1); do
  le="$le\\$o\\000"
  be="$be\\000\\$o"
done
printf 'js-escapes %s\n' "$u"
printf 'JS-ESCAPES %s\n' "$U"
printf "utf16le $le\\n"
printf "utf16be $be\\n" >&2
`)
}

// formLabels are the lines printForms writes.
var formLabels = []string{"raw", "raw-stderr", "json", "url", "html", "base64-", "base64url-", "base64url-raw-",
	"base64-x", "base64url-x", "base64url-raw-x", "base64-xy", "base64url-xy", "base64url-raw-xy",
	"base64-alone", "base64url-alone", "hex", "HEX", "js-escapes", "JS-ESCAPES", "utf16le", "utf16be"}

// everySpelling is what no output may hold of s (ASCII): each spelling printForms prints —
// for base64 inside a longer text, the characters that come from s alone — and each of
// those as report.json, report.html and junit.xml escape it. Computed with the standard
// library only, not with the scrubber under test.
func everySpelling(t *testing.T, s string) []string {
	t.Helper()
	var le, be, u, U strings.Builder
	for i := 0; i < len(s); i++ {
		le.WriteString(string([]byte{s[i], 0}))
		be.WriteString(string([]byte{0, s[i]}))
		fmt.Fprintf(&u, `\u%04x`, s[i])
		fmt.Fprintf(&U, `\u%04X`, s[i])
	}
	h := hex.EncodeToString([]byte(s))
	text := append(secretForms(s), h, strings.ToUpper(h), u.String(), U.String(), le.String(), be.String(),
		base64.RawURLEncoding.EncodeToString([]byte(s)), base64.RawStdEncoding.EncodeToString([]byte(s)))
	for shift := range 3 {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", shift) + s + "!"))
		mid := enc[(8*shift+5)/6 : 8*(shift+len(s))/6] // the characters all of whose bits are s's
		if !strings.ContainsAny(mid, "+/") {
			t.Fatalf("the test needs a secret whose base64 holds + or / at alignment %d: %q", shift, mid)
		}
		text = append(text, mid, strings.NewReplacer("+", "-", "/", "_").Replace(mid))
	}
	var all []string
	for _, f := range text {
		j, _ := json.Marshal(f)
		var h, x strings.Builder
		_ = template.Must(template.New("").Parse(`{{.}}`)).Execute(&h, f)
		_ = xml.EscapeText(&x, []byte(f))
		all = append(all, f, string(j[1:len(j)-1]), h.String(), x.String())
	}
	return all
}

// sweepForSpellings fails t for each output holding any of spellings: the texts given and
// every file under dir. It returns how many files it read.
func sweepForSpellings(t *testing.T, spellings []string, dir string, texts map[string][]byte) int {
	t.Helper()
	outputs := map[string][]byte{}
	for name, b := range texts {
		outputs[name] = b
	}
	files := 0
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || !info.Mode().IsRegular() {
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
	for name, b := range outputs {
		for _, f := range spellings {
			if bytes.Contains(b, []byte(f)) {
				t.Errorf("%s holds the secret as %q", name, f)
			}
		}
	}
	return files
}

// TestEverySpellingOfAServerSecretIsMasked is item 2 of issue 30: a managed server and the
// setup and cleanup hooks get a secret through env {"env": …} and print it in every spelling
// the scrubber knows (raw, JSON, URL, HTML, base64 and base64url at each alignment, hex,
// \u escapes, UTF-16 bytes). The scenario fails, so their output logs are kept as evidence;
// FASTBROWSER_DEBUG=1 sends the output to stderr too. run's stdout and stderr, report.json,
// report.html, junit.xml, every artifact (the .log files included) and what `fastbrowser
// report` prints and writes hold neither secret in any spelling.
func TestEverySpellingOfAServerSecretIsMasked(t *testing.T) {
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	addr := freeAddr(t)
	base := "http://" + addr
	hook := func(which string) string {
		j, _ := json.Marshal(map[string]any{"command": "/bin/sh", "args": []string{"-c", "echo " + which + " hook" + printForms("HOOK_TOKEN")},
			"env": map[string]any{"HOOK_TOKEN": map[string]string{"env": "FB_HOOK_SECRET"}}})
		return string(j)
	}
	server, _ := json.Marshal(map[string]any{"command": "/bin/sh", "args": []string{"-c", printForms("FIXTURE_TOKEN") + "exec " + bin + " fixture serve --addr " + addr},
		"env": map[string]any{"FIXTURE_TOKEN": map[string]string{"env": "FB_SERVER_SECRET"}}})
	f := writeScenario(t, dir, "forms.json", fmt.Sprintf(`{
  "version": 1, "id": "secret-forms",
  "fixture": {"baseUrl": %q, "server": {"mode": "managed", "start": %s, "readiness": {"url": %q}}},
  "hooks": {"setup": %s, "cleanup": %s},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/echo"}},
    {"id": "title", "op": "assert", "request": {"kind": "titleContains", "value": "Welcome", "wait": "none"}}
  ]}`, base, server, base+"/health", hook("setup"), hook("cleanup")))
	out := filepath.Join(dir, "out")
	env := map[string]string{"FB_SERVER_SECRET": formsServerSecret, "FB_HOOK_SECRET": formsHookSecret, "FASTBROWSER_DEBUG": "1"}
	res := runCLI(t, env, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, name := range []string{"report.json", "report.html", "junit.xml"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Fatalf("run wrote no %s: %v", name, err)
		}
	}
	// Each source printed every line, and each line reached its log masked: the outputs
	// were there to leak.
	sc := readReport(t, filepath.Join(out, "report.json")).Scenarios[0]
	if len(sc.Diagnostics) != 3 {
		t.Fatalf("diagnostics %+v, want the setup hook, server and cleanup hook logs", sc.Diagnostics)
	}
	for _, m := range sc.Diagnostics {
		b, err := os.ReadFile(filepath.Join(out, "artifacts", m.Path))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			label, rest, _ := strings.Cut(line, " ")
			for _, l := range formLabels {
				if label == l && !strings.Contains(rest, secrets.Mask) {
					t.Errorf("%s: the %s line is not masked: %q", m.Path, label, line)
				}
			}
		}
		for _, l := range formLabels {
			if !bytes.Contains(b, []byte("\n"+l+" ")) {
				t.Errorf("%s has no %s line:\n%s", m.Path, l, b)
			}
		}
	}
	if !strings.Contains(res.stderr, "utf16be "+secrets.Mask) || !strings.Contains(res.stderr, "cleanup hook") {
		t.Errorf("FASTBROWSER_DEBUG stderr lacks the masked server and hook lines:\n%s", res.stderr)
	}

	// `fastbrowser report` prints the summary and writes the HTML report from what run wrote.
	page := filepath.Join(out, "again.html")
	rep := runCLI(t, nil, "report", filepath.Join(out, "report.json"), "--html", page)
	if rep.code != 0 || !strings.Contains(rep.stdout, "secret-forms") {
		t.Fatalf("report: exit %d\n%s%s", rep.code, rep.stdout, rep.stderr)
	}
	texts := map[string][]byte{"run stdout": []byte(res.stdout), "run stderr": []byte(res.stderr),
		"report stdout": []byte(rep.stdout), "report stderr": []byte(rep.stderr)}
	for _, s := range []string{formsServerSecret, formsHookSecret} {
		if n := sweepForSpellings(t, everySpelling(t, s), out, texts); n < 7 {
			t.Errorf("swept %d files, want the three reports, report's HTML page and the artifacts", n)
		}
	}
}
