package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	htmltemplate "html/template"
	"net/url"
	"strings"
	"sync"
	"testing"
	"text/template"
)

// secret exercises every escaper: a space, URL-reserved '@' and '/', HTML and JSON
// specials, both quotes and a non-ASCII letter.
const secret = `p@ss w0rd/<&>"'é`

func newSet(t testing.TB, values ...string) *Set {
	t.Helper()
	s := New()
	for _, v := range values {
		if err := s.Add(v); err != nil {
			t.Fatalf("Add: %v", err)
		}
	}
	return s
}

func TestEveryFormIsScrubbed(t *testing.T) {
	s := newSet(t, secret)
	marshalled, _ := json.Marshal(secret)
	forms := map[string]string{
		"raw":                secret,
		"QueryEscape":        url.QueryEscape(secret),
		"QueryEscape %20":    strings.ReplaceAll(url.QueryEscape(secret), "+", "%20"),
		"PathEscape":         url.PathEscape(secret),
		"encodeURIComponent": `p%40ss%20w0rd%2F%3C%26%3E%22'%C3%A9`,
		"form-urlencoded":    `p%40ss+w0rd%2F%3C%26%3E%22%27%C3%A9`,
		"base64 std":         base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64 url":         base64.URLEncoding.EncodeToString([]byte(secret)),
		"base64 raw std":     base64.RawStdEncoding.EncodeToString([]byte(secret)),
		"base64 raw url":     base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"json":               string(marshalled[1 : len(marshalled)-1]),
		"json no html":       `p@ss w0rd/<&>\"'é`,
		"json ascii":         `p@ss w0rd/\u003c\u0026\u003e\"'\u00e9`,
		"json ascii no html": `p@ss w0rd/<&>\"'\u00e9`,
		"html.EscapeString":  html.EscapeString(secret),
		"HTMLEscapeString":   template.HTMLEscapeString(secret),
		"innerHTML text":     `p@ss w0rd/&lt;&amp;&gt;"'é`,
		"innerHTML attr":     `p@ss w0rd/<&amp;>&quot;'é`,
		// The project's own emitters, and what each is written into.
		"%q":                 `p@ss w0rd/<&>\"'é`,
		"%+q":                `p@ss w0rd/<&>\"'\u00e9`,
		"%q in json":         `p@ss w0rd/\u003c\u0026\u003e\\\"'é`,
		"%q in json no html": `p@ss w0rd/<&>\\\"'é`,
		"%q in report.html":  `p@ss w0rd/&lt;&amp;&gt;\&#34;&#39;é`,
		"html/template":      `p@ss w0rd/&lt;&amp;&gt;&#34;&#39;é`,
		"junit.xml":          `p@ss w0rd/&lt;&amp;&gt;&#34;&#39;é`,
		"%+q in json":        `p@ss w0rd/\u003c\u0026\u003e\\\"'\\u00e9`,
		// Bytes dumped by a server or hook, and UTF-16 from another runtime.
		"hex":                  hex.EncodeToString([]byte(secret)),
		"HEX":                  strings.ToUpper(hex.EncodeToString([]byte(secret))),
		"\\u escapes":          `\u0070\u0040\u0073\u0073\u0020\u0077\u0030\u0072\u0064\u002f\u003c\u0026\u003e\u0022\u0027\u00e9`,
		"\\U escapes":          `\u0070\u0040\u0073\u0073\u0020\u0077\u0030\u0072\u0064\u002F\u003C\u0026\u003E\u0022\u0027\u00E9`,
		"\\u escapes in json":  `\\u0070\\u0040\\u0073\\u0073\\u0020\\u0077\\u0030\\u0072\\u0064\\u002f\\u003c\\u0026\\u003e\\u0022\\u0027\\u00e9`,
		"\\U escapes in json":  `\\u0070\\u0040\\u0073\\u0073\\u0020\\u0077\\u0030\\u0072\\u0064\\u002F\\u003C\\u0026\\u003E\\u0022\\u0027\\u00E9`,
		"UTF-16LE":             utf16LE,
		"UTF-16BE":             utf16BE,
		"UTF-16LE in json":     jsonBody(utf16LE),
		"UTF-16BE in json":     jsonBody(utf16BE),
		"UTF-16LE report.html": reportHTML(utf16LE),
		"UTF-16BE report.html": reportHTML(utf16BE),
		"UTF-16LE junit.xml":   xmlText(utf16LE),
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			in := "before " + form + " after"
			if got, want := s.Scrub(in), "before "+Mask+" after"; got != want {
				t.Errorf("Scrub(%q) = %q, want %q", in, got, want)
			}
			if got := string(s.ScrubBytes([]byte(in))); got != "before "+Mask+" after" {
				t.Errorf("ScrubBytes(%q) = %q", in, got)
			}
		})
	}
}

