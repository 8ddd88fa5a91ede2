package scenario

import (
	"crypto/x509"
	"fmt"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/runtime"
)

// TLSConfig is a run config's "tls": the CAs the run's browsers trust besides the system's
// and the client certificates they present, by exact https origin, carried by the egress
// proxy for as long as each browser runs (runtime.TLSTrust). Paths are relative to the
// config file.
type TLSConfig struct {
	TrustedCAs         []string               `json:"trustedCAs,omitempty"`
	ClientCertificates []TLSClientCertificate `json:"clientCertificates,omitempty"`
}

// TLSClientCertificate is a PEM certificate and its PEM key, presented to Origin.
type TLSClientCertificate struct {
	Origin string `json:"origin" required:"true"`
	Cert   string `json:"cert" required:"true"`
	Key    string `json:"key" required:"true"`
}

// TLSTrust is the config's TLS, read when it loaded (nil without one).
func (c *RunConfig) TLSTrust() *runtime.TLSTrust {
	if c == nil {
		return nil
	}
	return c.trust
}

// loadTLS checks and reads t's files (relative to dir), refusing with the field's path;
// its messages name files, never what they hold.
func loadTLS(t *TLSConfig, dir string) (*runtime.TLSTrust, error) {
	if t == nil || len(t.TrustedCAs) == 0 && len(t.ClientCertificates) == 0 {
		return nil, nil
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	var cas []*x509.Certificate
	for i, p := range t.TrustedCAs {
		path := fmt.Sprintf("tls.trustedCAs[%d]", i)
		if p == "" {
			return nil, fail(path, "expected the path of a PEM file")
		}
		c, err := runtime.ReadTrustedCAs(abs(p))
		if err != nil {
			return nil, fail(path, err.Error())
		}
		cas = append(cas, c...)
	}
	seen := map[string]bool{}
	var clients []runtime.ClientCertificate
	for i, cc := range t.ClientCertificates {
		path := fmt.Sprintf("tls.clientCertificates[%d]", i)
		origin, err := runtime.ClientOrigin(cc.Origin)
		if err != nil {
			return nil, fail(path+".origin", err.Error())
		}
		if seen[origin] {
			return nil, fail(path+".origin", "a second certificate for "+origin)
		}
		seen[origin] = true
		if cc.Cert == "" {
			return nil, fail(path+".cert", "expected the path of a PEM certificate")
		}
		if cc.Key == "" {
			return nil, fail(path+".key", "expected the path of a PEM private key")
		}
		c, err := runtime.ReadClientCertificate(abs(cc.Cert), abs(cc.Key))
		if err != nil {
			return nil, fail(path, err.Error())
		}
		clients = append(clients, runtime.ClientCertificate{Origin: origin, Certificate: c})
	}
	trust, err := runtime.NewTLSTrust(cas, clients)
	if err != nil {
		return nil, fail("tls", err.Error())
	}
	return trust, nil
}
