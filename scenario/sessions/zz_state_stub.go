package sessions

// TEMPORARY stand-in for the state directory (i12-state builds the real one); deleted at merge.

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

func Root(lookup func(string) (string, bool)) (string, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if v, ok := lookup("FASTBROWSER_STATE_DIR"); ok && v != "" {
		return v, os.MkdirAll(v, 0o700)
	}
	h, _ := os.UserHomeDir()
	d := filepath.Join(h, ".local/state/fastbrowser")
	return d, os.MkdirAll(d, 0o700)
}

type Store struct{ root string }

func OpenStore(root string) (*Store, error) {
	return &Store{root}, os.MkdirAll(filepath.Join(root, "sessions"), 0o700)
}
func (s *Store) Root() string { return s.root }
func (s *Store) NewID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "s-" + hex.EncodeToString(b[:])
}
func ValidID(id string) bool { return len(id) == 10 }

type NotFoundError struct{ ID string }

func (e *NotFoundError) Error() string { return "no session " + e.ID }
func (e *NotFoundError) Code() string  { return CodeNotFound }

type ProfileInUseError struct{ Profile, Holder string }

func (e *ProfileInUseError) Error() string { return "profile in use by " + e.Holder }
func (e *ProfileInUseError) Code() string  { return CodeProfileInUse }

func (s *Store) Create(rec Record) (*Dir, error) {
	d := &Dir{ID: rec.ID, Path: filepath.Join(s.root, "sessions", rec.ID)}
	if err := os.Mkdir(d.Path, 0o700); err != nil {
		return nil, err
	}
	return d, d.WriteRecord(rec)
}
func (s *Store) Open(id string) (*Dir, error) {
	d := &Dir{ID: id, Path: filepath.Join(s.root, "sessions", id)}
	if _, err := os.Stat(d.Path); err != nil || !ValidID(id) {
		return nil, &NotFoundError{id}
	}
	return d, nil
}
func (s *Store) List() ([]Record, error) {
	s.Sweep(time.Now())
	ents, _ := os.ReadDir(filepath.Join(s.root, "sessions"))
	var out []Record
	for _, e := range ents {
		d, _ := s.Open(e.Name())
		if d == nil {
			continue
		}
		if r, err := d.Record(); err == nil {
			out = append(out, r)
		}
	}
	return out, nil
}
func (s *Store) Sweep(now time.Time) {
	ents, _ := os.ReadDir(filepath.Join(s.root, "sessions"))
	for _, e := range ents {
		d, _ := s.Open(e.Name())
		if d == nil {
			continue
		}
		if r, err := d.Record(); err == nil && r.State == StateOpen && !d.HostAlive() {
			_, _ = d.Update(func(r *Record) { r.State, r.Reason, r.EndedAt = StateEnded, EndHostDied, now })
			_ = os.Remove(d.SocketPath())
		}
	}
}

type Dir struct{ ID, Path string }

func (d *Dir) Record() (Record, error) {
	var r Record
	b, err := os.ReadFile(filepath.Join(d.Path, "session.json"))
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(b, &r)
}
func (d *Dir) WriteRecord(rec Record) error {
	b, _ := json.Marshal(rec)
	tmp := filepath.Join(d.Path, ".session.json.tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(d.Path, "session.json"))
}
func (d *Dir) Update(f func(*Record)) (Record, error) {
	r, err := d.Record()
	if err != nil {
		return r, err
	}
	f(&r)
	return r, d.WriteRecord(r)
}
func (d *Dir) AppendEntry(e Entry) error {
	b, _ := json.Marshal(e)
	old, _ := os.ReadFile(filepath.Join(d.Path, "history.jsonl"))
	tmp := filepath.Join(d.Path, ".history.tmp")
	if err := os.WriteFile(tmp, append(old, append(b, '\n')...), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(d.Path, "history.jsonl"))
}
func (d *Dir) Entries() ([]Entry, error) {
	b, err := os.ReadFile(filepath.Join(d.Path, "history.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
func (d *Dir) SocketPath() string { return filepath.Join(d.Path, "host.sock") }
func (d *Dir) Remove() error      { return os.RemoveAll(d.Path) }
func (d *Dir) LockHost() (func(), error) {
	f, err := os.OpenFile(filepath.Join(d.Path, "host.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
func (d *Dir) HostAlive() bool {
	rel, err := d.LockHost()
	if err != nil {
		return true
	}
	rel()
	return false
}
func LockProfile(profileDir, sessionID string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(profileDir, ".fastbrowser-session.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(f.Name())
		f.Close()
		return nil, &ProfileInUseError{profileDir, string(b)}
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(sessionID), 0)
	return func() { f.Close() }, nil
}
