package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// Variables (docs/scenarios.md "Variables"): a value written {"var":"NAME"} in a scenario's
// or a fragment's operations is replaced, at load and before the strict decode, by the
// string NAME has: from the file's "variables", then the run's project, then --var (later
// wins). A variable is not a secret (secrets are {"env"} typed values); its value may show
// in the report (ScenarioReport.Variables).

// VarNamePattern is a variable name: letters, digits and _, not starting with a digit.
const VarNamePattern = `^[A-Za-z_][A-Za-z0-9_]{0,63}$`

// Compiled on first use: a counted repetition compiles to many instructions, which
// every start would pay in init (TestOwnPackageInitsAllocateLittle).
var varNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(VarNamePattern) })

// ValidVarName says whether name may name a variable.
func ValidVarName(name string) bool { return varNamePattern().MatchString(name) }

// varNameRule is what a refused name was expected to be.
const varNameRule = "expected a variable name: a letter or _, then up to 63 letters, digits or _"

// CheckVars refuses a variables object with a bad name; path is where it is written
// ("variables", "projects[1].variables").
func CheckVars(vars map[string]string, path string) error {
	for _, name := range sortedNames(vars) {
		if !ValidVarName(name) {
			return fail(path, quote(clip(name))+": "+varNameRule)
		}
	}
	return nil
}

// ParseVarFlag reads one --var NAME=VALUE.
func ParseVarFlag(s string) (string, string, error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok || !ValidVarName(name) {
		return "", "", fmt.Errorf("--var %q: expected NAME=VALUE, NAME a letter or _ then letters, digits or _", clip(s))
	}
	return name, value, nil
}

// varScope resolves the {"var"} values of one scenario: its own variables under the
// project's and --var's, and the names it used (for the report).
type varScope struct {
	file, project, flags map[string]string
	projectName          string
	used                 map[string]string
}

func (v *varScope) lookup(name string) (string, bool) {
	for _, m := range []map[string]string{v.flags, v.project, v.file} {
		if val, ok := m[name]; ok {
			if v.used == nil {
				v.used = map[string]string{}
			}
			v.used[name] = val
			return val, true
		}
	}
	return "", false
}

// fileVariables reads a scenario's top-level "variables" before the rest is decoded: the
// values {"var"} needs first (the key is found loosely; the strict decode of the whole file
// refuses a case variant or a duplicate later).
func fileVariables(data []byte) (map[string]string, error) {
	var top struct {
		Variables json.RawMessage `json:"variables"`
	}
	if json.Unmarshal(data, &top) != nil || len(top.Variables) == 0 {
		return nil, nil
	}
	var vars map[string]string
	if err := strictjson.DecodeAt(top.Variables, &vars, "variables"); err != nil {
		return nil, fromStrict(err) // before any {"var"} is looked up in it
	}
	return vars, CheckVars(vars, "variables")
}

// substituteVars returns data with each {"var":"NAME"} under "operations" replaced by NAME's
// value as a JSON string; every other byte is kept, so the strict decode that follows
// still sees duplicate and case-variant keys as written. Data that is not JSON, or holds
// no {"var"}, comes back as it is (the strict decode refuses the former).
func substituteVars(data []byte, vs *varScope) ([]byte, error) {
	if !bytes.Contains(data, []byte(`"var"`)) || !json.Valid(data) {
		return data, nil
	}
	var edits []varEdit
	if err := walkVars(data, 0, "", false, 0, vs, &edits); err != nil {
		return nil, err
	}
	if len(edits) == 0 {
		return data, nil
	}
	out := make([]byte, 0, len(data))
	at := 0
	for _, e := range edits {
		out = append(out, data[at:e.start]...)
		out = append(out, e.repl...)
		at = e.end
	}
	return append(out, data[at:]...), nil
}

type varEdit struct {
	start, end int
	repl       []byte
}

// walkVars walks the JSON value raw (at offset base in the document, at JSON path path)
// and records an edit per {"var"} object. inOps: the value is inside "operations", the only
// place a {"var"} may stand (the run's setup fields are the config's and a project's). Past
// the nesting the strict decode allows it stops: that decode refuses the file anyway.
func walkVars(raw []byte, base int, path string, inOps bool, depth int, vs *varScope, edits *[]varEdit) error {
	if len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') || depth > budgets.JSONNesting {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	type member struct {
		key        string
		raw        []byte
		start, end int
	}
	var members []member
	object := raw[0] == '{'
	for i := 0; dec.More(); i++ {
		key := ""
		if object {
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			key, _ = t.(string)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		end := int(dec.InputOffset())
		members = append(members, member{key: key, raw: v, start: end - len(v), end: end})
		if !object {
			members[i].key = "[" + strconv.Itoa(i) + "]"
		}
	}
	if object {
		for _, m := range members {
			if m.key == "var" {
				return varObject(raw, base, path, inOps, len(members), m.raw, vs, edits)
			}
		}
	}
	for _, m := range members {
		p := strictjson.JoinKey(path, m.key)
		if !object {
			p = path + m.key // an array's members come keyed "[i]"
		}
		if err := walkVars(m.raw, base+m.start, p, inOps || (path == "" && m.key == "operations"), depth+1, vs, edits); err != nil {
			return err
		}
	}
	return nil
}

// varObject checks one object holding a "var" key (n keys in all, val its value) and
// records its replacement.
func varObject(raw []byte, base int, path string, inOps bool, n int, val []byte, vs *varScope, edits *[]varEdit) error {
	if n != 1 {
		return fail(path, `a {"var": "NAME"} value has only the key "var"`)
	}
	if !inOps {
		return fail(path, `{"var"} values go in operations; the run's setup (fixture, allowedOrigins, viewport …) is the config's or a project's`)
	}
	var name string
	if json.Unmarshal(val, &name) != nil || !ValidVarName(name) {
		return fail(path+".var", varNameRule)
	}
	value, ok := vs.lookup(name)
	if !ok {
		where := "variables, a project or --var"
		if vs.projectName != "" {
			where = "variables, project " + quote(vs.projectName) + " or --var"
		}
		return fail(path, fmt.Sprintf("unknown variable %q; define it in %s", name, where))
	}
	repl, _ := json.Marshal(value)
	*edits = append(*edits, varEdit{start: base, end: base + len(raw), repl: repl})
	return nil
}

func sortedNames(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
