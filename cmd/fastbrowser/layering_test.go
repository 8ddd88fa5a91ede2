package main

import (
	"os/exec"
	"strings"
	"testing"
)

// module is the import path every package of ours starts with.
const module = "github.com/fastbrowser/fastbrowser/"

// layerRule: a package under from (the folder and everything below it) must not import a
// package under any of banned. docs/architecture.md draws these layers; the rules are here
// so that the build, not a reader, refuses a wrong import.
type layerRule struct {
	from   string
	banned []string
	why    string
}

var layerRules = []layerRule{
	{"budgets", []string{""}, "budgets is the floor: it imports nothing of ours"},
	{"transport/wire", []string{"worker", "runtime", "scenario", "artifacts", "cmd"}, "the wire frames and carries; it knows no layer above it"},
	{"transport", []string{"transport/wire", "worker", "runtime", "scenario", "artifacts", "cmd", "scenarios"}, "the protocol (types, table, errors, matcher) is below every layer and knows no wire"},
	{"worker", []string{"runtime", "scenario", "artifacts", "cmd"}, "the worker serves the runtime over the protocol and must not know it"},
	{"artifacts", []string{"worker", "runtime", "scenario", "cmd"}, "the store is below the runtime that writes to it"},
	{"runtime", []string{"worker", "scenario", "cmd"}, "the runtime runs the worker as a process, never its code, and knows no scenario"},
	{"scenario", []string{"cmd", "worker"}, "scenarios run through the runtime, below the CLI"},
	{"scenarios", []string{"worker", "runtime", "scenario", "artifacts", "cmd"}, "example files and the fixture site stand alone"},
}

// leaves are small shared packages every layer may use; they import nothing of ours but
// budgets and each other.
var leaves = []string{"transport/names", "transport/strictjson", "transport/jsonl", "transport/cdppipe", "transport/policy", "transport/secrets", "transport/textclip"}

// TestLayering: every package imports only downward (layerRules; the most specific rule for
// a package applies), and the leaves import nothing of ours but budgets and each other. Test-only imports
// are not held to it.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if why := layerViolation(pkg, strings.TrimPrefix(imp, module)); why != "" {
				t.Errorf("%s imports %s: %s", pkg, strings.TrimPrefix(imp, module), why)
			}
		}
	}
}

// layerViolation says why pkg may not import imp, or "" when it may.
func layerViolation(pkg, imp string) string {
	for _, l := range leaves {
		if under(pkg, l) {
			if imp != "budgets" && !isLeaf(imp) {
				return "a leaf imports nothing of ours but budgets and other leaves"
			}
			return ""
		}
	}
	if under(pkg, "runtime/runtimetest") || under(pkg, "runtime/process/proctest") || under(pkg, "runtime/model/modeltest") || under(pkg, "scenario/junit/junittest") {
		return "" // test helpers: they build and drive the whole stack
	}
	var rule *layerRule
	for i, r := range layerRules {
		if under(pkg, r.from) && (rule == nil || len(r.from) > len(rule.from)) {
			rule = &layerRules[i]
		}
	}
	if rule == nil {
		return ""
	}
	for _, b := range rule.banned {
		switch {
		case b == "":
			return rule.why
		case under(imp, b) && !isLeaf(imp):
			return rule.why
		}
	}
	return ""
}

func isLeaf(p string) bool {
	for _, l := range leaves {
		if under(p, l) {
			return true
		}
	}
	return false
}

// under reports whether p is folder or inside it.
func under(p, folder string) bool { return p == folder || strings.HasPrefix(p, folder+"/") }
