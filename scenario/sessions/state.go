package sessions

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// The state directory: <root>/sessions/<id>/ holds session.json (the Record), history.jsonl
// (one Entry a line), host.sock (the host's socket), host.lock and record.lock. Directories
// are 0700 and files 0600 whatever the umask; files are replaced whole (temp file + rename),
// so a reader never sees half a write.
const (
	sessionsDirName = "sessions"
	recordName      = "session.json"
	historyName     = "history.jsonl"
	socketName      = "host.sock"
	hostLockName    = "host.lock"
	recordLockName  = "record.lock"

	dirPerm  = 0o700
	filePerm = 0o600
)

// Root returns the state directory: $FASTBROWSER_STATE_DIR, else $XDG_STATE_HOME/fastbrowser,
// else $HOME/.local/state/fastbrowser (lookup reads the environment; nil: os.LookupEnv). It is
// created 0700 (parents as needed); an existing one owned by another user, or not a directory,
// or a symlink, is refused with a clear error; one of ours with wider permissions is chmod 0700.
func Root(lookup func(string) (string, bool)) (string, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	root, err := rootPath(lookup)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(root), dirPerm); err != nil {
		return "", fmt.Errorf("sessions: cannot create the state directory's parent: %w", err)
	}
	if err := privateDir(root); err != nil {
		return "", err
	}
	return root, nil
}

// rootPath picks the state directory. A relative XDG_STATE_HOME is ignored, as the XDG spec
// says; a relative FASTBROWSER_STATE_DIR is refused (it would name another directory in each
// working directory).
func rootPath(lookup func(string) (string, bool)) (string, error) {
	if v, ok := lookup("FASTBROWSER_STATE_DIR"); ok && v != "" {
		if !filepath.IsAbs(v) {
			return "", fmt.Errorf("sessions: FASTBROWSER_STATE_DIR %q is not an absolute path", v)
		}
		return filepath.Clean(v), nil
	}
	if v, ok := lookup("XDG_STATE_HOME"); ok && filepath.IsAbs(v) {
		return filepath.Join(v, "fastbrowser"), nil
	}
	if v, ok := lookup("HOME"); ok && filepath.IsAbs(v) {
		return filepath.Join(v, ".local", "state", "fastbrowser"), nil
	}
	return "", errors.New("sessions: no state directory: set FASTBROWSER_STATE_DIR (or XDG_STATE_HOME, or HOME) to an absolute path")
}

// privateDir makes path a 0700 directory of this user's, creating it if missing. A symlink,
// a non-directory or another user's directory is refused, never repaired; a wider mode is
// tightened. The final open with O_NOFOLLOW checks nothing was swapped in after the Lstat.
func privateDir(path string) error {
	if err := os.Mkdir(path, dirPerm); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("sessions: cannot create %s: %w", path, err)
	}
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return fmt.Errorf("sessions: cannot inspect %s: %w", path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("sessions: refused %s: it is a symlink; the state directory must be a real directory", path)
	case !fi.IsDir():
		return fmt.Errorf("sessions: refused %s: not a directory (mode %s)", path, fi.Mode())
	case !ownedByUs(fi):
		return fmt.Errorf("sessions: refused %s: owned by another user (uid %d), not by this one (uid %d)", path, ownerOf(fi), os.Geteuid())
	}
	if fi.Mode().Perm() != dirPerm {
		// Chmod before the open: a directory made under a harsh umask cannot be opened.
		if err := os.Chmod(path, dirPerm); err != nil {
			return fmt.Errorf("sessions: cannot set mode 0700 on %s (mode %s): %w", path, fi.Mode().Perm(), err)
		}
	}
	d, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return fmt.Errorf("sessions: refused %s: cannot open it as a real directory: %w", path, err)
	}
	defer d.Close()
	if dfi, err := d.Stat(); err != nil || !os.SameFile(fi, dfi) {
		return fmt.Errorf("sessions: refused %s: it changed while it was checked", path)
	}
	return nil
}

func ownerOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

func ownedByUs(fi fs.FileInfo) bool { return ownerOf(fi) == os.Geteuid() }

// Store is the state directory's sessions.
type Store struct{ root string }

// OpenStore opens the state directory root (see Root), making root/sessions if missing.
func OpenStore(root string) (*Store, error) {
	if err := privateDir(root); err != nil {
		return nil, err
	}
	s := &Store{root: root}
	if err := privateDir(s.sessionsDir()); err != nil {
		return nil, err
	}
	return s, nil
}

