package artifacts

import (
	"fmt"
	"io/fs"
)

// Mode is who may read what the store writes: the modes of its directories and files.
// Private (the zero Mode) is the owner only; Group adds read for the owner's group, for a CI
// agent that collects results as another user of that group. Nobody else ever reads.
type Mode struct {
	name      string
	dir, file fs.FileMode
}

var (
	// ModePrivate is directories 0700, files 0600: the default.
	ModePrivate = Mode{"private", 0o700, 0o600}
	// ModeGroup is directories 0750, files 0640.
	ModeGroup = Mode{"group", 0o750, 0o640}
)

// ParseMode reads a --artifacts-mode value: "private" or "group".
func ParseMode(s string) (Mode, error) {
	switch s {
	case ModePrivate.name:
		return ModePrivate, nil
	case ModeGroup.name:
		return ModeGroup, nil
	}
	return Mode{}, fmt.Errorf("artifacts mode %q: expected \"private\" or \"group\"", s)
}

func (m Mode) orPrivate() Mode {
	if m.name == "" {
		return ModePrivate
	}
	return m
}

// Dir is the mode of every directory written.
func (m Mode) Dir() fs.FileMode { return m.orPrivate().dir }

// File is the mode of every file written.
func (m Mode) File() fs.FileMode { return m.orPrivate().file }

func (m Mode) String() string { return m.orPrivate().name }
