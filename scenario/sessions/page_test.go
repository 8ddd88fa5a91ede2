package sessions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

func TestFindLinesKeepsWhatTheMatchSitsIn(t *testing.T) {
	outline := "main\n  heading[1] \"Orders\"\n  table \"Recent orders\"\n    row: 1001 | Ada Lovelace | Shipped\n    row: 1002 | Grace Hopper | Pending\nbanner\n  link [e4] \"Orders\"\n"
	got, n := findLines(outline, "ada")
	want := "main\n  table \"Recent orders\"\n    row: 1001 | Ada Lovelace | Shipped"
	if got != want || n != 1 {
		t.Fatalf("got (%d)\n%s\nwant (1)\n%s", n, got, want)
	}
	got, n = findLines(outline, "orders")
	if n != 3 || !strings.Contains(got, "banner\n  link [e4]") || strings.Contains(got, "Grace") {
		t.Fatalf("got (%d)\n%s", n, got)
	}
	if got, n := findLines(outline, "zzz"); got != "" || n != 0 {
		t.Fatalf("no match gave %q (%d)", got, n)
	}
}

func TestRefusal(t *testing.T) {
	if r := refusal(Page{URL: "https://a.example/x", PageClass: transport.PageNormal}, 200); r != nil {
		t.Fatalf("a served page is refused: %+v", r)
	}
	r := refusal(Page{URL: "https://a.example/x", PageClass: transport.PageHTTPError}, 403)
	if r == nil || r.Host != "a.example" || r.Status != 403 || r.BotCheck != "" || !strings.Contains(r.Message, "HTTP 403") {
		t.Fatalf("403: %+v", r)
	}
	for text, want := range map[string]string{
		"Just a moment...":                      "cloudflare",
		"Attention Required! | Cloudflare":      "cloudflare",
		"checkbox \"I’m not a robot\"":          "recaptcha",
		"iframe \"Widget containing hCaptcha\"": "hcaptcha",
		"Are you a robot?":                      "unknown",
	} {
		r := refusal(Page{URL: "https://b.example/", PageClass: transport.PageBotCheck, Outline: text}, 503)
		if r == nil || r.BotCheck != want || !strings.Contains(r.Message, want) {
			t.Errorf("%q: %+v, want bot_check %s", text, r, want)
		}
	}
}

func TestExportOpNamesRefsByRoleAndName(t *testing.T) {
	before := pageView{refs: map[string]transport.OutlineNode{}, names: map[roleName]int{}}
	before.index([]transport.OutlineNode{
		{Ref: "e1", Role: "textbox", Name: "Username"},
		{Ref: "e2", Role: "button", Name: "Save"},
		{Ref: "e3", Role: "button", Name: "Save"},
		{Ref: "e4", Role: "checkbox", Name: "Agree"},
		{Ref: "e5", Role: "textbox"},
	})
	seen := refBook{}.add(before)
	entry := json.RawMessage(`{"op":"act","request":{"action":"type","target":{"ref":"e1"},"text":{"env":"PW"}},"when":{"kind":"checked","value":"false","target":{"ref":"e4"}}}`)
	got, notUnique, unresolved := exportOp(entry, before, seen, &transport.Receipt{Ref: "e1", Role: "textbox", Name: "Username"}, nil)
	want := `{"op":"act","request":{"action":"type","target":{"exact":true,"name":"Username","role":"textbox"},"text":{"env":"PW"}},"when":{"kind":"checked","target":{"exact":true,"name":"Agree","role":"checkbox"},"value":"false"}}`
	if string(got) != want || notUnique || unresolved != nil {
		t.Fatalf("got %s (notUnique %v, unresolved %v)\nwant %s", got, notUnique, unresolved, want)
	}
	_, notUnique, _ = exportOp(json.RawMessage(`{"op":"act","request":{"action":"click","target":{"ref":"e3"}}}`), before, seen, nil, nil)
	if !notUnique {
		t.Fatal("two buttons named Save, yet the click's target was called unique")
	}
	got, _, _ = exportOp(json.RawMessage(`{"op":"act","request":{"action":"upload","target":{"ref":"e1"},"files":["a.txt"]}}`), before, seen, nil, []string{"/abs/a.txt"})
	if !strings.Contains(string(got), `"files":["/abs/a.txt"]`) {
		t.Fatalf("upload files not made absolute: %s", got)
	}
	// An element with no name stays a ref (role+"" would not validate) and is reported.
	got, _, unresolved = exportOp(json.RawMessage(`{"op":"act","request":{"action":"click","target":{"ref":"e5"}}}`), before, seen, nil, nil)
	if !strings.Contains(string(got), `"ref":"e5"`) || len(unresolved) != 1 {
		t.Fatalf("nameless element: got %s, unresolved %v", got, unresolved)
	}
	// A ref from an older outline is still named by role and name; one no outline showed
	// stays a ref and is reported.
	older := pageView{refs: map[string]transport.OutlineNode{"e40": {Ref: "e40", Role: "link", Name: "Orders"}}, names: map[roleName]int{}}
	seen = seen.add(older)
	got, _, unresolved = exportOp(json.RawMessage(`{"op":"act","request":{"action":"click","target":{"ref":"e40"}},"when":{"kind":"checked","value":"true","target":{"ref":"e99"}}}`), before, seen, nil, nil)
	if !strings.Contains(string(got), `"name":"Orders"`) || !strings.Contains(string(got), `"ref":"e99"`) || len(unresolved) != 1 || unresolved[0] != "e99" {
		t.Fatalf("got %s, unresolved %v; want e40 named, e99 kept and reported", got, unresolved)
	}
}
