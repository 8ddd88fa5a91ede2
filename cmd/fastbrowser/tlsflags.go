package main

import (
	"crypto/x509"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// tlsFlags are `session open`'s --trusted-ca and --client-cert. Both repeat, and neither is
// split at commas (a --client-cert holds one), unlike a StringSliceFlag.
func tlsFlags() []cli.Flag {
	return []cli.Flag{
		&cli.GenericFlag{Name: "trusted-ca", Value: &repeated{}, Usage: "PEM `FILE` of CAs the session's browser trusts besides the system's, for as long as it runs (repeat)"},
		&cli.GenericFlag{Name: "client-cert", Value: &repeated{}, Usage: "`ORIGIN=CERTFILE,KEYFILE`: the PEM client certificate and key the browser presents to that exact https origin (repeat)"},
	}
}

// repeated is a flag value that keeps every occurrence as given.
type repeated struct{ values []string }

func (r *repeated) Set(v string) error { r.values = append(r.values, v); return nil }
func (r *repeated) String() string     { return strings.Join(r.values, " ") }

func repeatedValues(c *cli.Context, name string) []string {
	if r, ok := c.Generic(name).(*repeated); ok {
		return r.values
	}
	return nil
}

// tlsFlagOptions reads --trusted-ca and --client-cert into o as absolute paths, checking
// their form only: the host reads the files.
func tlsFlagOptions(c *cli.Context, o *sessions.Options) error {
	for _, p := range repeatedValues(c, "trusted-ca") {
		abs, err := filepath.Abs(p)
		if p == "" || err != nil {
			return fmt.Errorf("--trusted-ca: expected the path of a PEM file")
		}
		o.TrustedCAs = append(o.TrustedCAs, abs)
	}
	for _, v := range repeatedValues(c, "client-cert") {
		origin, files, ok := strings.Cut(v, "=")
		cert, key, ok2 := strings.Cut(files, ",")
		if !ok || !ok2 || cert == "" || key == "" {
			return fmt.Errorf("--client-cert: expected ORIGIN=CERTFILE,KEYFILE")
		}
		norm, err := runtime.ClientOrigin(origin)
		if err != nil {
			return fmt.Errorf("--client-cert %s: %v", origin, err)
		}
		certAbs, err1 := filepath.Abs(cert)
		keyAbs, err2 := filepath.Abs(key)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("--client-cert %s: not a usable path", origin)
		}
		o.ClientCertificates = append(o.ClientCertificates, sessions.ClientCertificateFiles{Origin: norm, Cert: certAbs, Key: keyAbs})
	}
	if (len(o.TrustedCAs) > 0 || len(o.ClientCertificates) > 0) && o.CDPURL != "" {
		return fmt.Errorf("--trusted-ca and --client-cert need a browser fastbrowser launches (its egress proxy carries them); they do not go with --cdp-url")
	}
	return nil
}

// sessionTLSTrust reads the files a session's options name (nil when none): in the host,
// whose memory alone then holds the keys. Its errors name the flag and the file, never
// what a file holds.
func sessionTLSTrust(o sessions.Options) (*runtime.TLSTrust, error) {
	if len(o.TrustedCAs) == 0 && len(o.ClientCertificates) == 0 {
		return nil, nil
	}
	var cas []*x509.Certificate
	for _, p := range o.TrustedCAs {
		c, err := runtime.ReadTrustedCAs(p)
		if err != nil {
			return nil, sessions.Errorf(sessions.CodeInvalidInput, "--trusted-ca: %v", err)
		}
		cas = append(cas, c...)
	}
	var clients []runtime.ClientCertificate
	for _, f := range o.ClientCertificates {
		c, err := runtime.ReadClientCertificate(f.Cert, f.Key)
		if err != nil {
			return nil, sessions.Errorf(sessions.CodeInvalidInput, "--client-cert %s: %v", f.Origin, err)
		}
		clients = append(clients, runtime.ClientCertificate{Origin: f.Origin, Certificate: c})
	}
	trust, err := runtime.NewTLSTrust(cas, clients)
	if err != nil {
		return nil, sessions.Errorf(sessions.CodeInvalidInput, "--client-cert: %v", err)
	}
	return trust, nil
}
