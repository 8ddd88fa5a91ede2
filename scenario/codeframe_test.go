package scenario

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCodeFrame(t *testing.T) {
	src := "{\n  \"version\": 1,\n  \"operations\": [\n    {\"op\": \"navigate\"},\n    {\n      \"op\": \"assert\",\n      \"soft\": true\n    }\n  ]\n}\n"
	got := CodeFrame([]byte(src), 5, 5)
	want := strings.Join([]string{
		"   3 |   \"operations\": [",
		"   4 |     {\"op\": \"navigate\"},",
		">  5 |     {",
		"     |     ^",
		"   6 |       \"op\": \"assert\",",
		"   7 |       \"soft\": true",
		"   8 |     }",
	}, "\n")
	// The number column is as wide as the last line number shown (8: one digit).
	want = strings.NewReplacer("   3 |", "  3 |", "   4 |", "  4 |", ">  5 |", "> 5 |", "     |", "    |", "   6 |", "  6 |", "   7 |", "  7 |", "   8 |", "  8 |").Replace(want)
	if got != want {
		t.Errorf("frame:\n%s\nwant:\n%s", got, want)
	}
}

func TestCodeFrameEdges(t *testing.T) {
	// First line: nothing before it; the number column widens for line 10.
	lines := make([]string, 12)
	for i := range lines {
		lines[i] = "x"
	}
	src := []byte(strings.Join(lines, "\n"))
	if got := CodeFrame(src, 1, 1); !strings.HasPrefix(got, "> 1 | x\n    | ^\n  2 | x") || strings.Count(got, "\n") != 4 {
		t.Errorf("first line:\n%s", got)
	}
	if got := CodeFrame(src, 9, 1); !strings.Contains(got, ">  9 | x\n     | ^\n  10 | x") || !strings.HasSuffix(got, "  12 | x") {
		t.Errorf("widening:\n%s", got)
	}
	if CodeFrame(src, 13, 1) != "" || CodeFrame(src, 0, 1) != "" {
		t.Error("a line outside the file has no frame")
	}
	// A tab is shown as four spaces and the caret counts it so; CRLF ends are dropped.
	got := CodeFrame([]byte("[\r\n\t\t{\"op\":1}\r\n]"), 2, 3)
	if !strings.Contains(got, "> 2 |         {\"op\":1}\n    |         ^\n") || strings.ContainsAny(got, "\t\r") {
		t.Errorf("tabs:\n%q", got)
	}
	// A long line is clipped to frameLineChars, and the caret stays on it.
	long := "  " + strings.Repeat("é", 300)
	got = CodeFrame([]byte(long), 1, 250)
	first, caret, _ := strings.Cut(got, "\n")
	if n := len([]rune(strings.TrimPrefix(first, "> 1 | "))); n != frameLineChars || !strings.HasSuffix(first, "…") {
		t.Errorf("clipped to %d: %q", n, first)
	}
	if n := len(strings.TrimPrefix(caret, "    | ")); n > frameLineChars {
		t.Errorf("caret past the line: %d", n)
	}
}

func TestEntryOffsetsAndLocations(t *testing.T) {
	src := "{\"version\":1,\"id\":\"a\",\"description\":\"[{not an op}]\",\n\"operations\":[\n  {\"op\":\"navigate\",\"request\":{\"url\":\"/\"}} ,\n\t{\"op\":\"é\"},{\"op\":\"x\"}\n]}"
	got := sourcesOf("s.json", []byte(src), 3)
	if len(got) != 3 {
		t.Fatalf("%d sources", len(got))
	}
	want := []Location{{"s.json", 3, 3}, {"s.json", 4, 2}, {"s.json", 4, 13}}
	for i, s := range got {
		if l := s.location(); *l != want[i] {
			t.Errorf("entry %d at %+v, want %+v", i, *l, want[i])
		}
	}
	if l := got[0].location(); l.String() != "s.json:3:3" {
		t.Errorf("String: %s", l)
	}
	if sourcesOf("s.json", []byte(src), 2) != nil {
		t.Error("a count that does not match the scan gives no locations")
	}
	if entryOffsets([]byte(`[1]`)) != nil || entryOffsets([]byte(`{"id":"x"}`)) != nil {
		t.Error("no operations array: no offsets")
	}
}

// TestLoadRecordsLocations: each operation's report names where its entry is written — the
// scenario file's line and column, or, for an included one, the fragment's — and a failed
// operation's code frame is cut from that file.
func TestLoadRecordsLocations(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"fragments/two.json": "{\"version\": 1, \"fragment\": \"two\",\n  \"operations\": [\n    {\"op\": \"listTabs\"},\n      {\"op\": \"reload\"}\n  ]}",
		"s.json":             "{\"version\": 1, \"id\": \"loc\",\n \"operations\": [\n   {\"op\": \"listTabs\"},\n   {\"include\": \"fragments/two.json\"},\n     {\"op\": \"reload\", \"soft\": false}\n]}",
	})
	l, err := Load(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	frag := filepath.Join(dir, "fragments", "two.json")
	want := []Location{{filepath.Join(dir, "s.json"), 3, 4}, {frag, 3, 5}, {frag, 4, 7}, {filepath.Join(dir, "s.json"), 5, 6}}
	if len(l.Operations) != len(want) {
		t.Fatalf("%d operations", len(l.Operations))
	}
	for i := range l.Operations {
		or := newOperationReport(i, &l.Operations[i])
		if or.Location == nil || *or.Location != want[i] {
			t.Errorf("operations[%d] at %+v, want %+v", i, or.Location, want[i])
		}
	}
	frame := l.Operations[2].written.codeFrame()
	if !strings.Contains(frame, "> 4 |       {\"op\": \"reload\"}\n    |       ^") || !strings.Contains(frame, "2 |   \"operations\": [") {
		t.Errorf("fragment frame:\n%s", frame)
	}
}
