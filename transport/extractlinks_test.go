package transport

import (
	"strings"
	"testing"
)

// TestExtractLinkWarnings: string fields that look like links — by format or by name, at the
// top, in an array's items and under anyOf — each warn once, by their data pointer, in order;
// other fields (a number named url, a string named "curl" or "links"' array itself) do not.
func TestExtractLinkWarnings(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string"},
		"url":{"type":"string"},
		"homepage":{"type":"string","format":"uri"},
		"imageUrl":{"type":["string","null"]},
		"curl":{"type":"string"},
		"count":{"type":"integer","format":"uri"},
		"links":{"type":"array","items":{"type":"object","properties":{"href":{"type":"string"},"label":{"type":"string"}}}},
		"next":{"anyOf":[{"type":"string","format":"uri-reference"},{"type":"null"}]},
		"a/b_url":{"type":"string"}
	}}`
	got := ExtractLinkWarnings([]byte(schema))
	want := []string{"/a~1b_url", "/homepage", "/imageUrl", "/links/*/href", "/next", "/url"}
	if len(got) != len(want) {
		t.Fatalf("warnings %q, want one for each of %v", got, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], `data field "`+w+`" looks like a link`) || !strings.Contains(got[i], "relative path; resolve it against the page's URL") {
			t.Errorf("warning %d = %q, want one for %s", i, got[i], w)
		}
	}
	if again := ExtractLinkWarnings([]byte(schema)); strings.Join(again, "\n") != strings.Join(got, "\n") {
		t.Errorf("the same schema warned differently: %q then %q", got, again)
	}
	if w := ExtractLinkWarnings([]byte(`{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}}}`)); w != nil {
		t.Errorf("a schema without link fields warned: %q", w)
	}
	var many strings.Builder
	many.WriteString(`{"type":"object","properties":{`)
	for i := range 10 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"u` + string(rune('a'+i)) + `_url":{"type":"string"}`)
	}
	many.WriteString("}}")
	if w := ExtractLinkWarnings([]byte(many.String())); len(w) != 9 || w[8] != "and 2 more link fields: the same holds for each" {
		t.Errorf("ten link fields: %q", w)
	}
}