// utf16LE and utf16BE are secret's UTF-16 bytes, written out so the test does not share the
// encoder it checks.
const (
	utf16LE = "p\x00@\x00s\x00s\x00 \x00w\x000\x00r\x00d\x00/\x00<\x00&\x00>\x00\"\x00'\x00\xe9\x00"
	utf16BE = "\x00p\x00@\x00s\x00s\x00 \x00w\x000\x00r\x00d\x00/\x00<\x00&\x00>\x00\"\x00'\x00\xe9"
)

// jsonBody is s as json.Marshal writes it (report.json), without the quotes.
func jsonBody(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// reportHTML is s as html/template writes it (report.html).
func reportHTML(s string) string {
	var b strings.Builder
	_ = htmltemplate.Must(htmltemplate.New("").Parse(`{{.}}`)).Execute(&b, s)
	return b.String()
}

// xmlText is s as encoding/xml escapes it (junit.xml).
func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// TestUTF16SurrogatePairs: above the Basic Multilingual Plane a character is two UTF-16
// units, escaped as two \u and written as four bytes.
func TestUTF16SurrogatePairs(t *testing.T) {
	const emoji = "key\U0001F600"
	s := newSet(t, emoji)
	for name, form := range map[string]string{
		"\\u":      `\u006b\u0065\u0079\ud83d\ude00`,
		"\\U":      `\u006B\u0065\u0079\uD83D\uDE00`,
		"UTF-16LE": "k\x00e\x00y\x00\x3d\xd8\x00\xde",
		"UTF-16BE": "\x00k\x00e\x00y\xd8\x3d\xde\x00",
	} {
		if got := s.Scrub("<" + form + ">"); got != "<"+Mask+">" {
			t.Errorf("%s: Scrub(%q) = %q", name, form, got)
		}
	}
}

// TestSpacedSecretForms covers a secret with a tab, a newline, a run of spaces and '+':
// the outline folds the white space, %q writes \t and \n, junit.xml writes &#x9; and
// &#xA;, and report.html writes '+' as &#43;.
func TestSpacedSecretForms(t *testing.T) {
	const spaced = "a+b\tc\nd  e"
	s := newSet(t, spaced)
	for name, form := range map[string]string{
		"outline fold":       "a+b c d e",
		"innerText collapse": "a+b c d e",
		"%q":                 `a+b\tc\nd  e`,
		"%q of the fold":     `a+b c d e`,
		"junit attribute":    "a+b&#x9;c&#xA;d  e",
		"junit text block":   "a+b&#x9;c\nd  e",
		"report.html":        "a&#43;b\tc\nd  e",
		"%q in report.html":  `a&#43;b\tc\nd  e`,
		"%q in json":         `a+b\\tc\\nd  e`,
	} {
		in := "before " + form + " after"
		if got, want := s.Scrub(in), "before "+Mask+" after"; got != want {
			t.Errorf("%s: Scrub(%q) = %q, want %q", name, in, got, want)
		}
	}
}

// TestScrubJSONFindsEscapedText covers text that was already escaped once before it was
// put in JSON (here a page's outerHTML, whose attribute escaping JSON then escapes again):
// no form list covers every pair of layers, so ScrubJSON scrubs the strings decoded. The
// rest of the document stays as it was, byte for byte.
func TestScrubJSONFindsEscapedText(t *testing.T) {
	const quoted = `ab\cd"ef`
	s := newSet(t, quoted)
	inner, _ := json.Marshal(`<input value="ab\cd&quot;ef">`)
	doc := "{\n  \"html\": " + string(inner) + ",\n  \"n\": 1.50,\n  \"keep\": \"<&>\"\n}\n"
	if got := string(s.ScrubBytes([]byte(doc))); got != doc {
		t.Fatalf("the byte forms already cover this case; the test needs another: %s", got)
	}
	got := string(s.ScrubJSON([]byte(doc)))
	want := "{\n  \"html\": \"\\u003cinput value=\\\"" + Mask + "\\\"\\u003e\",\n  \"n\": 1.50,\n  \"keep\": \"<&>\"\n}\n"
	if got != want {
		t.Errorf("ScrubJSON\n got %s\nwant %s", got, want)
	}
	// Nothing to mask: the very bytes come back; invalid JSON is scrubbed as bytes.
	clean := []byte(`{"a": "b" }`)
	if got := s.ScrubJSON(clean); &got[0] != &clean[0] {
		t.Errorf("clean document copied")
	}
	if got := string(s.ScrubJSON([]byte("{" + quoted))); got != "{"+Mask {
		t.Errorf("invalid JSON: %q", got)
	}
}

// TestBase64InsideLongerValue covers HTTP basic auth: base64("user:" + secret) holds no
// standalone encoding of the secret, at any of the three alignments, in standard base64 and
// base64url (a JWT's or a URL's), padded or not.
func TestBase64InsideLongerValue(t *testing.T) {
	s := newSet(t, secret)
	for _, user := range []string{"a:", "ab:", "abc:"} {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			whole := enc.EncodeToString([]byte(user + secret + "!tail"))
			got := s.Scrub("Authorization: Basic " + whole)
			if !strings.Contains(got, Mask) {
				t.Errorf("user %q: %q not masked", user, whole)
			}
			// What is left of the encoding beside the Mask is at most the characters
			// that mix in neighbouring bytes.
			rest := strings.TrimPrefix(got, "Authorization: Basic ")
			if left := len(rest) - len(Mask); left > len(whole)-len(secret)*4/3+4 {
				t.Errorf("user %q: too much left unmasked: %q", user, rest)
			}
		}
	}
}

