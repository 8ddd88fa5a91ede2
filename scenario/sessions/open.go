package sessions

import (
	"context"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// open starts the session's runtime, goes to the first URL and reads the page: the open
// result. On failure nothing it started is left running.
func (h *Host) open(ctx context.Context, opts runtime.Options, rec Record) (_ *OpenResult, err error) {
	rt, err := runtime.Open(ctx, opts)
	if err != nil {
		oe := transport.AsOperationError("", err)
		if oe.Code == transport.CodeInvalidRequest {
			return nil, Errorf(CodeInvalidInput, "%s", oe.Message)
		}
		return nil, Errorf(CodeLaunchFailed, "the browser session could not be opened: %s", oe.Message)
	}
	h.rt = rt
	defer func() {
		if err != nil {
			_ = rt.Close()
		}
	}()
	tabs, err := transport.Dispatch(ctx, rt, transport.ListTabs{})
	if err != nil {
		return nil, Errorf(CodeLaunchFailed, "the browser session has no tab: %s", transport.AsOperationError("", err).Message)
	}
	h.live = scenario.NewLive(tabs.Selected)
	if u := rec.Options.URL; u != "" {
		nav, err := transport.Dispatch(ctx, rt, transport.Navigate{URL: u})
		if err != nil {
			b := *AsError(err)
			b.Message = "navigating to the first URL failed: " + b.Message
			return nil, errorOf(b)
		}
		h.noteStatus(&nav)
	}
	h.setPage(h.settle(ctx))
	return &OpenResult{
		ID: rec.ID, Page: h.page.Page, CDPURL: rt.DevToolsURL(), TLSVerified: rt.TLSVerified(h.page.URL), Warnings: rt.TLSWarnings(),
		Enforcement: Enforcement{AllowedOrigins: rec.Options.AllowedOrigins, EnforcedBy: rt.Enforcement(),
			WebRTC: orDefault(opts.WebRTC, runtime.WebRTCBlock), ServiceWorkers: orDefault(opts.ServiceWorkers, "block"),
			Subresources: orDefault(opts.Subresources, transport.SubresourcesFail)},
		IdleTimeoutMs: rec.Options.IdleTimeoutMs, Profile: rec.Options.Profile, Artifacts: rec.Options.Artifacts,
		Refused: refusal(h.page.Page, h.pageStatus()),
	}, nil
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
