package transport

import "testing"

// TestURLGlob: Playwright's glob rules for waitForURL — "**" across segments, "*" within
// one, groups, escapes, and a plain string as an exact URL.
func TestURLGlob(t *testing.T) {
	cases := []struct {
		glob, url string
		want      bool
	}{
		{"**/orders", "http://127.0.0.1:4310/shop/orders", true},
		{"**/orders", "http://127.0.0.1:4310/shop/orders/1", false},
		{"**/orders/*", "http://127.0.0.1:4310/shop/orders/1", true},
		{"**/orders/*", "http://127.0.0.1:4310/shop/orders/1/items", false},
		{"http://127.0.0.1:4310/**", "http://127.0.0.1:4310/a/b?c=d", true},
		{"**/*.{png,jpg}", "http://x.test/a/b.jpg", true},
		{"**/*.{png,jpg}", "http://x.test/a/b.gif", false},
		{"http://x.test/a?b=1", "http://x.test/a?b=1", true}, // "?" is literal
		{"http://x.test/a?b=1", "http://x.test/aXb=1", false},
		{"http://x.test/form", "http://x.test/form", true},
		{"http://x.test/form", "http://x.test/form2", false},
		{`**/a\*b`, "http://x.test/a*b", true},
		{`**/a\*b`, "http://x.test/aXb", false},
	}
	for _, c := range cases {
		match, err := URLMatcher(Is(c.glob))
		if err != nil {
			t.Fatalf("%q: %v", c.glob, err)
		}
		if got := match(c.url); got != c.want {
			t.Errorf("%q on %q = %v, want %v (pattern %s)", c.glob, c.url, got, c.want, GlobPattern(c.glob))
		}
	}
	re, err := URLMatcher(Like(`/orders$`, ""))
	if err != nil || !re("http://x.test/shop/orders") || re("http://x.test/shop/orders/1") {
		t.Errorf("regex /orders$: %v", err)
	}
}
