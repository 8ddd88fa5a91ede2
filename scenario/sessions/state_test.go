package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestRootOrder: FASTBROWSER_STATE_DIR, else XDG_STATE_HOME/fastbrowser, else
// HOME/.local/state/fastbrowser, created 0700 with its parents.
func TestRootOrder(t *testing.T) {
	base := t.TempDir()
	explicit, xdg, home := filepath.Join(base, "explicit", "state"), filepath.Join(base, "xdg"), filepath.Join(base, "home")
	cases := []struct {
		name string
		env  map[string]string
		want string // "" : refused
	}{
		{"explicit first", map[string]string{"FASTBROWSER_STATE_DIR": explicit, "XDG_STATE_HOME": xdg, "HOME": home}, explicit},
		{"xdg next", map[string]string{"XDG_STATE_HOME": xdg, "HOME": home}, filepath.Join(xdg, "fastbrowser")},
		{"empty explicit is unset", map[string]string{"FASTBROWSER_STATE_DIR": "", "XDG_STATE_HOME": xdg, "HOME": home}, filepath.Join(xdg, "fastbrowser")},
		{"home last", map[string]string{"HOME": home}, filepath.Join(home, ".local", "state", "fastbrowser")},
		{"relative xdg ignored", map[string]string{"XDG_STATE_HOME": "rel", "HOME": home}, filepath.Join(home, ".local", "state", "fastbrowser")},
		{"relative explicit refused", map[string]string{"FASTBROWSER_STATE_DIR": "rel", "HOME": home}, ""},
		{"nothing set", map[string]string{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Root(env(c.env))
			if c.want == "" {
				if err == nil {
					t.Fatalf("Root = %q, want a refusal", got)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("Root = %q, %v; want %q", got, err, c.want)
			}
			requireMode(t, got, 0o700)
		})
	}
	requireMode(t, filepath.Join(home, ".local", "state"), 0o700) // parents made private too
}

// TestRootRefuses: a symlink, a file and another user's directory are refused, naming the
// path; a directory of ours with a wider mode is tightened to 0700.
func TestRootRefuses(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	refused := map[string]string{link: "symlink", file: "not a directory"}
	if os.Geteuid() == 0 { // only root can make a directory someone else owns
		foreign := filepath.Join(base, "foreign")
		if err := os.Mkdir(foreign, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		refused[foreign] = "owned by another user"
	}
	for path, why := range refused {
		_, err := Root(env(map[string]string{"FASTBROWSER_STATE_DIR": path}))
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), why) {
			t.Errorf("Root(%s) = %v, want a refusal naming the path and %q", path, err, why)
		}
	}
	requireMode(t, target, 0o700)

	wide := filepath.Join(base, "wide")
	if err := os.Mkdir(wide, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Root(env(map[string]string{"FASTBROWSER_STATE_DIR": wide})); err != nil || got != wide {
		t.Fatalf("Root(wide) = %q, %v", got, err)
	}
	requireMode(t, wide, 0o700)
}

func TestValidID(t *testing.T) {
	for _, id := range []string{"", "../x", "s-XYZ", "s-0123456G", "S-01234567", "s-0123456", "s-012345678", "s-0123ABCD", "s-../../x", "x-01234567", "s-0123456\n"} {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
	s := openStore(t)
	seen := map[string]bool{}
	for range 100 {
		id := s.NewID()
		if !ValidID(id) || seen[id] {
			t.Fatalf("NewID = %q (valid %v, seen before %v)", id, ValidID(id), seen[id])
		}
		seen[id] = true
	}
	if !ValidID("s-0123abcd") {
		t.Error(`ValidID("s-0123abcd") = false`)
	}
}

func openStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sampleRecord(id string) Record {
	at := time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)
	return Record{
		ID: id, Created: at, State: StateOpen, IdleDeadline: at.Add(15 * time.Minute),
		Options: Options{URL: "http://127.0.0.1:1/", AllowedOrigins: []string{"http://127.0.0.1:1"}, IdleTimeoutMs: 900000, Dir: "/work"},
	}
}

func create(t *testing.T, s *Store, rec Record) *Dir {
	t.Helper()
	d, err := s.Create(rec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRecordAndHistoryRoundTrip(t *testing.T) {
	s := openStore(t)
	requireMode(t, s.Root(), 0o700)
	requireMode(t, filepath.Join(s.Root(), "sessions"), 0o700)
	rec := sampleRecord(s.NewID())
	d := create(t, s, rec)
	if d.ID != rec.ID || d.Path != filepath.Join(s.Root(), "sessions", rec.ID) {
		t.Fatalf("Create = %+v", d)
	}
	requireMode(t, d.Path, 0o700)
	requireMode(t, filepath.Join(d.Path, "session.json"), 0o600)
	if _, err := s.Create(rec); err == nil {
		t.Fatal("Create of an existing session succeeded")
	}

	o, err := s.Open(rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := o.Record(); err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("Record = %+v, %v; want %+v", got, err, rec)
	}
	rec.URL, rec.Title, rec.HostPid = "http://127.0.0.1:1/next", "Next", 42
	if err := o.WriteRecord(rec); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Record(); err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("after WriteRecord: Record = %+v, %v; want %+v", got, err, rec)
	}
	got, err := d.Update(func(r *Record) { r.HistoryLength = 2 })
	rec.HistoryLength = 2
	if err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("Update = %+v, %v; want %+v", got, err, rec)
	}
	if got, err := d.Record(); err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("after Update: Record = %+v, %v; want %+v", got, err, rec)
	}
	requireMode(t, filepath.Join(d.Path, "session.json"), 0o600)
	requireMode(t, filepath.Join(d.Path, "record.lock"), 0o600)
	if err := d.WriteRecord(sampleRecord("s-00000000")); err == nil {
		t.Error("WriteRecord of another session's record succeeded")
	}

	if es, err := d.Entries(); err != nil || len(es) != 0 {
		t.Fatalf("Entries before any = %v, %v", es, err)
	}
	want := []Entry{
		{Index: 0, Operation: json.RawMessage(`{"navigate":"http://127.0.0.1:1/"}`), Status: StatusDone, URLAfter: "http://127.0.0.1:1/", At: time.Date(2026, 12, 3, 15, 1, 0, 0, time.UTC)},
		{Index: 1, Operation: json.RawMessage(`{"click":"e3"}`), Status: StatusFailed, Code: "element_not_found", Message: "no button named \"Go\"", At: time.Date(2026, 12, 3, 15, 2, 0, 0, time.UTC)},
	}
	for _, e := range want {
		if err := d.AppendEntry(e); err != nil {
			t.Fatal(err)
		}
	}
	if es, err := d.Entries(); err != nil || !reflect.DeepEqual(es, want) {
		t.Fatalf("Entries = %+v, %v; want %+v", es, err, want)
	}
	requireMode(t, filepath.Join(d.Path, "history.jsonl"), 0o600)
	if leftovers, _ := filepath.Glob(filepath.Join(d.Path, ".*.tmp")); len(leftovers) != 0 {
		t.Errorf("temp files left: %v", leftovers)
	}

	if d.SocketPath() != filepath.Join(d.Path, "host.sock") {
		t.Errorf("SocketPath = %s", d.SocketPath())
	}
	if err := d.Remove(); err != nil || exists(d.Path) {
		t.Fatalf("Remove = %v; directory still there: %v", err, exists(d.Path))
	}
	requireNotFound(t, s, rec.ID)
}

