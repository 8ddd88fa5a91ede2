package transport

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
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
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, v := range vs.Values {
				lit, _ := strconv.Unquote(v.(*ast.BasicLit).Value)
				declared = append(declared, lit)
			}
		}
	}
	if len(declared) == 0 || strings.Join(listed, ",") != strings.Join(declared, ",") {
		t.Fatalf("docs/protocol.md lists\n%v\nerrors.go declares\n%v", listed, declared)
	}
}
