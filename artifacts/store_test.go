package artifacts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// --- helpers ---------------------------------------------------------------------------

func openStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "root"), "sess")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// tree lists every entry under dir (relative, Lstat-walked, symlinks not followed).
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	sort.Strings(out)
	return out
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	if got := tree(t, dir); len(got) != 0 {
		t.Fatalf("%s should be empty, has %v", dir, got)
	}
}

func tmpFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, p := range tree(t, dir) {
		if strings.HasPrefix(filepath.Base(p), tmpPrefix) {
			out = append(out, p)
		}
	}
	return out
}

func perm(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// checkCommitted asserts the file behind m holds exactly want and m describes it.
func checkCommitted(t *testing.T, s *Store, m Meta, want []byte) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(s.Root(), m.Path))
	if err != nil {
		t.Fatalf("read %s: %v", m.Path, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: content differs (%d bytes, want %d)", m.Path, len(got), len(want))
	}
	if m.Bytes != int64(len(want)) || m.SHA256 != sha(want) {
		t.Fatalf("%s: meta bytes=%d sha=%s, want %d %s", m.Path, m.Bytes, m.SHA256, len(want), sha(want))
	}
}

func fixedID(s *Store, id string) { s.newID = func() string { return id } }

// --- layout and meta -------------------------------------------------------------------

func TestPutLayoutAndMeta(t *testing.T) {
	s := openStore(t)
	if !filepath.IsAbs(s.Root()) {
		t.Fatalf("Root %q not absolute", s.Root())
	}
	cases := []struct{ kind, ext, ct string }{
		{"screenshot", "png", "image/png"},
		{"console", "json", "application/json"},
		{"network", "json", "application/json"},
		{"outline", "json", "application/json"},
		{"log", "log", "text/plain; charset=utf-8"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		data := []byte("data for " + c.kind)
		m, err := s.Put("run-1", "scenario.a", c.kind, data, false)
		if err != nil {
			t.Fatalf("Put %s: %v", c.kind, err)
		}
		re := regexp.MustCompile(`^sess/run-1/([A-Za-z0-9._-]{1,64})\.` + c.ext + `$`)
		sub := re.FindStringSubmatch(m.Path)
		if sub == nil || sub[1] != m.ID {
			t.Fatalf("%s: path %q / id %q do not follow the layout", c.kind, m.Path, m.ID)
		}
		if seen[m.ID] {
			t.Fatalf("id %s reused", m.ID)
		}
		seen[m.ID] = true
		if m.Owner != "scenario.a" || m.Kind != c.kind || m.ContentType != c.ct || m.Truncated ||
			!m.LocalOnly || m.ModelForwarded {
			t.Fatalf("%s: bad meta %+v", c.kind, m)
		}
		checkCommitted(t, s, m, data)
	}
	if tf := tmpFiles(t, s.Root()); len(tf) != 0 {
		t.Fatalf("temp files left after commits: %v", tf)
	}
}

func TestWriterHashesWhatWasWritten(t *testing.T) {
	s := openStore(t)
	w, err := s.Open("r", "o", "screenshot")
	if err != nil {
		t.Fatal(err)
	}
	var all []byte
	for i := range 10 {
		chunk := bytes.Repeat([]byte{byte(i)}, 1000+i)
		if n, err := w.Write(chunk); err != nil || n != len(chunk) {
			t.Fatalf("Write: n=%d err=%v", n, err)
		}
		all = append(all, chunk...)
	}
	// Nothing is visible under a final name before Commit.
	for _, p := range tree(t, filepath.Join(s.Root(), "sess", "r")) {
		if !strings.HasPrefix(p, tmpPrefix) {
			t.Fatalf("visible before commit: %s", p)
		}
	}
	m, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	checkCommitted(t, s, m, all)
	if _, err := w.Write([]byte("x")); err == nil {
		t.Fatal("Write after Commit succeeded")
	}
	if _, err := w.Commit(); err == nil {
		t.Fatal("second Commit succeeded")
	}
}

func TestUnknownKindRefused(t *testing.T) {
	s := openStore(t)
	for _, kind := range []string{"", "pdf", "Screenshot", "../screenshot"} {
		if _, err := s.Open("r", "o", kind); err == nil {
			t.Fatalf("kind %q accepted", kind)
		}
		if _, err := s.Put("r", "o", kind, []byte("x"), false); err == nil {
			t.Fatalf("Put kind %q accepted", kind)
		}
	}
	assertEmpty(t, filepath.Join(s.Root(), "sess"))
}

// --- ids ---------------------------------------------------------------------------------

var badIDs = []string{"../x", "/abs", "a\x00b", strings.Repeat("a", 4096), "", ".", "..",
	"a/b", "a b", strings.Repeat("a", 65), "é"}

func TestBadRunIDsRefused(t *testing.T) {
	s := openStore(t)
	for _, id := range badIDs {
		if _, err := s.Open(id, "o", "console"); err == nil {
			t.Fatalf("run id %q accepted by Open", id)
		} else if strings.Contains(err.Error(), "\x00") || len(err.Error()) > 300 {
			t.Fatalf("error for %q too raw: %q", id[:min(len(id), 8)], err.Error()[:min(len(err.Error()), 80)])
		}
		if _, err := s.Put(id, "o", "screenshot", []byte("x"), false); err == nil {
			t.Fatalf("run id %q accepted by Put", id)
		}
	}
	assertEmpty(t, filepath.Join(s.Root(), "sess"))
	if got := tree(t, filepath.Dir(s.Root())); len(got) != 2 { // root, root/sess
		t.Fatalf("something written outside the session: %v", got)
	}
	// The longest good id works.
	if _, err := s.Put(strings.Repeat("a", 64), "o", "console", []byte("{}"), false); err != nil {
		t.Fatalf("64-char run id refused: %v", err)
	}
}

func TestBadSessionIDsRefused(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	for _, id := range badIDs {
		if s, err := Open(root, id); err == nil {
			s.Close()
			t.Fatalf("session id %q accepted", id)
		}
	}
	if _, err := Open("", "sess"); err == nil {
		t.Fatal("empty root accepted")
	}
	if _, err := os.Lstat(root); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("root created for refused sessions: %v", err)
	}
}

