package main

import (
	"errors"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// secretEnvFlag lets a parent declare its secrets when serve starts: serve cannot know which
// variables a later {"env":…} act will name, so without it a value is masked only from the
// act that types it on, and never in what came before (a page or log that already shows it).
var secretEnvFlag = &cli.StringSliceFlag{Name: "secret-env",
	Usage: "environment variable `NAME` whose value is a secret: masked in every result, error and log from the start, not only once an act types it (repeat)"}

// serveSecrets is the session's secret set with every --secret-env value registered. An
// unset or unmaskable variable is a usage error that names it, never its value.
func serveSecrets(c *cli.Context, st *state) (*secrets.Set, error) {
	set := secrets.New()
	for _, name := range c.StringSlice(secretEnvFlag.Name) {
		v, ok := st.lookup()(name)
		if !ok {
			return nil, usageError("--secret-env %s: the variable is not set", name)
		}
		if err := set.Add(v); errors.Is(err, secrets.ErrTooShort) {
			return nil, usageError("--secret-env %s: the value is shorter than %d characters and cannot be masked", name, secrets.MinLen)
		} else if err != nil {
			return nil, usageError("--secret-env %s: the value occurs inside the mask text and cannot be masked", name)
		}
	}
	return set, nil
}

// scrubbedLog is log (Chromium's and the worker's stderr under FASTBROWSER_DEBUG) passed
// through set, and the flush to call at the end; nil stays nil.
func scrubbedLog(log io.Writer, set *secrets.Set) (io.Writer, func()) {
	if log == nil {
		return nil, func() {}
	}
	w := set.Writer(log)
	return w, func() { _ = w.Flush() }
}
