package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// varsScenario is a scenario whose operations take their label, typed text, URL and expected
// text from variables; extra goes after its own top-level fields.
func varsScenario(extra string) string {
	return `{"version": 1, "id": "v", "fixture": {"baseUrl": "http://127.0.0.1:4310"}` + extra + `,
  "operations": [
    {"op": "navigate", "request": {"url": {"var": "PATH"}}},
    {"op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": {"var": "FIELD"}}, "text": {"var": "TEXT"}}},
    {"op": "assert", "request": {"kind": "textContains", "value": {"var": "RESULT"}}, "when": {"kind": "textContains", "value": {"var": "RESULT"}}}
  ]}`
}

func loadVars(t *testing.T, body string, o Overrides) (*Loaded, error) {
	t.Helper()
	p := filepath.Join(writeFiles(t, t.TempDir(), map[string]string{"s.json": body}), "s.json")
	return LoadWith(p, o)
}

// TestVarsSubstitute: each {"var"} of an operation (a URL resolved against the fixture, a
// target name, typed text, an assertion value, a when condition) becomes its value; the
// report lists the variables used; the digest is of the bytes as written.
func TestVarsSubstitute(t *testing.T) {
	body := varsScenario(`, "variables": {"PATH": "/signup", "FIELD": "Email", "TEXT": "ada@example.com", "RESULT": "Welcome", "UNUSED": "x"}`)
	l, err := loadVars(t, body, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ target, value string }{{"http://127.0.0.1:4310/signup", ""}, {`textbox ~"Email"`, `"ada@example.com"`}, {"", `textContains "Welcome"`}}
	for i, w := range want {
		or := newOperationReport(i, &l.Operations[i])
		if !strings.Contains(or.Target, w.target) || !strings.Contains(or.Value, w.value) {
			t.Errorf("operations[%d]: target %q value %q, want %q / %q", i, or.Target, or.Value, w.target, w.value)
		}
	}
	if w := l.Operations[2].When; w == nil || w.Value == nil || w.Value.String != "Welcome" {
		t.Errorf("when: %+v, want textContains Welcome", w)
	}
	if got := l.Variables; len(got) != 4 || got["FIELD"] != "Email" || got["UNUSED"] != "" {
		t.Errorf("used variables %v, want the four the operations name", got)
	}
	if sum := sha256.Sum256([]byte(body)); l.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 %s is not of the file's bytes", l.SHA256)
	}
}

// TestVarsPrecedence: the file's variables < the project's < --var.
func TestVarsPrecedence(t *testing.T) {
	body := varsScenario(`, "variables": {"PATH": "/file", "FIELD": "file", "TEXT": "file", "RESULT": "file"}`)
	o := Overrides{Project: &Project{Name: "p", Variables: map[string]string{"FIELD": "project", "TEXT": "project"}},
		Vars: map[string]string{"TEXT": "flag"}}
	l, err := loadVars(t, body, o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"PATH": "/file", "FIELD": "project", "TEXT": "flag", "RESULT": "file"}
	for k, v := range want {
		if l.Variables[k] != v {
			t.Errorf("%s = %q, want %q (all: %v)", k, l.Variables[k], v, l.Variables)
		}
	}
	if l.Project != "p" {
		t.Errorf("project %q", l.Project)
	}
}

