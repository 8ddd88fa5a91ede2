package scenario

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

const timeoutOps = `[
	{"op": "assert", "request": {"kind": "title", "value": "a"}},
	{"op": "assert", "request": {"kind": "title", "value": "b", "timeoutMs": 500}},
	{"op": "assert", "request": {"kind": "title", "value": "c", "wait": "none"}},
	{"op": "act", "request": {"action": "click", "target": {"role": "button", "name": "Go"}}},
	{"op": "act", "timeoutMs": 7000, "request": {"action": "click", "target": {"role": "button", "name": "Go"}}},
	{"op": "step", "step": {"instruction": "Save", "action": "click", "postcondition": {"kind": "text", "value": "Saved"}}},
	{"op": "read"}]`

// timeoutsOf is each operation's assert timeoutMs (-1: not an assert) and request budget.
func timeoutsOf(l *Loaded) string {
	var parts []string
	for _, op := range l.Operations {
		assert := -1
		if op.req != nil {
			if a, ok := op.req.op.(*transport.Assert); ok {
				assert = a.TimeoutMs
			}
		}
		parts = append(parts, fmt.Sprintf("%d/%d", assert, op.TimeoutMs))
	}
	return strings.Join(parts, " ")
}

// TestDefaultTimeouts: expectTimeoutMs becomes the timeoutMs of each waiting assert that
// gives none, actionTimeoutMs the request budget of each act and step that gives none; an
// operation's own value wins, the file's wins over the run config's, and the config's fills
// a file that gives none.
func TestDefaultTimeouts(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		ConfigName:     `{"version": 1, "expectTimeoutMs": 1500, "actionTimeoutMs": 20000}`,
		"none.json":    `{"version": 1, "id": "none", "operations": ` + timeoutOps + `}`,
		"own.json":     `{"version": 1, "id": "own", "expectTimeoutMs": 2500, "actionTimeoutMs": 30000, "operations": ` + timeoutOps + `}`,
		"expects.json": `{"version": 1, "id": "expects", "expectTimeoutMs": 2000, "operations": ` + timeoutOps + `}`,
	})
	cfg, err := LoadConfig(filepath.Join(dir, ConfigName))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		cfg  *RunConfig
		want string
	}{
		{"none.json", nil, "0/0 500/0 0/0 -1/0 -1/7000 -1/0 -1/0"},
		{"none.json", cfg, "1500/0 500/0 0/0 -1/20000 -1/7000 -1/20000 -1/0"},
		{"own.json", cfg, "2500/0 500/0 0/0 -1/30000 -1/7000 -1/30000 -1/0"},
		{"expects.json", cfg, "2000/0 500/0 0/0 -1/20000 -1/7000 -1/20000 -1/0"}, // field by field
		{"own.json", nil, "2500/0 500/0 0/0 -1/30000 -1/7000 -1/30000 -1/0"},
	} {
		l, err := LoadWith(filepath.Join(dir, c.file), Overrides{Config: c.cfg})
		if err != nil {
			t.Fatal(err)
		}
		if got := timeoutsOf(l); got != c.want {
			t.Errorf("%s (config %v): %s, want %s", c.file, c.cfg != nil, got, c.want)
		}
	}
}

// TestDefaultTimeoutRefusals: a value over its budget's ceiling is budget_exceeded, a
// negative one invalid_request, each with its path, in a scenario file and in a run config.
func TestDefaultTimeoutRefusals(t *testing.T) {
	expectCeiling := expectBudget().Ceiling.Milliseconds()
	for _, c := range []struct {
		field string
		ms    int64
		code  transport.Code
	}{
		{"expectTimeoutMs", expectCeiling + 1, transport.CodeBudgetExceeded},
		{"actionTimeoutMs", 120001, transport.CodeBudgetExceeded},
		{"expectTimeoutMs", -1, transport.CodeInvalidRequest},
		{"actionTimeoutMs", -5, transport.CodeInvalidRequest},
	} {
		field := fmt.Sprintf(`"%s": %d`, c.field, c.ms)
		dir := writeFiles(t, t.TempDir(), map[string]string{
			"s.json":   `{"version": 1, "id": "s", ` + field + `, "operations": [{"op": "read"}]}`,
			ConfigName: `{"version": 1, ` + field + `}`,
		})
		_, err := Load(filepath.Join(dir, "s.json"))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != c.field || ve.Code != c.code {
			t.Errorf("file %s: %v", field, err)
		}
		_, err = LoadConfig(filepath.Join(dir, ConfigName))
		if !errors.As(err, &ve) || ve.Path != c.field || ve.Code != c.code || ve.File != filepath.Join(dir, ConfigName) {
			t.Errorf("config %s: %v", field, err)
		}
	}
	// At the ceilings: accepted.
	if _, err := Parse(fmt.Appendf(nil, `{"version": 1, "id": "s", "expectTimeoutMs": %d, "actionTimeoutMs": 120000, "operations": [{"op": "read"}]}`, expectCeiling)); err != nil {
		t.Errorf("at the ceilings: %v", err)
	}
}
