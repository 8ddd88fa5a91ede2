package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// noProcessLeft closes the session: the worker and every process of its group are gone, and
// the browser holds no page of the fixture any more (the worker closed its context). Then
// the suite's browser is stopped: its process is gone and its profile removed.
func noProcessLeft(ctx context.Context, e *env) error {
	if err := e.rt.Close(); err != nil {
		return fmt.Errorf("closing the session: %w", err)
	}
	if left := groupMembers(e.worker); len(left) > 0 {
		return fmt.Errorf("after the session closed, the worker's process group still has %v", left)
	}
	pages, err := e.fixturePages(ctx)
	if err != nil {
		return err
	}
	if len(pages) > 0 {
		return fmt.Errorf("after the session closed, the browser still shows %v: the worker left its context open", pages)
	}
	pid, profile := e.browser.Pid(), e.browser.ProfileDir()
	if err := e.browser.Close(); err != nil {
		return fmt.Errorf("stopping the browser: %w", err)
	}
	if left := groupMembers(pid); len(left) > 0 {
		return fmt.Errorf("after the browser stopped, its process group still has %v", left)
	}
	if _, err := os.Stat(profile); !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the browser's profile %s is still there", profile)
	}
	return nil
}

// fixturePages lists the browser's targets showing a fixture or canary page, read from its
// DevTools HTTP endpoint (the suite's own browser, so only the session could have opened them).
func (e *env) fixturePages(ctx context.Context) ([]string, error) {
	ws, err := url.Parse(e.browser.WebSocketURL())
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, budgets.Request().Default)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+ws.Host+"/json/list", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("listing the browser's targets: %w", err)
	}
	defer resp.Body.Close()
	var targets []struct{ Type, URL string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		return nil, fmt.Errorf("listing the browser's targets: %w", err)
	}
	var pages []string
	for _, t := range targets {
		if strings.HasPrefix(t.URL, e.fixture) || strings.HasPrefix(t.URL, e.canaryURL) {
			pages = append(pages, t.Type+" "+t.URL)
		}
	}
	return pages, nil
}
