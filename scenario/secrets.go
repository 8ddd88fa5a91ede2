package scenario

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// secretRef is one {"env":…} value of a scenario: text an act or step types, or an entry of
// a managed server's or a hook's env. Each is a secret, whether or not anything types it.
type secretRef struct {
	path string // the field holding the reference, e.g. operations[2].request.text
	name string // the environment variable
	op   int    // the operation's index, -1 for a command's env (a fragment's are relocated)
}

// secretRefs lists a scenario's secrets in file order (env entries by name).
func secretRefs(l *Loaded) []secretRef {
	var refs []secretRef
	commands := func(path string, c *Command) {
		if c == nil {
			return
		}
		names := make([]string, 0, len(c.Env))
		for name, v := range c.Env {
			if v.FromEnv != "" {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			refs = append(refs, secretRef{path: path + ".env." + name, name: c.Env[name].FromEnv, op: -1})
		}
	}
	if fx := l.Fixture; fx != nil && fx.Server != nil {
		path := "fixture.server.start"
		if l.fixtureFrom != "" {
			path = "(run config " + l.fixtureFrom + ") " + path
		}
		commands(path, fx.Server.Start)
	}
	if h := l.Hooks; h != nil {
		commands("hooks.setup", h.Setup)
		commands("hooks.reset", h.Reset)
		commands("hooks.cleanup", h.Cleanup)
	}
	for i, op := range l.Operations {
		var text *transport.Text
		path := fmt.Sprintf("operations[%d]", i)
		switch {
		case op.step != nil:
			text, path = op.step.Text, path+".step.text"
		case op.req != nil:
			if a, ok := op.req.op.(*transport.Act); ok {
				text, path = a.Text, path+".request.text"
			}
		}
		// An act in words' {"env"} variables are secrets too: masked from the run's start,
		// whether its recording types them or the task that heals it does.
		for _, name := range slices.Sorted(maps.Keys(op.Variables)) {
			if env := op.Variables[name].EnvName(); env != "" {
				refs = append(refs, secretRef{path: fmt.Sprintf("operations[%d].variables.%s.env", i, name), name: env, op: i})
			}
		}
		if text != nil && text.EnvName() != "" {
			refs = append(refs, secretRef{path: path, name: text.EnvName(), op: i})
		}
	}
	return refs
}

// CheckSecrets refuses, before anything starts, a scenario whose secret is unset or cannot
// be masked (shorter than secrets.MinLen, or inside the mask text), or whose step
// instruction holds a secret's value. The error names the field and the variable, never a
// value.
func CheckSecrets(l *Loaded, lookup func(string) (string, bool)) error {
	_, err := secretValues(l, lookup, true)
	return err
}

// RegisterSecrets checks l's secrets as CheckSecrets does and adds each to set, so that
// everything written with set is masked from the run's first byte: what a server or hook
// prints at start, before any act types the value.
func RegisterSecrets(l *Loaded, lookup func(string) (string, bool), set *secrets.Set) error {
	values, err := secretValues(l, lookup, true)
	if err != nil {
		return err
	}
	for _, v := range values {
		if err := set.Add(v); err != nil {
			return err // unreachable: secretValues made the same check
		}
	}
	return nil
}

// CheckInstructions is what `validate` can check without the secrets: a step instruction
// must not hold the value of any secret that is set. Unset or short secrets are left to run.
func CheckInstructions(l *Loaded, lookup func(string) (string, bool)) error {
	_, err := secretValues(l, lookup, false)
	return err
}

// secretValues resolves l's secrets. strict refuses an unset or unmaskable one; otherwise
// those are skipped. Either way an instruction holding a resolved value is refused.
func secretValues(l *Loaded, lookup func(string) (string, bool), strict bool) ([]string, error) {
	var values []string
	var names []string
	for _, ref := range secretRefs(l) {
		v, ok := lookup(ref.name)
		if err := secrets.New().Add(v); !ok || err != nil {
			if !strict {
				continue
			}
			msg := "environment variable " + ref.name + " is not set"
			switch {
			case !ok:
			case errors.Is(err, secrets.ErrTooShort):
				msg = fmt.Sprintf("the value of %s is shorter than %d characters and cannot be masked in outputs", ref.name, secrets.MinLen)
			default:
				msg = "the value of " + ref.name + " occurs inside the mask text and cannot be masked in outputs"
			}
			err := error(&ValidationError{File: l.Path, Path: ref.path + ".env", Code: transport.CodeInvalidRequest, Message: msg})
			if ref.op >= 0 {
				err = relocate(&l.Operations[ref.op], ref.op, err)
			}
			return nil, err
		}
		values, names = append(values, v), append(names, ref.name)
	}
	for i, op := range l.Operations {
		// A judged when's words are shown to the model (in its extract's schema), which
		// never sees a secret.
		if w := op.When; w.Judged() {
			words := strings.ToLower(w.Words)
			for k, v := range values {
				if strings.Contains(words, strings.ToLower(v)) {
					return nil, relocate(&l.Operations[i], i, &ValidationError{File: l.Path, Path: fmt.Sprintf("operations[%d].when", i), Code: transport.CodeInvalidRequest,
						Message: "the condition holds the value of the secret " + names[k] + "; a condition in words is shown to the model: say what the page shows instead"})
				}
			}
		}
		if op.step == nil {
			continue
		}
		instr := strings.ToLower(op.step.Instruction)
		for k, v := range values {
			if strings.Contains(instr, strings.ToLower(v)) {
				return nil, relocate(&l.Operations[i], i, &ValidationError{File: l.Path, Path: fmt.Sprintf("operations[%d].step.instruction", i), Code: transport.CodeInvalidRequest,
					Message: "the instruction holds the value of the secret " + names[k] + "; name the element by its visible label instead"})
			}
		}
	}
	return values, nil
}
