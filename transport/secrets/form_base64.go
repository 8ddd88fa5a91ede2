package secrets

import (
	"encoding/base64"
	"strings"
)

var base64Encodings = []*base64.Encoding{
	base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding,
}

// base64Forms are the standalone encodings of v in standard base64 and base64url, padded
// and not, plus the parts of either encoding that depend on v alone when v sits inside a
// longer encoded text at each of the three byte alignments. The second catch matters for HTTP basic auth: a header or URL carries
// base64("user:" + secret), in which the standalone encoding never appears.
func base64Forms(v string) []string {
	var out []string
	for _, enc := range base64Encodings {
		out = append(out, enc.EncodeToString([]byte(v)))
	}
	for shift := range 3 {
		mid := alignedMiddle(v, shift)
		out = append(out, mid, strings.NewReplacer("+", "-", "/", "_").Replace(mid))
	}
	return out
}

// alignedMiddle encodes v after shift filler bytes and keeps only the characters whose six
// bits all come from v: the ones before mix in the filler, the last one mixes in whatever
// follows v.
func alignedMiddle(v string, shift int) string {
	buf := make([]byte, shift+len(v))
	copy(buf[shift:], v)
	enc := base64.RawStdEncoding.EncodeToString(buf)
	start := (8*shift + 5) / 6 // first character starting at or after v's first bit
	end := 8 * len(buf) / 6    // characters that end at or before v's last bit
	if end <= start {
		return ""
	}
	return enc[start:end]
}
