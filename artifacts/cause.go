package artifacts

import (
	"errors"
	"io/fs"
	"syscall"
)

// The store's refusals, wrapped in the errors it returns, so a caller can say which one
// happened without reading the message (see Cause).
var (
	ErrSymlink  = errors.New("it is a symlink")
	ErrNotDir   = errors.New("not a directory")
	ErrNotOwned = errors.New("not owned by this user")
	ErrChanged  = errors.New("it changed while being checked")
	// ErrShared: an existing directory others may write in (group- or world-writable, or
	// sticky, like /tmp). It is never chmodded: a subdirectory that does not exist yet is.
	ErrShared = errors.New("writable by others or sticky: a shared directory")
	// ErrMode: an existing directory whose mode keeps out its owner or, under ModeGroup, the
	// group the store writes for. It is never chmodded: that is the owner's to decide.
	ErrMode    = errors.New("its mode keeps out who the store writes for")
	ErrBadID   = errors.New("invalid id")
	ErrBadKind = errors.New("unknown kind")
)

// Cause names why a store call failed in a fixed phrase that is safe in any output: no
// path, no id, no Go error chain, nothing the caller passed in. Errors the store does not
// know are "unexpected file system error".
func Cause(err error) string {
	for _, c := range causes {
		if errors.Is(err, c.err) {
			return c.phrase
		}
	}
	return "unexpected file system error"
}

// NoRoom reports whether err means the artifact did not fit: over its kind's size limit,
// over the process's file-size limit (EFBIG, RLIMIT_FSIZE), or no space or quota left.
// Those are artifact_too_large; every other failure of the store is internal.
func NoRoom(err error) bool {
	return errors.Is(err, ErrTooLarge) || errors.Is(err, syscall.EFBIG) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// causes is checked in order: the store's own refusals first, then the errno underneath.
var causes = []struct {
	err    error
	phrase string
}{
	{ErrTooLarge, "over the size limit"},
	{ErrSymlink, "symlink refused"},
	{ErrNotDir, "not a directory"},
	{ErrNotOwned, "not owned by this user"},
	{ErrChanged, "directory changed while being checked"},
	{ErrShared, "a shared directory (writable by others or sticky)"},
	{ErrMode, "its mode keeps out who the store writes for"},
	{ErrBadID, "invalid id"},
	{ErrBadKind, "unknown kind"},
	{ErrMismatch, "its bytes do not match the recorded size and sha256"},
	{ErrMissing, "the file is missing"},
	{errStoreClosed, "the store is closed"},
	{syscall.ENOSPC, "no space left on device"},
	{syscall.EDQUOT, "disk quota exceeded"},
	{syscall.EFBIG, "file too large"},
	{syscall.ELOOP, "symlink refused"},
	{syscall.ENOTDIR, "not a directory"},
	{fs.ErrExist, "the name is already taken"},
	{syscall.EACCES, "permission denied"},
	{syscall.EPERM, "permission denied"},
	{syscall.EROFS, "read-only file system"},
	{syscall.EIO, "input/output error"},
	{syscall.EMFILE, "too many open files"},
	{syscall.ENFILE, "too many open files"},
	{syscall.ENAMETOOLONG, "name too long"},
	{syscall.ENOENT, "a directory of the store is missing"},
}