func TestBadArtifactIDRefused(t *testing.T) {
	s := openStore(t)
	fixedID(s, "../../escape")
	if _, err := s.Put("r", "o", "console", []byte("{}"), false); err == nil {
		t.Fatal("artifact id ../../escape accepted")
	}
	assertEmpty(t, filepath.Join(s.Root(), "sess", "r"))
}

func TestIDsUniqueAcrossReopen(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	s1, err := Open(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	m1, err := s1.Put("r", "o", "console", []byte("1"), false)
	if err != nil {
		t.Fatal(err)
	}
	s1.Close()
	s2, err := Open(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	m2, err := s2.Put("r", "o", "console", []byte("2"), false)
	if err != nil {
		t.Fatalf("second store's first Put: %v", err)
	}
	if m1.Path == m2.Path {
		t.Fatalf("reopened store reused %s", m1.Path)
	}
	checkCommitted(t, s2, m1, []byte("1"))
	checkCommitted(t, s2, m2, []byte("2"))
}

// --- symlinks ------------------------------------------------------------------------------

func TestSymlinkRootRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "root")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{link, link + "/", link + "/."} {
		if s, err := Open(root, "sess"); err == nil {
			s.Close()
			t.Fatalf("symlinked root %q accepted", root)
		} else if !strings.Contains(err.Error(), "symlink") {
			t.Fatalf("error does not say why: %v", err)
		}
	}
	assertEmpty(t, target)
}

func TestNonDirectoryRootRefused(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	if err := os.WriteFile(root, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, "sess"); err == nil {
		t.Fatal("regular file as root accepted")
	}
}