func requireNotFound(t *testing.T, s *Store, id string) {
	t.Helper()
	_, err := s.Open(id)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Code() != CodeNotFound || !strings.Contains(err.Error(), id) {
		t.Errorf("Open(%q) = %v, want a NotFoundError naming it", id, err)
	}
}

// TestOpenRefusesBadIDs: anything but an id goes no further than the check (a path trick
// would otherwise reach an existing directory).
func TestOpenRefusesBadIDs(t *testing.T) {
	s := openStore(t)
	if err := os.Mkdir(filepath.Join(s.Root(), "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"../x", "", "s-XYZ", "s-01234567"} {
		requireNotFound(t, s, id)
	}
}

// TestModesUnderHarshUmask: directories 0700 and files 0600 whatever the umask.
func TestModesUnderHarshUmask(t *testing.T) {
	old := syscall.Umask(0o377)
	defer syscall.Umask(old)
	s := openStore(t)
	d := create(t, s, sampleRecord(s.NewID()))
	if err := d.AppendEntry(Entry{Index: 0, Operation: json.RawMessage(`{}`), Status: StatusDone}); err != nil {
		t.Fatal(err)
	}
	release, err := d.LockHost()
	if err != nil {
		t.Fatal(err)
	}
	release()
	syscall.Umask(old)
	for path, mode := range map[string]os.FileMode{
		s.Root(): 0o700, filepath.Join(s.Root(), "sessions"): 0o700, d.Path: 0o700,
		filepath.Join(d.Path, "session.json"): 0o600, filepath.Join(d.Path, "history.jsonl"): 0o600,
		filepath.Join(d.Path, "record.lock"): 0o600, filepath.Join(d.Path, "host.lock"): 0o600,
	} {
		requireMode(t, path, mode)
	}
}

// TestConcurrentWritesLoseNothing: many writers at once, each a read-modify-write, and
// every one of their changes is there.
func TestConcurrentWritesLoseNothing(t *testing.T) {
	s := openStore(t)
	d := create(t, s, sampleRecord(s.NewID()))
	const writers = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for i := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := d.Update(func(r *Record) { r.HistoryLength++ })
			errs <- err
		}()
		go func() {
			defer wg.Done()
			errs <- d.AppendEntry(Entry{Index: i, Operation: json.RawMessage(`{}`), Status: StatusDone})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if rec, err := d.Record(); err != nil || rec.HistoryLength != writers {
		t.Errorf("after %d concurrent Updates: HistoryLength %d, %v", writers, rec.HistoryLength, err)
	}
	if es, err := d.Entries(); err != nil || len(es) != writers {
		t.Errorf("after %d concurrent AppendEntry: %d entries, %v", writers, len(es), err)
	}
}

// TestHistoryBounded: a history over the limit is refused unread, and one the next entry
// would take past it refuses the entry.
func TestHistoryBounded(t *testing.T) {
	s := openStore(t)
	d := create(t, s, sampleRecord(s.NewID()))
	path := filepath.Join(d.Path, "history.jsonl")
	line := `{"index":0,"operation":{},"status":"done","at":"2026-12-03T15:00:00Z"}` + "\n"
	big := strings.Repeat(line, budgets.SessionHistoryBytes/len(line))
	if err := os.WriteFile(path, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.AppendEntry(Entry{Operation: json.RawMessage(`{}`), Status: StatusDone}); err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("AppendEntry onto a full history = %v, want it refused as full", err)
	}
	if err := os.WriteFile(path, []byte(big+line), 0o600); err != nil {
		t.Fatal(err)
	}
	if es, err := d.Entries(); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Entries of a %d-byte history = %d entries, %v; want a refusal naming it", len(big+line), len(es), err)
	}
	if err := os.WriteFile(path, []byte(line+"{not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Entries(); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("Entries with a torn line = %v, want an error naming line 2", err)
	}
}

// TestListNewestFirstSkippingBad: every readable session, newest first; a bad directory or
// a stray file costs only itself.
func TestListNewestFirstSkippingBad(t *testing.T) {
	s := openStore(t)
	var want []string
	for i := range 3 {
		rec := sampleRecord(s.NewID())
		rec.Created = rec.Created.Add(time.Duration(i) * time.Minute)
		create(t, s, rec)
		want = append([]string{rec.ID}, want...)
	}
	bad := create(t, s, sampleRecord(s.NewID()))
	if err := os.WriteFile(filepath.Join(bad.Path, "session.json"), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := create(t, s, sampleRecord(s.NewID()))
	otherRec := sampleRecord("s-ffffffff") // a record naming another session
	data, _ := json.Marshal(otherRec)
	if err := os.WriteFile(filepath.Join(other.Path, "session.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Root(), "sessions", "stray"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	recs, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.ID)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("List = %v, want %v", got, want)
	}
}