func TestShortValuesRefused(t *testing.T) {
	s := New()
	for _, v := range []string{"", "a", "abc", "é€ü"} {
		err := s.Add(v)
		// The very sentinel, so nothing of the value can be in its text.
		if err != ErrTooShort {
			t.Errorf("Add(%q) = %v, want ErrTooShort", v, err)
		}
		if len(v) >= 3 && strings.Contains(err.Error(), v) {
			t.Errorf("error %q contains the value %q", err, v)
		}
		if err := s.AddDerived(v); !errors.Is(err, ErrTooShort) {
			t.Errorf("AddDerived(%q) = %v, want ErrTooShort", v, err)
		}
	}
	if n := s.Len(); n != 0 {
		t.Errorf("Len = %d after refusals, want 0", n)
	}
	if got := s.Scrub("abc abc"); got != "abc abc" {
		t.Errorf("refused value masked: %q", got)
	}
	if err := s.Add("abcd"); err != nil {
		t.Errorf("Add(4 characters) = %v", err)
	}
	if err := s.Add("éèêë"); err != nil { // 4 runes, 8 bytes
		t.Errorf("Add(4 runes) = %v", err)
	}
}

func TestValueInsideMaskRefused(t *testing.T) {
	s := New()
	for _, v := range []string{"cret", "[secret]", "secret"} {
		if err := s.Add(v); err != ErrInsideMask {
			t.Errorf("Add(%q) = %v, want ErrInsideMask", v, err)
		}
	}
}

