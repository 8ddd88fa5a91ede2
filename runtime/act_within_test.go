package runtime

import "testing"

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		root, path string
		want       bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b", "/a/b/c.txt", true},
		{"/a/b", "/a/bc/d.txt", false},
		{"/a/b", "/a/d.txt", false},
		{"/a/b", "/a/b/..x", true},
		{"/", "/etc/hosts", true},
		{"/", "/", true},
	} {
		if got := Within(c.root, c.path); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", c.root, c.path, got, c.want)
		}
	}
}
