package scenario

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/sethvargo/go-retry"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// probeClient never follows redirects (readiness is one GET against one URL) and never
// uses a proxy from the environment: fixtures are local.
var probeClient = &http.Client{
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// probeOnce sends one GET and reports the status (0 when nothing answered).
func probeOnce(ctx context.Context, url string) int {
	ctx, cancel := context.WithTimeout(ctx, budgets.ReadinessProbe)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0
	}
	resp, err := probeClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, budgets.ReadinessBodyBytes))
	_ = resp.Body.Close()
	return resp.StatusCode
}

var errNotReady = errors.New("not ready")

// waitReady polls url with GET until it answers want, ctx ends, or exited closes (a managed
// server that died will never become ready). Backoff: 50 ms doubling to 500 ms. last is the
// last status the server answered, 0 when it never answered: a probe cut off by the deadline
// does not hide an earlier answer (the error then says "answered 503", not "did not answer").
func waitReady(ctx context.Context, url string, want int, exited <-chan struct{}) (last int, err error) {
	b := retry.WithCappedDuration(budgets.ReadinessBackoffCap, retry.NewExponential(budgets.ReadinessBackoff))
	err = retry.Do(ctx, b, func(ctx context.Context) error {
		select {
		case <-exited:
			return errServerExited
		default:
		}
		code := probeOnce(ctx, url)
		if code == want {
			last = code
			return nil
		}
		if code != 0 {
			last = code
		}
		return retry.RetryableError(errNotReady)
	})
	return last, err
}

var errServerExited = errors.New("server exited")
