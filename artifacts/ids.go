package artifacts

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
)

// idPattern is transport.ValidID's rule, kept here so the store enforces it itself whatever
// its callers checked. Ids become path components: nothing that could climb or hide a path passes.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// validID reports whether s may be used as a session, run or artifact id.
func validID(s string) bool { return idPattern.MatchString(s) && s != "." && s != ".." }

// checkID returns an error naming what was refused. The value is quoted and cut short so a
// hostile 4 KB id or one holding NUL cannot bloat or corrupt the message.
func checkID(what, s string) error {
	if validID(s) {
		return nil
	}
	shown := s
	if len(shown) > 64 {
		shown = shown[:64] + "..."
	}
	return fmt.Errorf("artifacts: refused %s %q (%d bytes): must match %s and not be \".\" or \"..\"",
		what, shown, len(s), idPattern)
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