func TestSymlinkSessionDirRefused(t *testing.T) {
	dir := t.TempDir()
	root, target := filepath.Join(dir, "root"), filepath.Join(dir, "target")
	for _, d := range []string{root, target} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, filepath.Join(root, "sess")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, "sess"); err == nil {
		t.Fatal("symlinked session dir accepted")
	}
	assertEmpty(t, target)
}

func TestSymlinkRunDirRefused(t *testing.T) {
	s := openStore(t)
	target := t.TempDir()
	sessDir := filepath.Join(s.Root(), "sess")
	// Planted before the run was ever used.
	if err := os.Symlink(target, filepath.Join(sessDir, "planted")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open("planted", "o", "screenshot"); err == nil {
		t.Fatal("symlinked run dir accepted by Open")
	}
	if _, err := s.Put("planted", "o", "console", []byte("{}"), false); err == nil {
		t.Fatal("symlinked run dir accepted by Put")
	}
	// Swapped in after the run dir was used.
	if _, err := s.Put("used", "o", "console", []byte("{}"), false); err != nil {
		t.Fatal(err)
	}
	used := filepath.Join(sessDir, "used")
	if err := os.RemoveAll(used); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, used); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("used", "o", "console", []byte("{}"), false); err == nil {
		t.Fatal("run dir swapped for a symlink accepted")
	}
	// Swapped in between Open and Commit.
	w, err := s.Open("late", "o", "console")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("{}")); err != nil {
		t.Fatal(err)
	}
	// The real run dir (temp file and all) is moved out of the tree and linked back in, so
	// a commit that trusted the path would publish the artifact outside the store.
	late, moved := filepath.Join(sessDir, "late"), filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(late, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, late); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(); err == nil {
		t.Fatal("commit through a run dir swapped for a symlink accepted")
	}
	for _, p := range tree(t, moved) {
		if !strings.HasPrefix(p, tmpPrefix) {
			t.Fatalf("artifact published outside the store: %s", p)
		}
	}
	assertEmpty(t, target)
}

