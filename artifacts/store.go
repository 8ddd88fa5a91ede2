package artifacts

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// Store writes the evidence of one session under <root>/<sessionId>. It is safe for
// concurrent use: many goroutines may Open, Write and Commit at once.
type Store struct {
	root       string // absolute, cleaned
	mode       Mode   // the modes of everything it creates
	session    string
	sessionDir string

	// newID picks the next artifact id. Tests replace it to predict a final name; the
	// default is a per-store random prefix plus a counter, unique even when a session is
	// reopened by a later process.
	newID func() string
	// newTmp names a temp file; tests replace it to plant something at the name.
	newTmp func() string
	// beforeLink, when set (tests only), runs between the final-name check and the link,
	// to prove the link itself refuses a name that appeared in that window.
	beforeLink func(final string)

	mu     sync.Mutex
	closed bool
	live   map[*Writer]struct{} // uncommitted writers, discarded by Close
}

// Open opens (creating if needed) a store rooted at root for one session. The root and the
// session directory are created 0700, or, when they exist, must be real directories of this
// user that nobody else can write in (PrepareDir: an existing directory is never chmodded).
// Temp files left in the session by a killed process are swept.
func Open(root, sessionID string) (*Store, error) { return OpenMode(root, sessionID, ModePrivate) }

// OpenMode is Open with the modes of m for every directory and file (Open's are
// ModePrivate's): the root and session directories are created m.Dir(), or must give at
// least that.
func OpenMode(root, sessionID string, m Mode) (*Store, error) {
	m = m.orPrivate()
	if root == "" {
		return nil, errors.New("artifacts: refused empty root")
	}
	if err := checkID("session id", sessionID); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(root) // also cleans: a trailing "/" would make O_NOFOLLOW follow
	if err != nil {
		return nil, fmt.Errorf("artifacts: cannot resolve root %s: %w", root, err)
	}
	if err := PrepareDir(abs, m); err != nil {
		return nil, err
	}
	s := &Store{
		root:       abs,
		mode:       m,
		session:    sessionID,
		sessionDir: filepath.Join(abs, sessionID),
		live:       make(map[*Writer]struct{}),
		newTmp:     tmpName,
	}
	prefix, counter := "a"+randomHex(4)+"-", atomic.Uint64{}
	s.newID = func() string { return prefix + strconv.FormatUint(counter.Add(1), 10) }
	if err := ensureDir(s.sessionDir, m); err != nil {
		return nil, err
	}
	if err := sweep(s.sessionDir); err != nil {
		return nil, err
	}
	return s, nil
}

// Root returns the store's absolute root; Meta.Path is relative to it.
func (s *Store) Root() string { return s.root }

// Open begins one artifact for run runID. owner is who asked (a scenario id); kind is
// screenshot, console, network, outline, log or download. The store picks the artifact id and the path.
func (s *Store) Open(runID, owner, kind string) (*Writer, error) {
	if err := checkID("run id", runID); err != nil {
		return nil, err
	}
	info, ok := kinds[kind]
	if !ok {
		return nil, fmt.Errorf("artifacts: refused kind %q: %w: want screenshot, console, network, outline, log or download", kind, ErrBadKind)
	}
	if s.isClosed() {
		return nil, errStoreClosed
	}
	// Re-check the whole chain on every open: a symlink planted after the store opened must
	// be refused just like one planted before.
	if err := verifyDir(s.root, s.mode); err != nil {
		return nil, err
	}
	if err := ensureDir(s.sessionDir, s.mode); err != nil {
		return nil, err
	}
	runDir := filepath.Join(s.sessionDir, runID)
	if err := ensureDir(runDir, s.mode); err != nil {
		return nil, err
	}
	id := s.newID()
	if err := checkID("artifact id", id); err != nil {
		return nil, err
	}
	name := id + "." + info.ext
	w := &Writer{
		store:  s,
		info:   info,
		runDir: runDir,
		final:  filepath.Join(runDir, name),
		meta: Meta{
			ID:          id,
			Owner:       owner,
			Kind:        kind,
			Path:        s.session + "/" + runID + "/" + name,
			ContentType: info.contentType,
			LocalOnly:   true,
		},
	}
	if err := w.create(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = w.Discard()
		return nil, errStoreClosed
	}
	s.live[w] = struct{}{}
	s.mu.Unlock()
	return w, nil
}

// Put writes one whole artifact: Open, Write, Commit. A screenshot over
// budgets.ScreenshotBytes is refused with ErrTooLarge and nothing is written. Diagnostics
// (console, network, outline) over budgets.DiagnosticsBytes are cut to exactly the limit
// and committed with Truncated set, because partial diagnostics are still evidence while a
// partial PNG is not; the cut is by bytes, so cut JSON may no longer parse.
func (s *Store) Put(runID, owner, kind string, data []byte, truncated bool) (Meta, error) {
	if info, ok := kinds[kind]; ok && int64(len(data)) > info.limit {
		if !info.diagnostics {
			return Meta{}, fmt.Errorf("%w: %s of %d bytes, limit %d", ErrTooLarge, kind, len(data), info.limit)
		}
		data, truncated = data[:info.limit], true
	}
	w, err := s.Open(runID, owner, kind)
	if err != nil {
		return Meta{}, err
	}
	if _, err := w.Write(data); err != nil {
		_ = w.Discard()
		return Meta{}, err
	}
	if truncated {
		w.SetTruncated()
	}
	return w.Commit()
}

// Close discards every uncommitted writer (removing its temp file); committed artifacts
// stay. Closing twice is harmless.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closed = true
	live := make([]*Writer, 0, len(s.live))
	for w := range s.live {
		live = append(live, w)
	}
	s.live = map[*Writer]struct{}{}
	s.mu.Unlock()
	// Discard outside s.mu: lock order is w.mu then s.mu (a failing writer leaves the set).
	var errs []error
	for _, w := range live {
		if err := w.close(errStoreClosed); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

var errStoreClosed = errors.New("artifacts: store is closed")

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *Store) forget(w *Writer) {
	s.mu.Lock()
	delete(s.live, w)
	s.mu.Unlock()
}
