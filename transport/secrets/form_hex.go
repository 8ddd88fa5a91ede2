package secrets

import (
	"encoding/hex"
	"strings"
)

// hexForms are v's bytes in hex, lower and upper case: what a server or hook that dumps a
// credential as bytes prints (xxd -p, od, %x, Buffer.toString("hex"), a digest tool's
// input echo). Each byte is two characters, so v is whole in any longer hex dump that
// holds it.
func hexForms(v string) []string {
	lower := hex.EncodeToString([]byte(v))
	return []string{lower, strings.ToUpper(lower)}
}
