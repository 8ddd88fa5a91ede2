package runtime

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = prepares((*Runtime).prepareAct)

// prepareAct resolves what only the runtime may decide before an act reaches the worker:
// {"env":…} text is read from the session's environment (the value is a secret from then
// on), and upload paths must lie under the working directory.
func (r *Runtime) prepareAct(a *transport.Act, _ policy.Policy) error {
	if a.Text != nil {
		t, err := a.Text.Resolve(transport.OpAct, r.lookupEnv)
		if err != nil {
			return err
		}
		if t.Secret() {
			// From here on the value is scrubbed from everything the session returns, and
			// the worker masks the field in screenshots.
			if err := r.secrets.Add(t.Value()); err != nil {
				return transport.Invalid(transport.OpAct, "request.text.env", "the value of %s cannot be kept secret: %s", a.Text.EnvName(), secretRefusal(err))
			}
			a.SecretText = true
		}
		a.Text = t
	}
	if a.Action == transport.ActUpload {
		files, err := underWorkDir(a.Files, r.uploadRoot)
		if err != nil {
			return err
		}
		a.Files = files
	}
	return nil
}

// underWorkDir makes each path absolute and refuses one that leaves the working directory
// (rootOf's answer when rootOf is set), after symlinks are followed, or that is not a regular
// file.
func underWorkDir(files []string, rootOf func() string) ([]string, error) {
	var wd string
	var err error
	if rootOf != nil {
		if wd = rootOf(); wd == "" {
			err = os.ErrNotExist
		}
	} else {
		wd, err = os.Getwd()
	}
	if err != nil {
		return nil, transport.Invalid(transport.OpAct, "request.files", "the working directory is unavailable")
	}
	root, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return nil, transport.Invalid(transport.OpAct, "request.files", "the working directory is unavailable")
	}
	out := make([]string, len(files))
	for i, f := range files {
		path := "request.files[" + strconv.Itoa(i) + "]"
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, transport.Invalid(transport.OpAct, path, "no such file under the working directory")
		}
		if !Within(root, real) {
			return nil, transport.NewError(transport.OpAct, transport.PhasePolicy, transport.CodeInvalidRequest, transport.RetryNever, transport.NotAttempted,
				"upload paths must be under the working directory").WithPath(path)
		}
		if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
			return nil, transport.Invalid(transport.OpAct, path, "not a regular file")
		}
		out[i] = real
	}
	return out, nil
}

// Within reports whether path is root or lies under it (both clean, absolute, symlinks
// resolved); a root of "/" holds every path.
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