func TestSymlinkFinalNameRefused(t *testing.T) {
	s := openStore(t)
	target := t.TempDir()
	runDir := filepath.Join(s.Root(), "sess", "r")
	if err := os.MkdirAll(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	// A dangling symlink: a rename or an O_CREAT open would create target/evil.png.
	fixedID(s, "dangling")
	if err := os.Symlink(filepath.Join(target, "evil.png"), filepath.Join(runDir, "dangling.png")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("r", "o", "screenshot", []byte("png"), false); err == nil {
		t.Fatal("dangling symlink at final name accepted")
	}
	assertEmpty(t, target)

	// A symlink to an existing file: its bytes must not change.
	victim := filepath.Join(target, "victim.json")
	if err := os.WriteFile(victim, []byte("original"), 0o600); err != nil {
		t.Fatal(err)
	}
	fixedID(s, "tovictim")
	if err := os.Symlink(victim, filepath.Join(runDir, "tovictim.json")); err != nil {
		t.Fatal(err)
	}
	// Race the check: the symlink is planted after Open, before Commit.
	fixedID(s, "late")
	w, err := s.Open("r", "o", "console")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("attacker-controlled?")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(runDir, "late.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(); err == nil {
		t.Fatal("symlink planted before commit accepted")
	}
	fixedID(s, "tovictim")
	if _, err := s.Put("r", "o", "console", []byte("overwrite"), false); err == nil {
		t.Fatal("symlink to existing file at final name accepted")
	}
	if got, _ := os.ReadFile(victim); string(got) != "original" {
		t.Fatalf("victim changed through symlink: %q", got)
	}
	if got := tree(t, target); len(got) != 1 || got[0] != "victim.json" {
		t.Fatalf("target dir changed: %v", got)
	}

	// A symlink that appears after the final-name check: the link itself must refuse it
	// (a rename would replace the symlink and succeed).
	fixedID(s, "window")
	s.beforeLink = func(final string) {
		if err := os.Symlink(filepath.Join(target, "window.json"), final); err != nil {
			t.Error(err)
		}
	}
	if _, err := s.Put("r", "o", "console", []byte("{}"), false); err == nil {
		t.Fatal("symlink planted between check and link was replaced")
	}
	s.beforeLink = nil
	if fi, err := os.Lstat(filepath.Join(runDir, "window.json")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("planted symlink replaced: %v", err)
	}

	// A regular file already at the final name is not clobbered either.
	fixedID(s, "exists")
	if err := os.WriteFile(filepath.Join(runDir, "exists.json"), []byte("committed"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("r", "o", "console", []byte("clobber"), false); err == nil {
		t.Fatal("existing final file clobbered")
	}
	if got, _ := os.ReadFile(filepath.Join(runDir, "exists.json")); string(got) != "committed" {
		t.Fatalf("existing artifact changed: %q", got)
	}
	if tf := tmpFiles(t, runDir); len(tf) != 0 {
		t.Fatalf("temp files left after refusals: %v", tf)
	}
	// The refused links are still links, never replaced by files.
	for _, name := range []string{"dangling.png", "tovictim.json", "late.json", "window.json"} {
		fi, err := os.Lstat(filepath.Join(runDir, name))
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s no longer the planted symlink: %v", name, err)
		}
	}
}

// --- permissions -------------------------------------------------------------------------

func TestPermissionsUnderUmask(t *testing.T) {
	for _, mask := range []string{"000", "777"} {
		t.Run("umask"+mask, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "root")
			out, err := runChild(t, "umask", "ARTIFACTS_TEST_ROOT="+root, "ARTIFACTS_TEST_UMASK="+mask)
			if err != nil {
				t.Fatalf("child: %v: %s", err, out)
			}
			paths := strings.Fields(out)
			if len(paths) != 2 {
				t.Fatalf("child output %q", out)
			}
			for _, d := range []string{root, filepath.Join(root, "sess"), filepath.Join(root, "sess", "run")} {
				if p := perm(t, d); p != 0o700 {
					t.Fatalf("%s mode %o, want 700", d, p)
				}
			}
			for _, p := range paths {
				if m := perm(t, filepath.Join(root, p)); m != 0o600 {
					t.Fatalf("%s mode %o, want 600", p, m)
				}
			}
		})
	}
}

// TestLooseDirsRefused: a root, session or run directory others can write in, before or
// after the store opened, is refused, never chmodded back: nothing is written into it, its
// mode is left as it is; one only readable by others (0755) is used as it is. A run dir of
// another run others can write in does not stop the store from opening (the sweep only
// removes files).
func TestLooseDirsRefused(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	run := filepath.Join(root, "sess", "run")
	if err := os.MkdirAll(run, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{root, filepath.Dir(run)} {
		if err := os.Chmod(d, 0o775); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(root, "sess"); !errors.Is(err, ErrShared) {
			t.Fatalf("%s 0775: Open: %v, want ErrShared", d, err)
		}
		if p := perm(t, d); p != 0o775 {
			t.Fatalf("%s: mode %o after the refusal, want 775 (unchanged)", d, p)
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(run, 0o777); err != nil {
		t.Fatal(err)
	}
	s, err := Open(root, "sess")
	if err != nil {
		t.Fatalf("Open with another run's dir loosened: %v", err)
	}
	defer s.Close()
	if _, err := s.Put("run", "o", "console", []byte("{}"), false); !errors.Is(err, ErrShared) {
		t.Fatalf("Put into a 0777 run dir: %v, want ErrShared", err)
	}
	if p := perm(t, run); p != 0o777 {
		t.Fatalf("run dir mode %o after the refusal, want 777 (unchanged)", p)
	}
	if ents, _ := os.ReadDir(run); len(ents) != 0 {
		t.Fatalf("written into the loosened run dir: %v", ents)
	}
	// The 0755 root and session dir were used as they are; loosened after Open so others
	// can write in it, the root refuses the next Open of an artifact.
	m, err := s.Put("other", "o", "console", []byte("{}"), false)
	if err != nil {
		t.Fatal(err)
	}
	if p := perm(t, filepath.Join(root, m.Path)); p != 0o600 {
		t.Fatalf("an artifact in the 0755 root is %o, want 600", p)
	}
	for _, d := range []string{root, filepath.Dir(run)} {
		if p := perm(t, d); p != 0o755 {
			t.Fatalf("%s: mode %o, want 755 (unchanged)", d, p)
		}
	}
	if err := os.Chmod(root, 0o757); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("other", "o", "console", []byte("{}"), false); !errors.Is(err, ErrShared) {
		t.Fatalf("Put after the root was loosened: %v, want ErrShared", err)
	}
	if p := perm(t, root); p != 0o757 {
		t.Fatalf("root loosened after Open is %o, want 757 (unchanged)", p)
	}
}

// --- failures ------------------------------------------------------------------------------

func TestFailedWriteUnderFsizeLimit(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	s, err := Open(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	before := bytes.Repeat([]byte("committed "), 1000)
	m, err := s.Put("run", "o", "console", before, false)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	out, err := runChild(t, "fsize", "ARTIFACTS_TEST_ROOT="+root)
	if err != nil {
		t.Fatalf("child did not report a failed write: %v: %s", err, out)
	}
	if !strings.HasPrefix(out, "ERR efbig=true") {
		t.Fatalf("child error is not EFBIG: %s", out)
	}
	runDir := filepath.Join(root, "sess", "run")
	got := tree(t, runDir)
	if len(got) != 1 || got[0] != filepath.Base(m.Path) {
		t.Fatalf("run dir after failed write holds %v, want only %s", got, m.Path)
	}
	data, err := os.ReadFile(filepath.Join(root, m.Path))
	if err != nil || !bytes.Equal(data, before) || sha(data) != m.SHA256 {
		t.Fatalf("committed artifact damaged: %v", err)
	}
}

func TestScreenshotTooLarge(t *testing.T) {
	s := openStore(t)
	runDir := filepath.Join(s.Root(), "sess", "r")

	_, err := s.Put("r", "o", "screenshot", make([]byte, budgets.ScreenshotBytes+1), false)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Put over limit: %v, want ErrTooLarge", err)
	}
	if _, err := os.Lstat(runDir); err == nil {
		assertEmpty(t, runDir)
	}

	w, err := s.Open("r", "o", "screenshot")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, budgets.ScreenshotBytes)); err != nil {
		t.Fatalf("write of exactly the limit: %v", err)
	}
	if n, err := w.Write([]byte{1}); !errors.Is(err, ErrTooLarge) || n != 0 {
		t.Fatalf("write past limit: n=%d err=%v", n, err)
	}
	assertEmpty(t, runDir) // temp file gone
	if _, err := w.Commit(); err == nil {
		t.Fatal("commit after ErrTooLarge succeeded")
	}
	assertEmpty(t, runDir)

	m, err := s.Put("r", "o", "screenshot", make([]byte, budgets.ScreenshotBytes), false)
	if err != nil || m.Bytes != budgets.ScreenshotBytes || m.Truncated {
		t.Fatalf("screenshot of exactly the limit: %+v %v", m, err)
	}
}

func TestDiagnosticsCutToLimit(t *testing.T) {
	s := openStore(t)
	data := bytes.Repeat([]byte("0123456789abcdef"), (budgets.DiagnosticsBytes/16)+100)
	m, err := s.Put("r", "o", "network", data, false)
	if err != nil {
		t.Fatalf("Put over limit: %v", err)
	}
	if !m.Truncated || m.Bytes != budgets.DiagnosticsBytes {
		t.Fatalf("meta %+v, want truncated at %d", m, budgets.DiagnosticsBytes)
	}
	checkCommitted(t, s, m, data[:budgets.DiagnosticsBytes])

	m, err = s.Put("r", "o", "console", data[:100], false)
	if err != nil || m.Truncated {
		t.Fatalf("small diagnostics: %+v %v", m, err)
	}
	m, err = s.Put("r", "o", "console", data[:100], true)
	if err != nil || !m.Truncated {
		t.Fatalf("caller-truncated diagnostics: %+v %v", m, err)
	}

	// Through a Writer: over the limit errors, writes nothing, and the writer stays usable.
	w, err := s.Open("r", "o", "outline")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data[:1000]); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Write(data); !errors.Is(err, ErrTooLarge) || n != 0 {
		t.Fatalf("diagnostics write past limit: n=%d err=%v", n, err)
	}
	if _, err := w.Write(data[:budgets.DiagnosticsBytes-1000]); err != nil {
		t.Fatal(err)
	}
	w.SetTruncated()
	m, err = w.Commit()
	if err != nil || !m.Truncated {
		t.Fatalf("commit of cut diagnostics: %+v %v", m, err)
	}
	checkCommitted(t, s, m, append(append([]byte{}, data[:1000]...), data[:budgets.DiagnosticsBytes-1000]...))
}

// --- lifecycle -----------------------------------------------------------------------------

func TestSweepOnOpen(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	s, err := Open(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Put("run", "o", "console", []byte("{}"), false)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	sess := filepath.Join(root, "sess")
	run := filepath.Join(sess, "run")
	outside := t.TempDir()
	outsideTmp := filepath.Join(outside, ".tmp-outside")
	mustWrite := func(p string) {
		if err := os.WriteFile(p, []byte("leftover"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(filepath.Join(run, ".tmp-killed1"))
	if err := os.MkdirAll(filepath.Join(sess, "other"), 0o700); err != nil {
		t.Fatal(err)
	}
	mustWrite(filepath.Join(sess, "other", ".tmp-killed2"))
	mustWrite(filepath.Join(run, "keep.json"))
	mustWrite(outsideTmp)
	// Not regular files: left alone, and never followed.
	if err := os.Symlink(outsideTmp, filepath.Join(run, ".tmp-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(run, ".tmp-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(sess, "linkedrun")); err != nil {
		t.Fatal(err)
	}

	s, err = Open(root, "sess")
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	want := []string{".tmp-dir", ".tmp-link", filepath.Base(m.Path), "keep.json"}
	sort.Strings(want)
	if got := tree(t, run); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("run dir after sweep: %v, want %v", got, want)
	}
	if got := tree(t, filepath.Join(sess, "other")); len(got) != 0 {
		t.Fatalf("other run dir not swept: %v", got)
	}
	if data, err := os.ReadFile(outsideTmp); err != nil || string(data) != "leftover" {
		t.Fatalf("sweep followed a symlink: %v", err)
	}
}

func TestCloseDiscardsUncommitted(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	s, err := Open(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := s.Put("r", "o", "screenshot", []byte("kept"), false)
	if err != nil {
		t.Fatal(err)
	}
	var pending []*Writer
	for range 3 {
		w, err := s.Open("r", "o", "console")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("pending")); err != nil {
			t.Fatal(err)
		}
		pending = append(pending, w)
	}
	if n := len(tmpFiles(t, root)); n != 3 {
		t.Fatalf("%d temp files before Close, want 3", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if tf := tmpFiles(t, root); len(tf) != 0 {
		t.Fatalf("Close left temp files %v", tf)
	}
	if got := tree(t, filepath.Join(root, "sess", "r")); len(got) != 1 {
		t.Fatalf("run dir after Close: %v", got)
	}
	checkCommitted(t, s, kept, []byte("kept"))
	for _, w := range pending {
		if _, err := w.Write([]byte("x")); err == nil {
			t.Fatal("Write after Close succeeded")
		}
		if _, err := w.Commit(); err == nil {
			t.Fatal("Commit after Close succeeded")
		}
		if err := w.Discard(); err != nil {
			t.Fatalf("Discard after Close: %v", err)
		}
	}
	if _, err := s.Open("r", "o", "console"); err == nil {
		t.Fatal("Open after Close succeeded")
	}
	if _, err := s.Put("r", "o", "console", []byte("{}"), false); err == nil {
		t.Fatal("Put after Close succeeded")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestDiscard(t *testing.T) {
	s := openStore(t)
	runDir := filepath.Join(s.Root(), "sess", "r")
	w, err := s.Open("r", "o", "console")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("gone")); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.Discard(); err != nil {
			t.Fatalf("Discard: %v", err)
		}
	}
	assertEmpty(t, runDir)
	if _, err := w.Commit(); err == nil {
		t.Fatal("Commit after Discard succeeded")
	}

	w, err = s.Open("r", "o", "console")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("stays")); err != nil {
		t.Fatal(err)
	}
	m, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Discard(); err != nil {
		t.Fatalf("Discard after Commit: %v", err)
	}
	checkCommitted(t, s, m, []byte("stays"))
}

func TestConcurrentCommits(t *testing.T) {
	s := openStore(t)
	const n = 50
	metas := make([]Meta, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data := []byte(fmt.Sprintf("artifact %d", i))
			run := fmt.Sprintf("run%d", i%3)
			if i%2 == 0 {
				metas[i], errs[i] = s.Put(run, "o", "console", data, false)
				return
			}
			w, err := s.Open(run, "o", "screenshot")
			if err != nil {
				errs[i] = err
				return
			}
			for _, b := range data {
				if _, err := w.Write([]byte{b}); err != nil {
					errs[i] = err
					return
				}
			}
			metas[i], errs[i] = w.Commit()
		}()
	}
	wg.Wait()
	paths := map[string]bool{}
	for i, m := range metas {
		if errs[i] != nil {
			t.Fatalf("goroutine %d: %v", i, errs[i])
		}
		if paths[m.Path] {
			t.Fatalf("path %s used twice", m.Path)
		}
		paths[m.Path] = true
		checkCommitted(t, s, m, []byte(fmt.Sprintf("artifact %d", i)))
	}
	if got := len(tree(t, filepath.Join(s.Root(), "sess"))); got != n+3 {
		t.Fatalf("%d entries under the session, want %d files + 3 run dirs", got, n)
	}
}

func TestCloseRacesWriters(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	s, err := Open(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Put("r", "o", "console", []byte("first"), false)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	committed := []Meta{first}
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				m, err := s.Put("r", "o", "console", []byte(fmt.Sprint(i)), false)
				if err != nil {
					return // the store closed under us: refusing is the right answer
				}
				mu.Lock()
				committed = append(committed, m)
				mu.Unlock()
			}
		}()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if tf := tmpFiles(t, root); len(tf) != 0 {
		t.Fatalf("temp files left after Close raced writers: %v", tf)
	}
	files := 0
	for _, p := range tree(t, filepath.Join(root, "sess", "r")) {
		if !strings.HasPrefix(p, tmpPrefix) {
			files++
		}
	}
	if files != len(committed) {
		t.Fatalf("%d files on disk, %d commits reported", files, len(committed))
	}
}

func TestTempNameNeverFollowedOrReused(t *testing.T) {
	s := openStore(t)
	target := t.TempDir()
	runDir := filepath.Join(s.Root(), "sess", "r")
	if err := os.MkdirAll(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	s.newTmp = func() string { return ".tmp-planted" }
	planted := filepath.Join(runDir, ".tmp-planted")
	if err := os.Symlink(filepath.Join(target, "evil"), planted); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("r", "o", "screenshot", []byte("png"), false); err == nil {
		t.Fatal("symlink at the temp name was followed")
	}
	assertEmpty(t, target)
	if err := os.Remove(planted); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte("someone else's"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("r", "o", "screenshot", []byte("png"), false); err == nil {
		t.Fatal("existing temp file reused")
	}
	if got, _ := os.ReadFile(planted); string(got) != "someone else's" {
		t.Fatalf("existing temp file changed: %q", got)
	}
}
