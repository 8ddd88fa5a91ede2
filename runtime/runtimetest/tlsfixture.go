package runtimetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TLSFixture is a private CA made in memory, written as PEM under a test's temporary
// directory, and two HTTPS sites on 127.0.0.1 whose leaves it signed (IP SAN 127.0.0.1):
// Site, and MTLS, which admits only clients presenting a certificate its client CA signed
// (ClientCert/ClientKey). No browser trusts the CA unless it is given to fastbrowser.
type TLSFixture struct {
	CAFile     string // PEM of the CA that signed both sites' leaves
	ClientCert string // PEM of a client certificate MTLS accepts
	ClientKey  string // PEM of its private key
	// KeyLines are the lines of ClientKey's PEM body: a test checks none reaches an output.
	KeyLines []string
	Site     *httptest.Server
	MTLS     *httptest.Server
	// OtherMTLS is a second site like MTLS, at another origin: a test configures a client
	// certificate for MTLS's origin only, and OtherMTLS then refuses the browser.
	OtherMTLS *httptest.Server
}

// TLSPageTitle is the title of every page the fixture sites serve.
const TLSPageTitle = "TLS fixture"

// NewTLSFixture starts the two sites; they close when the test ends.
func NewTLSFixture(t testing.TB) *TLSFixture {
	t.Helper()
	dir := t.TempDir()
	ca, caKey := newCA(t, "fastbrowser test server CA")
	clientCA, clientCAKey := newCA(t, "fastbrowser test client CA")
	f := &TLSFixture{CAFile: filepath.Join(dir, "ca.pem"), ClientCert: filepath.Join(dir, "client.pem"), ClientKey: filepath.Join(dir, "client-key.pem")}
	writePEM(t, f.CAFile, "CERTIFICATE", ca.Raw)

	leafKey := newKey(t)
	leaf := sign(t, &x509.Certificate{
		Subject: pkix.Name{CommonName: "127.0.0.1"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, ca, caKey, &leafKey.PublicKey)
	serverCert := tls.Certificate{Certificate: [][]byte{leaf.Raw}, PrivateKey: leafKey}

	clientKey := newKey(t)
	client := sign(t, &x509.Certificate{
		Subject:  pkix.Name{CommonName: "fastbrowser test client"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, clientCA, clientCAKey, &clientKey.PublicKey)
	writePEM(t, f.ClientCert, "CERTIFICATE", client.Raw)
	keyDER, err := x509.MarshalPKCS8PrivateKey(clientKey)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := writePEM(t, f.ClientKey, "PRIVATE KEY", keyDER)
	for _, line := range strings.Split(keyPEM, "\n") {
		if len(line) >= 16 && line[0] != '-' {
			f.KeyLines = append(f.KeyLines, line)
		}
	}

	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>" + TLSPageTitle + "</title><h1>Over TLS</h1><p>path " + r.URL.Path + "</p>"))
	})
	f.Site = httptest.NewUnstartedServer(page)
	f.Site.Config.ErrorLog = quiet // refused handshakes are what the tests are about
	f.Site.TLS = &tls.Config{Certificates: []tls.Certificate{serverCert}}
	f.Site.StartTLS()
	t.Cleanup(f.Site.Close)

	clients := x509.NewCertPool()
	clients.AddCert(clientCA)
	for _, s := range []**httptest.Server{&f.MTLS, &f.OtherMTLS} {
		*s = httptest.NewUnstartedServer(page)
		(*s).Config.ErrorLog = quiet
		(*s).TLS = &tls.Config{Certificates: []tls.Certificate{serverCert}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: clients}
		(*s).StartTLS()
		t.Cleanup((*s).Close)
	}
	return f
}

var quiet = log.New(io.Discard, "", 0)

func newKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func newCA(t testing.TB, name string) (*x509.Certificate, *ecdsa.PrivateKey) {
	key := newKey(t)
	tmpl := &x509.Certificate{Subject: pkix.Name{CommonName: name}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	return sign(t, tmpl, nil, key, &key.PublicKey), key
}

// sign completes tmpl (serial, validity) and signs it with parent's key (nil parent:
// self-signed).
func sign(t testing.TB, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, pub *ecdsa.PublicKey) *x509.Certificate {
	t.Helper()
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber = serial
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	if parent == nil {
		parent = tmpl
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func writePEM(t testing.TB, path, kind string, der []byte) string {
	t.Helper()
	data := pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return string(data)
}
