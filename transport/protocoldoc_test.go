package transport

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// protocolDoc reads docs/protocol.md.
func protocolDoc(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(doc)
}

// docSection is the text of the "## name" section.
func docSection(t *testing.T, doc, name string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n## "+name+"\n")
	if !ok {
		t.Fatalf("docs/protocol.md has no section %q", name)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// opRows returns each operation row's request and result cells.
func opRows(doc string) map[string][2]string {
	rows := map[string][2]string{}
	for _, line := range strings.Split(doc, "\n") {
		m := regexp.MustCompile("^\\| `([a-zA-Z]+)` \\| (`\\{.*)$").FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cells := strings.Split(strings.ReplaceAll(m[2], `\|`, "\x00"), " | ")
		if len(cells) == 2 {
			rows[m[1]] = [2]string{cells[0], strings.TrimSuffix(strings.TrimSpace(cells[1]), " |")}
		}
	}
	return rows
}

// TestProtocolDocDocumentsEveryField: each operation's row names every field of its request
// and of its result (blocked and dialogs, on every result, are documented once), and every
// field of every type the protocol schema defines is named somewhere in docs/protocol.md.
func TestProtocolDocDocumentsEveryField(t *testing.T) {
	doc := protocolDoc(t)
	rows := opRows(doc)
	for _, s := range Ops() {
		row, ok := rows[s.Name]
		if !ok {
			t.Errorf("%s: no row in the operation table", s.Name)
			continue
		}
		if m := regexp.MustCompile("^same as `([a-zA-Z]+)`").FindStringSubmatch(row[1]); m != nil {
			row[1] = rows[m[1]][1]
		}
		op := s.New()
		for i, typ := range []reflect.Type{reflect.TypeOf(op).Elem(), reflect.TypeOf(op.newResult()).Elem()} {
			fields, err := jsonFields(typ, s.Name)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fields {
				if i == 1 && (f.name == "blocked" || f.name == "dialogs") {
					continue
				}
				if !strings.Contains(row[i], `"`+f.name+`"`) {
					t.Errorf("%s: the %s column does not name %q: %s", s.Name, []string{"request", "result"}[i], f.name, row[i])
				}
			}
		}
	}
	root, err := protocolSchema(Ops())
	if err != nil {
		t.Fatal(err)
	}
	for name, def := range root.Defs {
		if def.Properties == nil || strings.Contains(name, ".") {
			continue
		}
		for _, p := range *def.Properties {
			if !strings.Contains(doc, `"`+p.name+`"`) && !strings.Contains(doc, "`"+p.name+"`") {
				t.Errorf("%s.%s is not named in docs/protocol.md", name, p.name)
			}
		}
	}
}

// TestProtocolDocExplainsEveryCode: every code has a row in the codes table, and every
// posture, phase, retry and mutationState value is named where frames and errors are
// described.
func TestProtocolDocExplainsEveryCode(t *testing.T) {
	doc := protocolDoc(t)
	errs := docSection(t, doc, "Errors")
	var explained []string
	for _, m := range regexp.MustCompile("(?m)^\\| (`[a-z_]+`(?:, `[a-z_]+`)*) \\|").FindAllStringSubmatch(errs, -1) {
		explained = append(explained, m[1])
	}
	all := strings.Join(explained, ", ")
	for _, c := range typeRules[reflect.TypeFor[Code]()]().Enum {
		if !strings.Contains(all, "`"+c+"`") {
			t.Errorf("code %s has no row in docs/protocol.md's codes table", c)
		}
	}
	frames := docSection(t, doc, "Frames")
	for typ, where := range map[reflect.Type]string{reflect.TypeFor[Posture](): frames, reflect.TypeFor[Phase](): errs,
		reflect.TypeFor[Retry](): errs, reflect.TypeFor[MutationState](): errs} {
		for _, v := range typeRules[typ]().Enum {
			if !strings.Contains(where, "`"+v+"`") && !strings.Contains(where, v+",") && !strings.Contains(where, v+"`") {
				t.Errorf("%s %q is not named in docs/protocol.md", typ.Name(), v)
			}
		}
	}
}
