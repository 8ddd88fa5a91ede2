package outline

// This file is inside the package so that the fuzz target drives render, the outline's
// real quoting, rather than a copy of it.

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"html/template"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// outputWriter is one way the project writes text out: inner returns what a string becomes
// inside the output (what to look for), doc the whole output for a text.
type outputWriter struct {
	name  string
	doc   func(text string) string
	inner func(s string) string
	// decode turns a scrubbed output back into the text it carries ("" when it cannot).
	decode func(out string) string
}

var (
	// reportPre is how report.html writes an outline (<pre>{{.Result.Text}}</pre>).
	reportPre = template.Must(template.New("pre").Parse(`<pre>{{.}}</pre>`))
	// goQuoted finds the quoted strings of an outline line or an error message.
	goQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
)

func jsonInner(s string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

func htmlInner(s string) string {
	var b strings.Builder
	_ = reportPre.Execute(&b, s)
	return strings.TrimSuffix(strings.TrimPrefix(b.String(), "<pre>"), "</pre>")
}

func xmlInner(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// junitDoc writes text the way junit.xml carries messages: as an attribute and as a
// character-data block (written as a token, so newlines stay raw).
func junitDoc(text string) string {
	var b bytes.Buffer
	enc := xml.NewEncoder(&b)
	start := xml.StartElement{Name: xml.Name{Local: "failure"}, Attr: []xml.Attr{{Name: xml.Name{Local: "message"}, Value: text}}}
	_ = enc.EncodeToken(start)
	_ = enc.EncodeToken(xml.CharData(text))
	_ = enc.EncodeToken(start.End())
	_ = enc.Flush()
	return b.String()
}

var outputWriters = []outputWriter{
	{name: "text (stdout, serve logs)", doc: func(t string) string { return t }, inner: func(s string) string { return s },
		decode: func(out string) string { return out }},
	{name: "json (results, report.json, serve)", inner: func(s string) string { return jsonInner(s, true) },
		doc: func(t string) string {
			b, _ := json.Marshal(transport.ObserveResult{Text: t, Nodes: []transport.OutlineNode{{Role: "text", Text: t}}})
			return string(b)
		},
		decode: func(out string) string {
			var r transport.ObserveResult
			if json.Unmarshal([]byte(out), &r) != nil || len(r.Nodes) != 1 {
				return ""
			}
			return r.Text + "\n" + r.Nodes[0].Text
		}},
	{name: "json without html escaping (report.json results)", inner: func(s string) string { return jsonInner(s, false) },
		doc: func(t string) string { return `{"text":"` + jsonInner(t, false) + `"}` },
		decode: func(out string) string {
			var r struct{ Text string }
			if json.Unmarshal([]byte(out), &r) != nil {
				return ""
			}
			return r.Text
		}},
	{name: "html (report.html)", inner: htmlInner,
		doc:    func(t string) string { return "<pre>" + htmlInner(t) + "</pre>" },
		decode: func(out string) string { return html.UnescapeString(out) }},
	{name: "xml (junit.xml)", inner: xmlInner, doc: junitDoc,
		decode: func(out string) string {
			var f struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			}
			if xml.Unmarshal([]byte(out), &f) != nil {
				return ""
			}
			return f.Message + "\n" + f.Body
		}},
}

// FuzzScrubOutline renders a secret the way observe shows an echoed one (a text line, a
// button's name, a select's option: all through the outline's strconv.Quote) and the way
// an error message names it (%q), writes each through every writer the project has, and
// checks that the run's scrubber leaves neither the secret nor its emitted spelling in the
// output, nor anything that decodes back to it.
func FuzzScrubOutline(f *testing.F) {
	for _, seed := range [][3]string{
		{`ab\cd"ef`, "You typed: ", ""},
		{`Tok"en\é-42`, "", "!"},
		{"tab\there\nnew line", "a", "b"},
		{"nbsp\u00a0and\u2028sep", "", ""},
		{"<&>'+\"\\ 😀", "x", "y"},
		{"\x01\x7f\u200b\ufeffctl", "", ""},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, secret, before, after string) {
		// Outline text comes from the browser over JSON, so it is always valid UTF-8.
		if !utf8.ValidString(secret) || !utf8.ValidString(before) || !utf8.ValidString(after) {
			return
		}
		set := secrets.New()
		if set.Add(secret) != nil || touchesMask(secret) {
			return // refused (too short, inside the mask) or could be rebuilt by a mask's edge
		}
		echo := before + secret + after
		nodes := []transport.OutlineNode{
			{Role: "heading", Level: 1, Name: echo},
			{Role: "text", Text: echo},
			{Role: "button", Ref: "e1", Name: echo},
			{Role: "combobox", Ref: "e2", Name: "Pick", Selected: echo, Options: []string{"a", echo}},
			{Role: "row", Name: echo},
		}
		texts := map[string]string{
			"outline":       transport.OutlineText(nodes, false),
			"error message": fmt.Sprintf("%s %s %q is not visible", "e1", "button", echo),
		}
		spellings := []string{secret, strconv.Quote(secret)[1 : len(strconv.Quote(secret))-1]}
		for what, text := range texts {
			for _, em := range outputWriters {
				out := string(set.ScrubBytes([]byte(em.doc(text))))
				for _, s := range spellings {
					if form := em.inner(s); strings.Contains(out, form) {
						t.Fatalf("%s as %s: %q survives in %q", what, em.name, form, out)
					}
				}
				decoded := em.decode(out)
				if strings.Contains(decoded, secret) {
					t.Fatalf("%s as %s: the secret decodes back from %q", what, em.name, out)
				}
				for _, q := range goQuoted.FindAllString(decoded, -1) {
					if u, err := strconv.Unquote(q); err == nil && strings.Contains(u, secret) {
						t.Fatalf("%s as %s: the secret unquotes back from %q", what, em.name, q)
					}
				}
			}
		}
	})
}

// touchesMask reports whether s starts with an end of the mask or ends with a start of it:
// masking the text next to s could then spell s again without any of it having leaked.
func touchesMask(s string) bool {
	for i := 1; i < len(secrets.Mask); i++ {
		if strings.HasPrefix(s, secrets.Mask[i:]) || strings.HasSuffix(s, secrets.Mask[:i]) {
			return true
		}
	}
	return false
}
