package scenario

import "path/filepath"

func dirOf(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Dir(p)
	}
	return filepath.Dir(abs)
}
