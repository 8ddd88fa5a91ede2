package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestOutDirMadePrivate: an --out directory that already exists with mode 0755 is 0700
// after run and after replay, and what is written in it is 0600.
func TestOutDirMadePrivate(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "ok.json", fmt.Sprintf(`{"version":1,"id":"ok","fixture":{"baseUrl":%q},
  "operations":[{"op":"navigate","request":{"url":"/"}}]}`, site.URL))
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	if res := runCLI(t, nil, "run", "--out", out, f); res.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	requireMode(t, out, 0o700)
	requireMode(t, filepath.Join(out, "report.json"), 0o600)

	replayOut := filepath.Join(dir, "replay")
	if err := os.Mkdir(replayOut, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(replayOut, 0o755); err != nil {
		t.Fatal(err)
	}
	if res := runCLI(t, nil, "replay", "--scenario", "ok", "--out", replayOut, filepath.Join(out, "report.json")); res.code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	requireMode(t, replayOut, 0o700)
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

// TestOutDirRefused: an --out that is a symlink (even to a directory of ours), a file, or a
// directory another user owns is refused with exit 2 and a message saying which, before
// anything runs, and nothing is written through it.
func TestOutDirRefused(t *testing.T) {
	dir := t.TempDir()
	f := writeScenario(t, dir, "ok.json", `{"version":1,"id":"ok","fixture":{"baseUrl":"http://127.0.0.1:9"},
  "operations":[{"op":"read"}]}`)
	target := filepath.Join(dir, "target")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{link: "is a symlink", link + "/": "is a symlink", file: "is not a directory"}
	if os.Geteuid() == 0 { // only root can make a directory someone else owns
		foreign := filepath.Join(dir, "foreign")
		if err := os.Mkdir(foreign, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases[foreign] = "not by this user"
	}
	for out, want := range cases {
		res := runCLI(t, nil, "run", "--out", out, f)
		if res.code != 2 || !strings.Contains(res.stderr, "--out "+out+": ") || !strings.Contains(res.stderr, want) {
			t.Errorf("--out %s: exit %d, want 2 and %q\n%s%s", out, res.code, want, res.stdout, res.stderr)
		}
		if strings.Contains(res.stdout, "PASS") || strings.Contains(res.stdout, "ERROR") {
			t.Errorf("--out %s: something ran:\n%s", out, res.stdout)
		}
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("written through the symlink: %v", ents)
	}
	requireMode(t, target, 0o755)
}
