package model_test

import (
	"fmt"
	"net"
	"os"
	"testing"
)

// closedProxy is a URL at which nothing listens. TestMain puts it in the proxy variables
// before anything runs, because net/http reads them once per process: an adapter that
// consulted them would fail every call to a non-loopback address (TestProxyEnvironmentIgnored).
var closedProxy string

func TestMain(m *testing.M) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	closedProxy = "http://" + l.Addr().String()
	l.Close()
	for _, k := range []string{"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"} {
		os.Setenv(k, closedProxy)
	}
	os.Unsetenv("NO_PROXY")
	os.Unsetenv("no_proxy")
	os.Exit(m.Run())
}
