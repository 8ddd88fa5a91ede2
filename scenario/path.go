package scenario

import "path/filepath"

func dirOf(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Dir(p)
	}
	return filepath.Dir(abs)
}

// resolveIn is p as a file written in dir means it: an absolute path as it is, a relative
// one joined to dir. Every path a scenario, fragment or config file names (a command, its
// cwd, an include, an upload) resolves this one way.
func resolveIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// commandDir is the directory c runs in: its cwd resolved against dir, the directory of the
// file that names it (dir itself without a cwd).
func commandDir(c *Command, dir string) string {
	if c.Cwd == "" {
		return dir
	}
	return resolveIn(dir, c.Cwd)
}
