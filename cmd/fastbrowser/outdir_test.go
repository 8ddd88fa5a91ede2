package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestOutDirMadePrivate: an --out directory run creates is 0700 (inside a shared 1777
// directory too, which stays 1777); an existing one of ours (a mkdir's 0755) is used as it is,
// never chmodded, for run and for replay; what is written in it is 0600 and its artifacts/
// 0700 whatever its own mode.
func TestOutDirMadePrivate(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "ok.json", fmt.Sprintf(`{"version":1,"id":"ok","fixture":{"baseUrl":%q},
  "operations":[{"op":"navigate","request":{"url":"/"}}]}`, site.URL))
	shared := filepath.Join(dir, "shared")
	mkdirMode(t, shared, 0o777|os.ModeSticky)
	out := filepath.Join(shared, "fastbrowser-results")
	if res := runCLI(t, nil, "run", "--out", out, f); res.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	requireMode(t, out, 0o700)
	requireMode(t, filepath.Join(out, "report.json"), 0o600)
	if fi, err := os.Lstat(shared); err != nil || fi.Mode() != os.ModeDir|os.ModeSticky|0o777 {
		t.Errorf("the shared parent is %v (%v), want drwxrwxrwt", fi.Mode(), err)
	}

	replayOut := filepath.Join(dir, "replay")
	mkdirMode(t, replayOut, 0o755)
	if res := runCLI(t, nil, "replay", "--scenario", "ok", "--out", replayOut, filepath.Join(out, "report.json")); res.code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	requireMode(t, replayOut, 0o755)
	requireMode(t, filepath.Join(replayOut, "report.json"), 0o600)
	requireMode(t, filepath.Join(replayOut, "artifacts"), 0o700)
}

// mkdirMode makes dir with exactly mode, whatever the umask.
func mkdirMode(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
}

func requireMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}

// TestOutDirRefused: an --out that is a symlink (even to a directory of ours), a file, a
// directory of ours whose mode keeps us out (0500) or, with --artifacts-mode group, the group
// (0700), a shared directory (1777, like /tmp; 0770), or a directory another user owns is
// refused with exit 2 and a message naming it and saying why, before anything runs; nothing
// is written through it and no mode is changed. With --json the refusal is printed as
// invalid_request.
func TestOutDirRefused(t *testing.T) {
	dir := t.TempDir()
	f := writeScenario(t, dir, "ok.json", `{"version":1,"id":"ok","fixture":{"baseUrl":"http://127.0.0.1:9"},
  "operations":[{"op":"read"}]}`)
	target := filepath.Join(dir, "target")
	mkdirMode(t, target, 0o700)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "read-only")
	mkdirMode(t, readOnly, 0o500)
	private := filepath.Join(dir, "private")
	mkdirMode(t, private, 0o700)
	tmp := filepath.Join(dir, "tmp")
	mkdirMode(t, tmp, 0o777|os.ModeSticky)
	team := filepath.Join(dir, "team")
	mkdirMode(t, team, 0o770)
	cases := map[string]string{
		link:       "is a symlink",
		link + "/": "is a symlink",
		file:       "exists and is not a directory",
		readOnly:   "has mode 0500, which keeps out who fastbrowser writes for (it needs at least 0700), and is refused: fastbrowser never changes the mode of a directory it did not create. chmod 700 it",
		private:    "has mode 0700, which keeps out who fastbrowser writes for (it needs at least 0750)", // under --artifacts-mode group
		tmp:        "is a shared directory (mode 1777: writable by others or sticky) and is refused: fastbrowser never changes the mode of a directory it did not create. Give a directory of your own that does not exist yet, such as " + filepath.Join(tmp, "fastbrowser-results"),
		team:       "is a shared directory (mode 0770",
	}
	if os.Geteuid() == 0 { // only root can make a directory someone else owns
		foreign := filepath.Join(dir, "foreign")
		mkdirMode(t, foreign, 0o700)
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases[foreign] = "is owned by uid 65534, not by this user"
	}
	modes := map[string]os.FileMode{}
	for out := range cases {
		fi, err := os.Lstat(filepath.Clean(out))
		if err != nil {
			t.Fatal(err)
		}
		modes[out] = fi.Mode()
	}
	for out, want := range cases {
		args := []string{"run", "--out", out, f}
		if out == private {
			args = []string{"run", "--artifacts-mode", "group", "--out", out, f}
		}
		res := runCLI(t, nil, args...)
		if res.code != 2 || !strings.Contains(res.stderr, "--out "+out+": "+want) {
			t.Errorf("--out %s: exit %d, want 2 and %q\n%s%s", out, res.code, want, res.stdout, res.stderr)
		}
		if strings.Contains(res.stdout, "PASS") || strings.Contains(res.stdout, "ERROR") {
			t.Errorf("--out %s: something ran:\n%s", out, res.stdout)
		}
		if fi, err := os.Lstat(filepath.Clean(out)); err != nil || fi.Mode() != modes[out] {
			t.Errorf("--out %s: mode %v became %v (%v)", out, modes[out], fi.Mode(), err)
		}
		if ents, _ := os.ReadDir(out); !strings.HasPrefix(out, link) && len(ents) != 0 {
			t.Errorf("--out %s: written in the refused directory: %v", out, ents)
		}
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("written through the symlink: %v", ents)
	}
	requireMode(t, target, 0o700)

	res := runCLI(t, nil, "run", "--json", "--out", tmp, f)
	var sum struct {
		Status string
		Errors []struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &sum); err != nil || res.code != 2 || sum.Status != "invalid" || len(sum.Errors) != 1 ||
		sum.Errors[0].Code != "invalid_request" || !strings.HasPrefix(sum.Errors[0].Message, "--out "+tmp+": is a shared directory") {
		t.Errorf("--json --out %s: exit %d, %+v (%v), want invalid with one invalid_request naming it\n%s", tmp, res.code, sum, err, res.stdout)
	}
}
