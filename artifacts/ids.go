package artifacts

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/fastbrowser/fastbrowser/transport/names"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// validID reports whether s may be used as a session, run or artifact id: the protocol's
// rule (names.ValidID), checked here again so the store enforces it whatever its callers
// checked. Ids become path components: nothing that could climb or hide a path passes.
func validID(s string) bool { return names.ValidID(s) }

// checkID returns an error naming what was refused. The value is quoted and cut short so a
// hostile 4 KB id or one holding NUL cannot bloat or corrupt the message.
func checkID(what, s string) error {
	if validID(s) {
		return nil
	}
	shown, cut := textclip.ClipBytes(s, 64)
	if cut {
		shown += "..."
	}
	return fmt.Errorf("artifacts: refused %s %q (%d bytes): %w: must be 1–64 characters of A-Z a-z 0-9 . _ - and not \".\" or \"..\"",
		what, shown, len(s), ErrBadID)
}

// randomHex returns n random bytes as hex. crypto/rand does not fail on Linux; a failure
// here would mean the kernel cannot supply randomness, and panicking is its documented answer.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// tmpPrefix marks in-progress files; the sweep removes only regular files with this prefix.
const tmpPrefix = ".tmp-"

func tmpName() string { return tmpPrefix + randomHex(8) }