// TestVarsRefusals: an unknown name (naming the project when there is one), bad shapes and
// names, and a {"var"} outside operations are refused at load with their path.
func TestVarsRefusals(t *testing.T) {
	all := `, "variables": {"PATH": "/", "FIELD": "f", "TEXT": "t", "RESULT": "r"}`
	cases := []struct {
		name, body string
		project    *Project
		path, msg  string
	}{
		{"unknown", varsScenario(`, "variables": {"PATH": "/", "TEXT": "t", "RESULT": "r"}`), nil,
			"operations[1].request.target.name", `unknown variable "FIELD"; define it in variables, a project or --var`},
		{"unknown in a project", varsScenario(`, "variables": {"PATH": "/", "TEXT": "t", "RESULT": "r"}`), &Project{Name: "v2"},
			"operations[1].request.target.name", `unknown variable "FIELD"; define it in variables, project "v2" or --var`},
		{"not a string name", strings.Replace(varsScenario(all), `{"var": "TEXT"}`, `{"var": 1}`, 1), nil,
			"operations[1].request.text.var", "expected a variable name"},
		{"another key", strings.Replace(varsScenario(all), `{"var": "TEXT"}`, `{"var": "TEXT", "x": 1}`, 1), nil,
			"operations[1].request.text", `has only the key "var"`},
		{"bad name in use", strings.Replace(varsScenario(all), `{"var": "TEXT"}`, `{"var": "A-B"}`, 1), nil,
			"operations[1].request.text.var", "expected a variable name"},
		{"bad name defined", varsScenario(`, "variables": {"PATH": "/", "FIELD": "f", "TEXT": "t", "RESULT": "r", "9x": "y"}`), nil,
			"variables", `"9x": expected a variable name`},
		{"not a string value", varsScenario(`, "variables": {"PATH": "/", "FIELD": "f", "TEXT": "t", "RESULT": "r", "N": 1}`), nil,
			"variables.N", "string"},
		{"outside operations", strings.Replace(varsScenario(all), `"baseUrl": "http://127.0.0.1:4310"`, `"baseUrl": {"var": "PATH"}`, 1), nil,
			"fixture.baseUrl", "go in operations"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadVars(t, c.body, Overrides{Project: c.project})
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Path != c.path || !strings.Contains(ve.Message, c.msg) {
				t.Fatalf("got %v, want %s: …%s…", err, c.path, c.msg)
			}
			if c.project != nil && !strings.Contains(err.Error(), "project "+c.project.Name) {
				t.Errorf("%v does not name the project", err)
			}
		})
	}
}

// TestVarsInFragment: a fragment's {"var"} takes the including scenario's values, and an
// unknown one is refused at the include entry naming the fragment and its path there.
func TestVarsInFragment(t *testing.T) {
	frag := `{"version": 1, "fragment": "f", "operations": [{"op": "act", "request": {"action": "click", "target": {"role": "button", "name": {"var": "BUTTON"}}}}]}`
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"frag.json": frag,
		"s.json":    `{"version": 1, "id": "s", "variables": {"BUTTON": "Sign up"}, "operations": [{"include": "frag.json"}]}`,
		"bad.json":  `{"version": 1, "id": "b", "operations": [{"op": "read"}, {"include": "frag.json"}]}`,
	})
	l, err := LoadWith(filepath.Join(dir, "s.json"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if or := newOperationReport(0, &l.Operations[0]); !strings.Contains(or.Target, `button ~"Sign up"`) {
		t.Errorf("target %q", or.Target)
	}
	l, err = LoadWith(filepath.Join(dir, "bad.json"), Overrides{Vars: map[string]string{"BUTTON": "Create account"}})
	if err != nil {
		t.Fatal(err)
	}
	if or := newOperationReport(1, &l.Operations[1]); !strings.Contains(or.Target, `button ~"Create account"`) {
		t.Errorf("--var in a fragment: target %q", or.Target)
	}
	_, err = LoadWith(filepath.Join(dir, "bad.json"), Overrides{})
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations[1].include" || !strings.Contains(ve.Message, `operations[0].request.target.name: unknown variable "BUTTON"`) {
		t.Fatalf("got %v", err)
	}
}

// TestParseVarFlag: --var NAME=VALUE, the value may hold "=" and be empty.
func TestParseVarFlag(t *testing.T) {
	if n, v, err := ParseVarFlag("A_1=x=y"); err != nil || n != "A_1" || v != "x=y" {
		t.Errorf("got %q %q %v", n, v, err)
	}
	if _, v, err := ParseVarFlag("E="); err != nil || v != "" {
		t.Errorf("empty value: %q %v", v, err)
	}
	for _, bad := range []string{"noequals", "=v", "a b=c", "1A=x"} {
		if _, _, err := ParseVarFlag(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