// Root is the state directory.
func (s *Store) Root() string { return s.root }

func (s *Store) sessionsDir() string { return filepath.Join(s.root, sessionsDirName) }

func (s *Store) dir(id string) *Dir { return &Dir{ID: id, Path: filepath.Join(s.sessionsDir(), id)} }

const idPrefix, idHexDigits = "s-", 8

// NewID returns a fresh session id: "s-" and 8 lowercase hex digits from crypto/rand, not
// one an existing session has. (Should the sessions directory be unreadable, the last id
// drawn is returned and Create reports why.)
func (s *Store) NewID() string {
	var id string
	for range 64 { // 2^32 ids: a second draw is already rare
		var b [idHexDigits / 2]byte
		_, _ = rand.Read(b[:]) // never fails (crypto/rand)
		id = idPrefix + hex.EncodeToString(b[:])
		if _, err := os.Lstat(s.dir(id).Path); errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	return id
}

// ValidID reports whether id has the shape NewID makes. Anything else is refused before it
// reaches a path.
func ValidID(id string) bool {
	if len(id) != len(idPrefix)+idHexDigits || id[:len(idPrefix)] != idPrefix {
		return false
	}
	for _, c := range []byte(id[len(idPrefix):]) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// NotFoundError: no session has this id (or it is no session id at all).
type NotFoundError struct{ ID string }

func (e *NotFoundError) Error() string {
	if !ValidID(e.ID) {
		return fmt.Sprintf("no session %s: a session id is %q and %d lowercase hex digits", quoteID(e.ID), idPrefix, idHexDigits)
	}
	return fmt.Sprintf("no session %s (fastbrowser session list shows the sessions)", e.ID)
}

// Code is CodeNotFound.
func (e *NotFoundError) Code() string { return CodeNotFound }

// quoteID quotes what was given as an id, cut short: it is input, of any length.
func quoteID(id string) string {
	const most = 64
	if len(id) > most {
		return strconv.Quote(id[:most]) + "…"
	}
	return strconv.Quote(id)
}

// Create makes the directory of a new session rec.ID (which must not exist) and writes its
// session.json.
func (s *Store) Create(rec Record) (*Dir, error) {
	if !ValidID(rec.ID) {
		return nil, fmt.Errorf("sessions: cannot create session %s: not a session id", quoteID(rec.ID))
	}
	d := s.dir(rec.ID)
	if err := os.Mkdir(d.Path, dirPerm); err != nil {
		return nil, fmt.Errorf("sessions: cannot create session directory %s: %w", d.Path, err)
	}
	err := os.Chmod(d.Path, dirPerm) // the umask may have taken bits Mkdir asked for
	if err == nil {
		err = d.WriteRecord(rec)
	}
	if err != nil {
		_ = os.RemoveAll(d.Path)
		return nil, fmt.Errorf("sessions: cannot create session %s: %w", rec.ID, err)
	}
	return d, nil
}

// Open returns session id's directory: a *NotFoundError for an id NewID could not have made
// or a session that does not exist (or no longer does).
func (s *Store) Open(id string) (*Dir, error) {
	if !ValidID(id) {
		return nil, &NotFoundError{ID: id}
	}
	d := s.dir(id)
	fi, err := os.Lstat(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &NotFoundError{ID: id}
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: cannot inspect session directory %s: %w", d.Path, err)
	}
	if !fi.IsDir() { // Lstat: a symlink is no directory
		return nil, fmt.Errorf("sessions: refused %s: not a session directory (mode %s)", d.Path, fi.Mode())
	}
	return d, nil
}

// List sweeps (see Sweep), then returns every session's record, newest first. A session whose
// record cannot be read is left out: one bad directory never fails the list.
func (s *Store) List() ([]Record, error) {
	s.Sweep(time.Now())
	ents, err := os.ReadDir(s.sessionsDir())
	if err != nil {
		return nil, fmt.Errorf("sessions: cannot list %s: %w", s.sessionsDir(), err)
	}
	var recs []Record
	for _, e := range ents {
		if !ValidID(e.Name()) || e.Type() != fs.ModeDir {
			continue
		}
		if rec, err := s.dir(e.Name()).Record(); err == nil {
			recs = append(recs, rec)
		}
	}
	sort.Slice(recs, func(i, j int) bool {
		if !recs[i].Created.Equal(recs[j].Created) {
			return recs[i].Created.After(recs[j].Created)
		}
		return recs[i].ID < recs[j].ID
	})
	return recs, nil
}

// Dir is one session's directory.
type Dir struct{ ID, Path string }

// SocketPath is where the session's host listens.
func (d *Dir) SocketPath() string { return filepath.Join(d.Path, socketName) }

// Remove removes the session's directory and everything in it.
func (d *Dir) Remove() error {
	if err := os.RemoveAll(d.Path); err != nil {
		return fmt.Errorf("sessions: cannot remove session directory %s: %w", d.Path, err)
	}
	return nil
}

// Record reads session.json.
func (d *Dir) Record() (Record, error) {
	path := filepath.Join(d.Path, recordName)
	data, err := readBounded(path, budgets.SessionRecordBytes)
	if err != nil {
		return Record{}, err
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, fmt.Errorf("sessions: %s is not a session record: %w", path, err)
	}
	if rec.ID != d.ID {
		return Record{}, fmt.Errorf("sessions: %s names session %s, not %s", path, quoteID(rec.ID), d.ID)
	}
	return rec, nil
}

// WriteRecord replaces session.json with rec (an empty rec.ID is the directory's; another
// is refused). Concurrent writers use Update.
func (d *Dir) WriteRecord(rec Record) error {
	if rec.ID == "" {
		rec.ID = d.ID
	}
	if rec.ID != d.ID {
		return fmt.Errorf("sessions: cannot write session %s's record into %s", quoteID(rec.ID), d.Path)
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("sessions: cannot encode session %s's record: %w", d.ID, err)
	}
	return writeAtomic(filepath.Join(d.Path, recordName), append(data, '\n'))
}

// Update reads session.json, lets f change the record and writes it back, all under the
// session's record lock, so the host and a sweeping command never lose each other's
// writes. f must not call the Dir's other locking methods (Update, AppendEntry).
func (d *Dir) Update(f func(*Record)) (Record, error) {
	return d.update(f, budgets.SessionRecordLock)
}

// update is Update waiting at most wait for the record lock (0: only if it is free now).
func (d *Dir) update(f func(*Record), wait time.Duration) (Record, error) {
	release, err := d.lockRecord(wait)
	if err != nil {
		return Record{}, err
	}
	defer release()
	rec, err := d.Record()
	if err != nil {
		return Record{}, err
	}
	f(&rec)
	if err := d.WriteRecord(rec); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// AppendEntry adds e as the last line of history.jsonl, under the record lock. The file is
// rewritten whole, so a reader sees the history before or after, never half a line; a
// history that would grow past budgets.SessionHistoryBytes is refused.
func (d *Dir) AppendEntry(e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("sessions: cannot encode session %s's history entry %d: %w", d.ID, e.Index, err)
	}
	release, err := d.lockRecord(budgets.SessionRecordLock)
	if err != nil {
		return err
	}
	defer release()
	path := filepath.Join(d.Path, historyName)
	old, err := readBounded(path, budgets.SessionHistoryBytes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(old)+len(line)+1 > budgets.SessionHistoryBytes {
		return fmt.Errorf("sessions: session %s's history %s is full (%d bytes at most)", d.ID, path, budgets.SessionHistoryBytes)
	}
	return writeAtomic(path, append(append(old, line...), '\n'))
}

// Entries reads history.jsonl (none yet: no entries).
func (d *Dir) Entries() ([]Entry, error) {
	path := filepath.Join(d.Path, historyName)
	data, err := readBounded(path, budgets.SessionHistoryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var entries []Entry
	for n, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if len(line) == 0 && len(data) == 0 {
			break
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("sessions: %s line %d is not a history entry: %w", path, n+1, err)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// readBounded reads a file of ours, refusing one over limit unread (and a symlink).
func readBounded(path string, limit int) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, fmt.Errorf("sessions: cannot read %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > int64(limit) {
		return nil, fmt.Errorf("sessions: refused %s: %d bytes, more than the %d a session writes", path, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("sessions: cannot read %s: %w", path, err)
	}
	if len(data) > limit {
		return nil, fmt.Errorf("sessions: refused %s: more than the %d bytes a session writes", path, limit)
	}
	return data, nil
}

// writeAtomic replaces path with data: a 0600 temp file in the same directory (fchmod, so
// whatever the umask), synced, then renamed over path.
func writeAtomic(path string, data []byte) error {
	if err := scenario.WritePrivateFile(path, data); err != nil {
		return fmt.Errorf("sessions: cannot write %s: %w", path, err)
	}
	return nil
}
