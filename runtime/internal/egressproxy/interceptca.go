package egressproxy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"math/big"
	"net"
	"sync"
	"time"
)

// InterceptCA is the certificate authority the proxy terminates a browser's TLS with when it
// carries trusted CAs or client certificates (intercept.go). It exists only in this
// process's memory, is made afresh for every InterceptCA (so for every browser launch that
// uses it), and is trusted by no one but a browser launched with its SPKI pinned
// (SPKIHash): nothing is written to disk, and no trust store changes.
//
// All the leaves it mints share one key: a leaf per host costs a signature, not a key
// generation.
type InterceptCA struct {
	cert    *x509.Certificate
	der     []byte
	key     *ecdsa.PrivateKey
	leafKey *ecdsa.PrivateKey
	spki    string

	mu     sync.Mutex
	leaves map[string]*tls.Certificate // by host (a name or an IP literal)
}

// interceptValidity is how long the CA and every leaf it mints are valid. A browser whose
// errors are ignored for the pinned key would accept an expired leaf too; the bound is for
// anyone who looks at one.
const interceptValidity = 400 * 24 * time.Hour

// NewInterceptCA makes a CA: an ECDSA P-256 key and a self-signed certificate.
func NewInterceptCA() (*InterceptCA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "fastbrowser interception CA (this browser only)"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(interceptValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return &InterceptCA{cert: cert, der: der, key: key, leafKey: leafKey, spki: base64.StdEncoding.EncodeToString(sum[:]),
		leaves: map[string]*tls.Certificate{}}, nil
}

// SPKIHash is the base64 SHA-256 of the CA's SubjectPublicKeyInfo: the value of Chromium's
// --ignore-certificate-errors-spki-list. Chromium compares it with every certificate of the
// chain the server sends (leaf and intermediates), so each leaf is served with the CA
// behind it.
func (ca *InterceptCA) SPKIHash() string { return ca.spki }

// Leaf is the certificate chain (leaf, CA) for host, minted on first use and cached.
func (ca *InterceptCA) Leaf(host string) (*tls.Certificate, error) {
	if host == "" {
		return nil, errors.New("egressproxy: no host to mint a certificate for")
	}
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if c, ok := ca.leaves[host]; ok {
		return c, nil
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: host},
		NotBefore:    ca.cert.NotBefore,
		NotAfter:     ca.cert.NotAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &ca.leafKey.PublicKey, ca.key)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der, ca.der}, PrivateKey: ca.leafKey}
	if len(ca.leaves) >= maxLeaves {
		clear(ca.leaves) // a bound, not a policy: a leaf is cheap to mint again
	}
	ca.leaves[host] = c
	return c, nil
}

// maxLeaves bounds the leaf cache of one CA.
const maxLeaves = 1024

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}
