package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesAreCurrent: every file the generator writes is what it would write now,
// so a change to a request or result type, the operation table, a rule or the skeleton
// cannot reach a commit without its schemas and tables.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := generate(root)
	if err != nil {
		t.Fatalf("generation fails: %v", err)
	}
	for _, o := range outputs {
		got, err := os.ReadFile(filepath.Join(root, o.path))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./...)", o.path, err)
			continue
		}
		if want := files[o.path]; !bytes.Equal(got, want) {
			t.Errorf("%s is not what the Go types make of it (first difference at line %d): run go generate ./...", o.path, firstDiff(got, want))
		}
	}
}

// firstDiff is the 1-based number of the first line a and b differ on.
func firstDiff(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// TestOverlayRefusesWhatTheTypesSay: the skeleton can only add to a generated definition:
// a keyword the types set, or a property the type lacks, is an error naming it.
func TestOverlayRefusesWhatTheTypesSay(t *testing.T) {
	gen := obj("type", "object", "properties", obj("url", obj("type", "string")))
	for _, c := range []struct {
		name, want string
		over       *object
	}{
		{"a generated keyword", "$defs.x.type is generated", obj("type", "array")},
		{"a property the type lacks", "no such field", obj("properties", obj("uri", obj("description", "x")))},
		{"a property's generated keyword", "$defs.x.properties.url.type is generated", obj("properties", obj("url", obj("type", "integer")))},
	} {
		if _, err := overlay(gen, c.over, "$defs.x"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	got, err := overlay(gen, obj("properties", obj("url", obj("description", "d", "pattern", "^h")), "description", "D"), "$defs.x")
	if err != nil {
		t.Fatal(err)
	}
	if s := compactJSON(got); s != `{"description": "D", "type": "object", "properties": {"url": {"description": "d", "type": "string", "pattern": "^h"}}}` {
		t.Errorf("merged: %s", s)
	}
}

// TestJSONRoundTrip: the skeleton's member order and numbers survive parsing and printing.
func TestJSONRoundTrip(t *testing.T) {
	in := `{"b": 1, "a": [1.50, "x<y"], "c": {"z": null, "y": true}}`
	v, err := parseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := compactJSON(v); got != in {
		t.Fatalf("round trip: %s", got)
	}
	if _, err := parseJSON([]byte(`{"a": 1, "a": 2}`)); err == nil {
		t.Fatal("a duplicate key is accepted")
	}
}
