package model_test

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
)

// TestKeyNeverInBody: the caller scrubs what it sends with the session's secrets, but a key
// the adapter has not read yet (the first call, or a rotated key) is not among them when the
// request is built; a page that shows the key (a provider's dashboard) would carry it into
// the body. The adapter's last pass, after it reads the key, keeps it out.
func TestKeyNeverInBody(t *testing.T) {
	const key = "sk-page-shows-key-0003"
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Text: "ok"})
			a, _, _ := adapter(t, srv.Config(p, keyEnv), key)
			if _, err := complete(a, goal("The page shows: Your API key is "+key)); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || keyHeader(p, reqs[0]) != key {
				t.Fatalf("want one request carrying the key in its header, got %d", len(reqs))
			}
			if strings.Contains(string(reqs[0].Body), key) {
				t.Errorf("the request body carries the API key: %s", reqs[0].Body)
			}
			if !strings.Contains(string(reqs[0].Body), "Your API key is") {
				t.Errorf("the message was lost, not scrubbed: %s", reqs[0].Body)
			}
		})
	}
}