func TestUnrelatedTextUnchanged(t *testing.T) {
	texts := []string{"", "\n", "hello world", "p@ss w0rd", "p@ss w0rd/<&>\"'", "é", strings.Repeat("x", 1<<16)}
	for _, s := range []*Set{New(), newSet(t, secret)} {
		for _, text := range texts {
			if got := s.Scrub(text); got != text {
				t.Errorf("Scrub(%.40q) = %.40q", text, got)
			}
			b := []byte(text)
			if got := s.ScrubBytes(b); string(got) != text {
				t.Errorf("ScrubBytes(%.40q) = %.40q", text, got)
			}
		}
	}
}

func TestOverlapsLeaveNoTail(t *testing.T) {
	// Two secrets sharing bytes: a sequential replacer masks the first and leaves
	// "world!" of the second.
	s := newSet(t, "hello123", "123world!")
	if got := s.Scrub("say hello123world! now"); got != "say "+Mask+" now" {
		t.Errorf("overlapping secrets: %q", got)
	}
	// One secret overlapping itself.
	s = newSet(t, "abab")
	if got := s.Scrub("xabababx"); got != "x"+Mask+"x" {
		t.Errorf("self-overlap: %q", got)
	}
	// Adjacent occurrences stay separate.
	if got := s.Scrub("abab-abababab"); got != Mask+"-"+Mask {
		t.Errorf("adjacent: %q", got)
	}
}

func TestLenCountsDistinctValues(t *testing.T) {
	s := New()
	for _, v := range []string{"first-secret", "second-secret", "first-secret"} {
		if err := s.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddDerived("second-secret"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddDerived("user:first-secret"); err != nil {
		t.Fatal(err)
	}
	if n := s.Len(); n != 3 {
		t.Errorf("Len = %d, want 3", n)
	}
}

func TestConcurrentAddAndScrub(t *testing.T) {
	s := New()
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := s.Add(fmt.Sprintf("secret-%03d", i)); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			text := fmt.Sprintf("x secret-%03d y", i)
			got := s.Scrub(text)
			// Either before or after the Add; never a partial mask.
			if got != text && got != "x "+Mask+" y" {
				t.Errorf("Scrub(%q) = %q", text, got)
			}
			_ = s.Len()
		}()
	}
	wg.Wait()
	if s.Len() != n {
		t.Errorf("Len = %d, want %d", s.Len(), n)
	}
	for i := range n {
		text := fmt.Sprintf("secret-%03d", i)
		if got := s.Scrub(text); got != Mask {
			t.Errorf("Scrub(%q) = %q after all Adds", text, got)
		}
	}
}

// FuzzScrub checks that no form of the secret survives Scrub whatever surrounds it. The
// surroundings may themselves hold the secret or parts of it: those must be masked too.
func FuzzScrub(f *testing.F) {
	f.Add("", "")
	f.Add("p@ss", " w0rd")
	f.Add(secret[:5], secret[3:])
	f.Add("cEBzcyB3", "MHJkLzwmPiInw6k=")
	f.Add("p%40ss", "+w0rd")
	f.Add("70407373", "\\u0070\\u0040")
	f.Add("p\x00@\x00", "\x00p\x00@")
	s := newSet(f, secret)
	forms := s.snapshot().forms
	f.Fuzz(func(t *testing.T, prefix, suffix string) {
		out := s.Scrub(prefix + secret + suffix)
		for _, form := range forms {
			if strings.Contains(out, form) {
				t.Fatalf("form %q survives in %q", form, out)
			}
		}
		if got := string(s.ScrubBytes([]byte(prefix + secret + suffix))); got != out {
			t.Fatalf("ScrubBytes = %q, Scrub = %q", got, out)
		}
	})
}

