package secrets

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Mask is what replaces a secret.
const Mask = "[secret]"

// MinLen is the shortest value, in characters (runes), that Add accepts. Masking every
// "abc" or "123" in the output would corrupt ordinary text more than it protects.
const MinLen = 4

var (
	// ErrTooShort is returned by Add for a value shorter than MinLen runes, or empty.
	ErrTooShort = errors.New("secrets: value shorter than 4 characters refused")
	// ErrInsideMask is returned by Add for a value that occurs inside Mask (say "cret"):
	// every masked output would then contain it again.
	ErrInsideMask = errors.New("secrets: value occurs inside the mask text and cannot be masked")
)

// Set is the secrets of one run. The zero value is not usable; use New. Safe for
// concurrent use.
type Set struct {
	mu     sync.Mutex          // serialises Add; readers use tab
	values map[string]struct{} // distinct registered values
	order  []string            // the same values, in the order they were added (Since)
	forms  map[string]struct{} // every form of every value, deduplicated
	// tab is an immutable snapshot rebuilt on every Add, so Scrub and Writer never take
	// the mutex on the hot path.
	tab atomic.Pointer[table]
}

// New returns an empty Set.
func New() *Set {
	s := &Set{values: map[string]struct{}{}, forms: map[string]struct{}{}}
	s.tab.Store(&table{})
	return s
}

// Add registers a secret value and every form it can appear in (see forms.go). Adding a
// value twice is harmless. The error never contains the value.
func (s *Set) Add(value string) error {
	if utf8.RuneCountInString(value) < MinLen {
		return ErrTooShort
	}
	if strings.Contains(Mask, value) {
		return ErrInsideMask
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.values[value]; ok {
		return nil
	}
	s.values[value] = struct{}{}
	s.order = append(s.order, value)
	for _, f := range formsOf(value) {
		s.forms[f] = struct{}{}
	}
	s.tab.Store(buildTable(s.forms))
	return nil
}

// AddDerived registers text that a secret was typed into, such as the whole value of a
// field holding "user:" + secret. The raw secret inside it is already masked by Add; what
// AddDerived adds is the field's own encodings (base64 or URL-encoding of the whole field
// differ from those of the secret alone). Same forms and length rule as Add; it counts
// towards Len.
func (s *Set) AddDerived(value string) error {
	return s.Add(value)
}

// Len reports how many distinct values are registered.
func (s *Set) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.values)
}

// Since returns the values registered after the first n, in the order they were added, and
// how many there are now: passing that back as n gets only what was added in between. It
// is how a holder of a copy (the session's worker) is told just what it lacks.
func (s *Set) Since(n int) ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n >= len(s.order) {
		return nil, len(s.order)
	}
	return slices.Clone(s.order[max(n, 0):]), len(s.order)
}

// Longest is the length in bytes of the longest registered form (0 when none). A text that
// will be cut is read this much past its bound, so a secret at the cut is whole, and so
// masked, before the cut is made: a byte count is never less than the same text's count of
// characters or of UTF-16 units.
func (s *Set) Longest() int {
	return s.snapshot().maxLen
}

// snapshot returns the current forms; callers must not modify it.
func (s *Set) snapshot() *table {
	return s.tab.Load()
}
