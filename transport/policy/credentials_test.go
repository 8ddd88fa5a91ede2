package policy

import (
	"strings"
	"testing"
)

// TestRefusalsNeverRepeatCredentials: an origin or URL refused for its scheme, shape or host
// is named in the message without the user:password it carried.
func TestRefusalsNeverRepeatCredentials(t *testing.T) {
	for _, s := range []string{
		"ftp://admin:hunter22@127.0.0.1",
		"http://admin:hunter22@127.0.0.1/path",
		"http://admin:hunter22@*.example",
		"gopher://admin:hunter22@host:70/x@y",
	} {
		_, err1 := NormalizeOrigin(s)
		_, err2 := Parse([]string{s})
		_, err3 := AllowAll().Narrow([]string{s})
		_, err4 := AllowAll().CheckURL(s)
		for _, err := range []error{err1, err2, err3, err4} {
			if err == nil {
				t.Fatalf("%s was accepted", s)
			}
			if strings.Contains(err.Error(), "hunter22") || strings.Contains(err.Error(), "admin") {
				t.Errorf("the refusal of %s repeats its credentials: %v", s, err)
			}
		}
	}
}
