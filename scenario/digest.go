package scenario

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strings"
)

// A replayIf digest says which value a variable had when an act was recorded, without
// keeping the value: "sha256:" + hex(salt) + ":" + hex(sha256(salt || value)). The salt (16
// random bytes, fresh for each digest) keeps two files recording the same value from sharing
// a digest, and a table of precomputed digests from applying. A session computes it when it
// exports an act; the runner checks it before replaying the act's recording.

// DigestSaltBytes is the salt's length a digest is made with.
const DigestSaltBytes = 16

// VariableDigest is value's digest with salt.
func VariableDigest(value string, salt []byte) string {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(value))
	return "sha256:" + hex.EncodeToString(salt) + ":" + hex.EncodeToString(h.Sum(nil))
}

// errDigest is a malformed digest; validation says what was expected.
var errDigest = errors.New("malformed digest")

// DigestMatches says whether value has digest; a malformed digest is an error.
func DigestMatches(digest, value string) (bool, error) {
	salt, sum, err := parseDigest(digest)
	if err != nil {
		return false, err
	}
	got := VariableDigest(value, salt)
	want := "sha256:" + hex.EncodeToString(salt) + ":" + hex.EncodeToString(sum)
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1, nil
}

// parseDigest splits a digest into its salt and hash.
func parseDigest(digest string) (salt, sum []byte, err error) {
	rest, ok := strings.CutPrefix(digest, "sha256:")
	if !ok {
		return nil, nil, errDigest
	}
	saltHex, sumHex, ok := strings.Cut(rest, ":")
	if !ok || len(saltHex) != 2*DigestSaltBytes || len(sumHex) != 2*sha256.Size {
		return nil, nil, errDigest
	}
	if salt, err = hex.DecodeString(saltHex); err != nil {
		return nil, nil, errDigest
	}
	if sum, err = hex.DecodeString(sumHex); err != nil {
		return nil, nil, errDigest
	}
	return salt, sum, nil
}