// FuzzScrubJSON checks that ScrubJSON keeps a valid document valid and leaves no form of
// the secret in it, neither in its bytes nor in any string it decodes to.
func FuzzScrubJSON(f *testing.F) {
	f.Add(`{"a": "p@ss w0rd/<&>\"'é"}`)
	f.Add(`["x", {"k p@ss w0rd/\u003c\u0026\u003e\"'\u00e9": 1.5e3}, null, true]`)
	f.Add(`{"html": "<b title=\"p@ss w0rd/<&amp;>&quot;'é\">"}` + "\n")
	f.Add(`"unterminated p@ss w0rd/<&>`)
	s := newSet(f, secret)
	forms := s.snapshot().forms
	f.Fuzz(func(t *testing.T, doc string) {
		out := s.ScrubJSON([]byte(doc))
		valid := json.Valid([]byte(doc))
		if valid && !json.Valid(out) {
			t.Fatalf("valid %q became invalid %q", doc, out)
		}
		if !valid {
			for _, form := range forms {
				if strings.Contains(string(out), form) {
					t.Fatalf("form %q survives in %q", form, out)
				}
			}
			return
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		var walk func(any)
		walk = func(x any) {
			switch x := x.(type) {
			case string:
				for _, form := range forms {
					if strings.Contains(x, form) {
						t.Fatalf("form %q survives in the string %q of %q", form, x, out)
					}
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					walk(k)
					walk(e)
				}
			}
		}
		walk(v)
	})
}

// BenchmarkScrub scrubs 1 MiB of page-like text holding the secret a few times, with
// every form registered: the cost each result, report and log pays per secret.
func BenchmarkScrub(b *testing.B) {
	s := newSet(b, secret)
	text := strings.Repeat("You typed: "+secret+". "+strings.Repeat("lorem ipsum dolor sit amet ", 40), 1<<20/1100)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s.Scrub(text)
	}
}

// TestInertTextHasNoDocumentForms: printable ASCII that inert lets through is left as it is
// by every JSON, HTML and XML escaper formsOf would otherwise run, so skipping them loses
// no form; and each special character is escaped by one of them.
func TestInertTextHasNoDocumentForms(t *testing.T) {
	for c := byte(0x20); c < 0x7f; c++ {
		v := "ab" + string(c) + "cd"
		j, _ := json.Marshal(v)
		same := map[string]bool{
			"json": string(j) == `"`+v+`"` && jsonString(v, false) == v && asciiJSON(v) == v,
			"html": html.EscapeString(v) == v && template.HTMLEscapeString(v) == v && reportHTML(v) == v && htmlAttrNew.Replace(v) == v,
			"xml":  xmlText(v) == v,
		}
		for doc, special := range map[string]string{"json": jsonSpecial, "html": htmlSpecial, "xml": xmlSpecial} {
			if inert(v, special) != same[doc] {
				t.Errorf("%q: inert for %s is %v, but its escapers leave it as it is: %v", c, doc, inert(v, special), same[doc])
			}
		}
	}
}

// TestSinceTellsOnlyWhatWasAdded: Since gives the values added after the first n, in order,
// each once, with AddDerived's and without refused ones.
func TestSinceTellsOnlyWhatWasAdded(t *testing.T) {
	s := New()
	if got, n := s.Since(0); got != nil || n != 0 {
		t.Fatalf("empty set: %q, %d", got, n)
	}
	for _, v := range []string{"first-secret", "abc", "second-secret", "first-secret"} {
		_ = s.Add(v)
	}
	got, n := s.Since(0)
	if strings.Join(got, ",") != "first-secret,second-secret" || n != 2 {
		t.Fatalf("Since(0) = %q, %d", got, n)
	}
	_ = s.AddDerived("user:first-secret")
	if got, n = s.Since(n); strings.Join(got, ",") != "user:first-secret" || n != 3 {
		t.Fatalf("Since(2) = %q, %d", got, n)
	}
	if got, n = s.Since(n); got != nil || n != 3 {
		t.Fatalf("Since(3) = %q, %d: nothing was added", got, n)
	}
	// The result is the caller's: changing it changes nothing in the set.
	got, _ = s.Since(0)
	got[0] = "changed"
	if again, _ := s.Since(0); again[0] != "first-secret" {
		t.Errorf("Since aliases the set's list: %q", again)
	}
}
