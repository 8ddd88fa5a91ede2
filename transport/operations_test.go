package transport

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// packageSources parses this package's own (non-test) Go files, in name order.
func packageSources(t *testing.T) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// requestTypes finds every type in this package's sources that embeds op[…]: a request type.
func requestTypes(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, file := range packageSources(t) {
		ast.Inspect(file, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, f := range st.Fields.List {
				if ix, ok := f.Type.(*ast.IndexListExpr); ok && len(f.Names) == 0 {
					if id, ok := ix.X.(*ast.Ident); ok && id.Name == "op" {
						names = append(names, ts.Name.Name)
					}
				}
			}
			return true
		})
	}
	return names
}

// TestEveryRequestTypeHasARow: a request type without a row in the table would panic on
// OpName; the table and the types must agree in both directions.
func TestEveryRequestTypeHasARow(t *testing.T) {
	types := requestTypes(t)
	if len(types) != len(table) {
		t.Errorf("%d request types embed op[…] (%v) but the table has %d rows", len(types), types, len(table))
	}
	for _, name := range types {
		found := false
		for _, s := range table {
			if reflect.TypeOf(s.New()).Elem().Name() == name {
				found = true
			}
		}
		if !found {
			t.Errorf("request type %s has no row in the operation table", name)
		}
	}
}

// TestOperationTableRows: each row's constructor, name, result and flags agree with what the
// request type says, names and tab results are unique, and a request has at most one handle
// field (a string).
func TestOperationTableRows(t *testing.T) {
	seen, results := map[string]bool{}, map[string]bool{}
	for _, s := range Ops() {
		if seen[s.Name] {
			t.Errorf("%s: two rows", s.Name)
		}
		seen[s.Name] = true
		op, ok := NewOperation(s.Name)
		if !ok || op.OpName() != s.Name || op.Mutates() != s.Mutates || SpecOf(op).Name != s.Name {
			t.Errorf("%s: NewOperation gives %T named %q (mutates %v)", s.Name, op, op.OpName(), op.Mutates())
			continue
		}
		res := NewResult(op)
		if rt := reflect.TypeOf(res); rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
			t.Errorf("%s: result %T is not a pointer to a struct", s.Name, res)
		}
		if s.TabResult != "" {
			if results[s.TabResult] {
				t.Errorf("%s: tab result %q named twice", s.Name, s.TabResult)
			}
			results[s.TabResult] = true
		}
		if field, _ := HandleField(op); s.InFiles && field != "" && field != "tab" && field != "opener" {
			t.Errorf("%s: handle field %q: scenario files document only tab and opener", s.Name, field)
		}
		handles := 0
		for rt, i := reflect.TypeOf(op).Elem(), 0; i < rt.NumField(); i++ {
			if f := rt.Field(i); f.Tag.Get("handle") == "tab" {
				handles++
				if f.Type.Kind() != reflect.String {
					t.Errorf("%s: handle field %s is a %s, not a string", s.Name, f.Name, f.Type)
				}
			}
		}
		if handles > 1 {
			t.Errorf("%s: %d handle fields; a request names at most one tab", s.Name, handles)
		}
	}
	if _, ok := NewOperation("evaluate"); ok {
		t.Error("NewOperation knows an op the table does not")
	}
}

// TestProtocolDocListsEveryOperation: docs/protocol.md's operation table has a row per table
// row, in table order, and no other.
func TestProtocolDocListsEveryOperation(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-zA-Z]+)` \\| `\\{").FindAllStringSubmatch(string(doc), -1) {
		documented = append(documented, m[1])
	}
	var names []string
	for _, s := range Ops() {
		names = append(names, s.Name)
	}
	slices.Sort(documented)
	slices.Sort(names)
	if !slices.Equal(documented, names) {
		t.Errorf("docs/protocol.md documents %v; the operation table has %v", documented, names)
	}
}

// TestTabRefsAndWithTab: handles are found in requests and results (inside slices too) in
// field order, empty ones skipped; WithTab copies and never touches the caller's request.
func TestTabRefsAndWithTab(t *testing.T) {
	res := &ListTabsResult{Tabs: []TabInfo{{Tab: "a"}, {Tab: ""}, {Tab: "b"}}, Selected: "c"}
	var got []string
	for _, p := range TabRefs(res) {
		got = append(got, *p)
	}
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("TabRefs(ListTabsResult) = %v", got)
	}
	*TabRefs(res)[0] = "x"
	if res.Tabs[0].Tab != "x" {
		t.Fatal("TabRefs does not point into the result")
	}
	if refs := TabRefs(&WaitPopupResult{Popup: "p", Opener: "o"}); len(refs) != 2 || *refs[0] != "p" || *refs[1] != "o" {
		t.Fatalf("TabRefs(WaitPopupResult) = %v", refs)
	}
	if refs := TabRefs(&Observe{MaxNodes: 3}); len(refs) != 0 {
		t.Fatalf("an empty handle was listed: %v", refs)
	}
	orig := &WaitPopup{Opener: "t1"}
	bound := WithTab(orig, "t2").(*WaitPopup)
	if orig.Opener != "t1" || bound.Opener != "t2" {
		t.Fatalf("WithTab: caller's %q, copy's %q", orig.Opener, bound.Opener)
	}
	if name, required := HandleField(&SelectTab{}); name != "tab" || !required {
		t.Fatalf("HandleField(SelectTab) = %q, %v", name, required)
	}
	if name, _ := HandleField(&ListTabs{}); name != "" {
		t.Fatalf("HandleField(ListTabs) = %q", name)
	}
}
