package transport

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Task variables (docs/protocol.md "Task variables"): the goal names a value as %name%. A
// literal is shown to the model in its placeholder's place; an {"env"} value never is: the
// model types its placeholder and the runtime puts the value in just before dispatch. A
// %x% that names no declared variable is left as written: it may be ordinary text ("100%
// of 5%").

// TaskVariableNamePattern is a task variable's name: a letter or _, then letters, digits or
// _, at most 64 in all (a scenario file's variable names have the same shape).
const TaskVariableNamePattern = `^[A-Za-z_][A-Za-z0-9_]{0,63}$`

// Compiled on first use (TestOwnPackageInitsAllocateLittle).
var (
	taskVariableName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(TaskVariableNamePattern) })
	placeholderRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%([A-Za-z_][A-Za-z0-9_]{0,63})%`) })
)

// ValidTaskVariableName says whether name may name a task variable.
func ValidTaskVariableName(name string) bool { return taskVariableName().MatchString(name) }

// Placeholder is how text names a variable: %name%.
func Placeholder(name string) string { return "%" + name + "%" }

// checkTaskVariables refuses a bad name or a missing value, at request.variables.NAME.
func checkTaskVariables(vars map[string]*Text) error {
	names := make([]string, 0, len(vars))
	for name := range vars {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := "request.variables." + clipName(name)
		if !ValidTaskVariableName(name) {
			return Invalid(OpTask, path, "variable name %q: expected a letter or _, then up to 63 letters, digits or _", clipName(name))
		}
		if vars[name] == nil {
			return Invalid(OpTask, path, `expected a string or {"env": NAME}`)
		}
	}
	return nil
}

// clipName bounds a refused name quoted in a message.
func clipName(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// ExpandPlaceholders replaces each %name% in s for which value answers (ok true) with what
// it answers, and leaves every other %…% as written; used lists the names replaced, in
// order of first use.
func ExpandPlaceholders(s string, value func(name string) (string, bool)) (out string, used []string) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	out = placeholderRE().ReplaceAllStringFunc(s, func(m string) string {
		name := m[1 : len(m)-1]
		v, ok := value(name)
		if !ok {
			return m
		}
		if !containsString(used, name) {
			used = append(used, name)
		}
		return v
	})
	return out, used
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
