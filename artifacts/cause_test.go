package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCauseNamesRealFailures provokes each failure for real and checks Cause names it in
// its fixed phrase (never a path) and NoRoom tells what did not fit from the rest.
func TestCauseNamesRealFailures(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	type failure struct {
		name   string
		err    error
		phrase string
		noRoom bool
	}
	var got []failure

	link := filepath.Join(dir, "linkroot")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := Open(link, "sess")
	got = append(got, failure{"symlinked root", err, "symlink refused", false})

	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Open(file, "sess")
	got = append(got, failure{"file as root", err, "not a directory", false})

	s := openStore(t)
	if err := os.Symlink(target, filepath.Join(s.Root(), "sess", "planted")); err != nil {
		t.Fatal(err)
	}
	_, err = s.Put("planted", "o", "console", []byte("{}"), false)
	got = append(got, failure{"symlinked run dir", err, "symlink refused", false})

	runDir := filepath.Join(s.Root(), "sess", "r")
	if err := os.MkdirAll(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	fixedID(s, "dangling")
	if err := os.Symlink(filepath.Join(target, "evil.png"), filepath.Join(runDir, "dangling.png")); err != nil {
		t.Fatal(err)
	}
	_, err = s.Put("r", "o", "screenshot", []byte("png"), false)
	got = append(got, failure{"symlink at the final name", err, "symlink refused", false})

	fixedID(s, "window")
	s.beforeLink = func(final string) { _ = os.Symlink(filepath.Join(target, "w.json"), final) }
	_, err = s.Put("r", "o", "console", []byte("{}"), false)
	s.beforeLink = nil
	got = append(got, failure{"symlink planted just before the link", err, "symlink refused", false})

	fixedID(s, "exists")
	if err := os.WriteFile(filepath.Join(runDir, "exists.json"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = s.Put("r", "o", "console", []byte("{}"), false)
	got = append(got, failure{"file at the final name", err, "the name is already taken", false})

	_, err = s.Put("../up", "o", "console", []byte("{}"), false)
	got = append(got, failure{"bad run id", err, "invalid id", false})

	_, err = s.Put("r", "o", "screenshot", make([]byte, 9<<20), false)
	got = append(got, failure{"screenshot over its limit", err, "over the size limit", true})

	if os.Geteuid() == 0 { // only root can make a directory someone else owns
		foreign := filepath.Join(dir, "foreign")
		if err := os.Mkdir(foreign, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, err = Open(foreign, "sess")
		got = append(got, failure{"another user's root", err, "not owned by this user", false})
	}

	closed := openStore(t)
	closed.Close()
	_, err = closed.Put("r", "o", "console", []byte("{}"), false)
	got = append(got, failure{"closed store", err, "the store is closed", false})

	for _, f := range got {
		if f.err == nil {
			t.Errorf("%s: no error", f.name)
			continue
		}
		if c := Cause(f.err); c != f.phrase {
			t.Errorf("%s: Cause = %q, want %q (error: %v)", f.name, c, f.phrase, f.err)
		}
		if NoRoom(f.err) != f.noRoom {
			t.Errorf("%s: NoRoom = %t, want %t", f.name, !f.noRoom, f.noRoom)
		}
	}

	// The process's file-size limit, in a child so it binds nobody else (RLIMIT_FSIZE).
	out, err := runChild(t, "fsize", "ARTIFACTS_TEST_ROOT="+filepath.Join(t.TempDir(), "root"))
	if err != nil || !strings.Contains(out, `cause="file too large" noroom=true`) {
		t.Errorf("write under RLIMIT_FSIZE: %v: %s", err, out)
	}
}

// TestCausePhrasesAreFixed: errno failures the tests cannot provoke here (a full disk, a
// quota) map to their phrase too, and no phrase carries anything of the error's text.
func TestCausePhrasesAreFixed(t *testing.T) {
	secretPath := "/home/u/secret-token-42/sess/run/.tmp-x"
	for errno, want := range map[syscall.Errno]string{
		syscall.ENOSPC: "no space left on device",
		syscall.EDQUOT: "disk quota exceeded",
		syscall.EFBIG:  "file too large",
		syscall.EACCES: "permission denied",
		syscall.EROFS:  "read-only file system",
		syscall.EIO:    "input/output error",
		syscall.EBADF:  "unexpected file system error",
	} {
		err := fmt.Errorf("artifacts: write of screenshot a1 failed: %w", &fs.PathError{Op: "write", Path: secretPath, Err: errno})
		c := Cause(err)
		if c != want || strings.Contains(c, "secret") {
			t.Errorf("%v: Cause = %q, want %q", errno, c, want)
		}
		room := errno == syscall.ENOSPC || errno == syscall.EDQUOT || errno == syscall.EFBIG
		if NoRoom(err) != room {
			t.Errorf("%v: NoRoom = %t", errno, !room)
		}
	}
	if c := Cause(errors.New("anything at all: /a/path")); c != "unexpected file system error" {
		t.Errorf("unknown error: Cause = %q", c)
	}
}
