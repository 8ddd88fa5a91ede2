package transport

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCodesAreTheDocumentedList: docs/protocol.md's "Codes:" list is exactly the Code
// constants errors.go declares, in the same order.
func TestCodesAreTheDocumentedList(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\nCodes: `([^`]*)`").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/protocol.md has no \"Codes: `…`\" list")
	}
	var listed []string
	for _, c := range strings.Split(string(m[1]), ",") {
		listed = append(listed, strings.TrimSpace(c))
	}
	declared := declaredStringConsts(t)["Code"]
	if len(declared) == 0 || strings.Join(listed, ",") != strings.Join(declared, ",") {
		t.Fatalf("docs/protocol.md lists\n%v\nerrors.go declares\n%v", listed, declared)
	}
}
