package artifacts

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadCommitted: a committed artifact reads back as its bytes; one changed, cut, moved
// behind a symlink, missing, or listed with a path outside the store's layout is refused
// with the reason, never read.
func TestReadCommitted(t *testing.T) {
	s := openStore(t)
	data := []byte(`{"entries":[]}`)
	m, err := s.Put("run1", "owner", "console", data, false)
	if err != nil {
		t.Fatal(err)
	}
	root := s.Root()
	got, err := ReadCommitted(root, m)
	if err != nil || string(got) != string(data) {
		t.Fatalf("ReadCommitted: %q %v", got, err)
	}
	file := filepath.Join(root, filepath.FromSlash(m.Path))
	bad := func(mod func(Meta) Meta, want error) {
		t.Helper()
		if _, err := ReadCommitted(root, mod(m)); !errors.Is(err, want) {
			t.Errorf("got %v, want %v", err, want)
		}
	}
	bad(func(m Meta) Meta { m.SHA256 = m.SHA256[:62] + "00"; return m }, ErrMismatch)
	bad(func(m Meta) Meta { m.Bytes--; return m }, ErrMismatch)
	bad(func(m Meta) Meta { m.Path = "sess/../sess/run1/x.json"; return m }, ErrBadID)
	bad(func(m Meta) Meta { m.Path = "sess/run1/missing.json"; return m }, ErrMissing)
	bad(func(m Meta) Meta { m.Kind = "video"; return m }, ErrBadKind)
	if err := os.WriteFile(file, []byte(`{"entries":[1]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad(func(m Meta) Meta { return m }, ErrMismatch)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(elsewhere, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, file); err != nil {
		t.Fatal(err)
	}
	bad(func(m Meta) Meta { return m }, ErrSymlink)
}
