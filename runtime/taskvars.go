package runtime

import (
	"sort"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
)

// A task's variables (transport/taskvars.go): resolved once, before anything reaches the
// model. An {"env"} value is read with the session's LookupEnv, as act's {"env"} text is, and
// becomes a secret of the session at once, so every scrub masks it from then on; the model
// only ever sees its placeholder. A literal is shown to the model in its placeholder's place.

// taskVar is one resolved variable.
type taskVar struct {
	value  string
	secret bool // from {"env"}: never shown, typed only through its placeholder
}

// taskVariables resolves req's variables: a missing environment variable, a value that
// cannot be masked, or a literal holding a secret's value is refused at
// request.variables.NAME, before the model is asked anything.
func (r *Runtime) taskVariables(req *transport.Task) (map[string]taskVar, error) {
	if len(req.Variables) == 0 {
		return nil, nil
	}
	names := make([]string, 0, len(req.Variables))
	for name := range req.Variables {
		names = append(names, name)
	}
	sort.Strings(names)
	vars := make(map[string]taskVar, len(names))
	for _, name := range names {
		path := "request.variables." + name
		text := req.Variables[name]
		if env := text.EnvName(); env != "" {
			v, err := text.Resolve(transport.OpTask, r.lookupEnv)
			if err != nil {
				return nil, transport.Invalid(transport.OpTask, path+".env", "environment variable %s is not set", env)
			}
			if err := r.secrets.Add(v.Value()); err != nil {
				return nil, transport.Invalid(transport.OpTask, path+".env", "the value of %s cannot be kept secret: %s", env, secretRefusal(err))
			}
			vars[name] = taskVar{value: v.Value(), secret: true}
			continue
		}
		vars[name] = taskVar{value: text.Value()}
	}
	for _, name := range names {
		// Checked once every env value is a secret: a literal is shown to the model.
		if v := vars[name]; !v.secret && r.secrets.Scrub(v.value) != v.value {
			return nil, transport.Invalid(transport.OpTask, "request.variables."+name, "the value holds a secret's value; a model never sees one (give it as {\"env\": NAME})")
		}
	}
	return vars, nil
}

// hasSecretVariables says whether the model must be told to type a value by its placeholder.
func (t *taskRun) hasSecretVariables() bool {
	for _, v := range t.vars {
		if v.secret {
			return true
		}
	}
	return false
}

// goal is the goal as the model reads it: each literal variable's placeholder replaced by its
// value, an {"env"} one's left as written.
func (t *taskRun) goal() string {
	g, _ := transport.ExpandPlaceholders(t.req.Goal, func(name string) (string, bool) {
		v, ok := t.vars[name]
		return v.value, ok && !v.secret
	})
	return g
}

// typed is what a type action types for the model's text: every declared variable's
// placeholder replaced by its value (secret when an {"env"} value went in).
func (t *taskRun) typed(text string) *transport.Text {
	secret := false
	out, _ := transport.ExpandPlaceholders(text, func(name string) (string, bool) {
		v, ok := t.vars[name]
		secret = secret || (ok && v.secret)
		return v.value, ok
	})
	if secret {
		return transport.SecretLiteral(out)
	}
	return transport.Literal(out)
}

// account fills in what of the task's variables an action used (TaskAction.Variables), and
// normalises its typed text (option is the one the model asked for, which a failed action's
// receipt lacks): a text exactly equal to a literal variable's value is that
// variable's placeholder, so an exporter can tell it from text the model chose.
func (t *taskRun) account(a *transport.TaskAction, option string) {
	if len(t.vars) == 0 {
		return
	}
	used := map[string]bool{}
	if a.Receipt.Action == transport.ActType {
		_, named := transport.ExpandPlaceholders(a.Text, func(name string) (string, bool) {
			v, ok := t.vars[name]
			return v.value, ok
		})
		for _, n := range named {
			used[n] = true
		}
		for name, v := range t.vars {
			if !v.secret && v.value != "" && a.Text == v.value {
				a.Text, used[name] = transport.Placeholder(name), true
				break
			}
		}
	}
	for name, v := range t.vars {
		if v.secret || v.value == "" {
			continue
		}
		for _, s := range []string{a.Receipt.Name, a.Receipt.Option, option, a.URL} {
			if strings.Contains(s, v.value) {
				used[name] = true
			}
		}
	}
	a.Variables = nil
	for name := range used {
		a.Variables = append(a.Variables, name)
	}
	sort.Strings(a.Variables)
}
