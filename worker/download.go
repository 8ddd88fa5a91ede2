package worker

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"github.com/mafredri/cdp/protocol/browser"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// downloads is the worker's download directory: private (0700, made by os.MkdirTemp) at the
// first download, removed at teardown. The browser context may download only while a
// download operation runs: it allows downloads into the directory ("allowAndName": Chromium
// saves each file under its download guid) and puts the browser's own behaviour back when
// it ends, so a download an act or the page starts is never saved, uncapped, meanwhile.
// The operation reads its file back and removes it.
type downloads struct {
	mu  sync.Mutex
	dir string // "" until the first download
}

// downloadDirPrefix names the directory under the temp directory (tests look for it).
const downloadDirPrefix = "fastbrowser-download-"

var _ = handlesTab((*Worker).download)

// download is the download operation: it clicks the target as act does, then waits, within
// the download budget, for the one download that click starts and its end. The file goes
// back as a payload; the runtime commits it. A refused request (the download's URL outside
// the policy) ends the wait at once: handle reports it as egress_denied.
func (w *Worker) download(ctx context.Context, t *tab, r *transport.Download, pol policy.Policy) (transport.Result, error) {
	budget := transport.DownloadBudget(r)
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	// The events outlive the budget until the call returns: a cancel at its end waits for
	// the browser to say the download stopped.
	evctx, stopEvents := context.WithCancel(w.lifetime.ctx)
	defer stopEvents()
	o := &streams{ctx: evctx}
	begin := openStream(o, w.bc.Browser.DownloadWillBegin)
	progress := openStream(o, w.bc.Browser.DownloadProgress)
	if o.err != nil {
		return nil, relabel(w.cdpFailure(transport.OpDownload, transport.NotAttempted, o.err))
	}
	begun := make(chan *browser.DownloadWillBeginReply, 16)
	updates := make(chan *browser.DownloadProgressReply, 64)
	drain(begin, func(ev *browser.DownloadWillBeginReply) { sendOrDone(evctx, begun, ev) })
	drain(progress, func(ev *browser.DownloadProgressReply) { sendOrDone(evctx, updates, ev) })
	// Downloads are allowed only once the events are heard: none begins unseen.
	dir, err := w.allowDownloads(ctx)
	if err != nil {
		return nil, relabel(w.cdpFailure(transport.OpDownload, transport.NotAttempted, err))
	}
	defer w.setDownloadBehavior(w.lifetime.ctx, browser.NewSetDownloadBehaviorArgs("default"))
	refused := w.egress.refusals()
	// A download that began before this call's click (an earlier act's, late: Chromium may
	// decide where it goes only now, without a downloadWillBegin, so its progress tells) is
	// not the call's own, nor one that begins after its own: each is cancelled and removed
	// at the end.
	strays := map[string]bool{} // guid → still in progress
	defer func() { w.dropStrays(dir, strays, begun, updates) }()

	tg, err := w.awaitTarget(ctx, t, &transport.Act{Tab: r.Tab, Action: transport.ActClick, Target: r.Target})
	if err != nil {
		return nil, relabel(err)
	}
	takeStrays(strays, begun)
	mut, err := w.click(ctx, t, tg.el, tg.at)
	if err != nil {
		return nil, relabel(err)
	}
	if mut == transport.Verified {
		mut = transport.Unknown // the click landed; what the page did with it is not known
	}
	fail := func(code transport.Code, format string, args ...any) error {
		return transport.NewError(transport.OpDownload, transport.PhaseExecute, code, retryFor(mut), mut, format, args...)
	}
	var dl *browser.DownloadWillBeginReply
	for dl == nil {
		select {
		case dl = <-begun:
		case <-refused:
			if w.egress.failing() {
				// handle turns this into egress_denied, naming what was refused.
				return nil, fail(transport.CodeEgressDenied, "the download's request was refused by the origin policy")
			}
			refused = w.egress.refusals()
		case <-ctx.Done():
			return nil, w.downloadEnded(ctx, fail, budget, "no download began")
		}
	}
	file := filepath.Join(dir, filepath.Base(dl.GUID))
	if o := policy.OriginOf(dl.URL); o != "" && !pol.AllowsOrigin(o) {
		// Interception refuses such a request before it is sent; this holds the line for
		// any way a download could start without one.
		w.cancelDownload(dl.GUID, file, updates)
		w.egress.refuse("download", o)
		return nil, fail(transport.CodeEgressDenied, "the download's URL is outside the origin policy")
	}
	for {
		select {
		case ev := <-begun:
			strays[ev.GUID] = true // never more than one download per call
		case p := <-updates:
			if p.GUID != dl.GUID {
				strays[p.GUID] = p.State == "inProgress"
				continue
			}
			switch {
			case p.TotalBytes > budgets.DownloadBytes || p.ReceivedBytes > budgets.DownloadBytes:
				w.cancelDownload(dl.GUID, file, updates)
				return nil, fail(transport.CodeArtifactTooLarge, "the download is larger than %d bytes: cancelled, nothing kept", budgets.DownloadBytes)
			case p.State == "canceled":
				removeDownload(file)
				return nil, fail(transport.CodeNavigationFailed, "the download was cancelled by the browser (a network error or the server ended it)")
			case p.State == "completed":
				return w.finishDownload(t, dl, file, fail)
			}
		case <-ctx.Done():
			w.cancelDownload(dl.GUID, file, updates)
			return nil, w.downloadEnded(ctx, fail, budget, "the download did not finish")
		}
	}
}

// downloadEnded is the error of a download the operation's context ended: its budget
// (timeout) or the caller (cancelled).
func (w *Worker) downloadEnded(ctx context.Context, fail func(transport.Code, string, ...any) error, budget fmt.Stringer, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fail(transport.CodeTimeout, "%s within the download budget (%s)", what, budget)
	}
	return fail(transport.CodeCancelled, "cancelled: %s", what)
}

// finishDownload reads a completed download back (never more than the limit and one byte)
// and removes it: the payload is the only copy that leaves the worker.
func (w *Worker) finishDownload(t *tab, dl *browser.DownloadWillBeginReply, file string, fail func(transport.Code, string, ...any) error) (transport.Result, error) {
	defer os.Remove(file)
	f, err := os.Open(file)
	if err != nil {
		w.log.Printf("download: open: %v", err)
		return nil, fail(transport.CodeInternal, "the browser finished the download but its file cannot be read")
	}
	data, err := io.ReadAll(io.LimitReader(f, budgets.DownloadBytes+1))
	f.Close()
	switch {
	case err != nil:
		w.log.Printf("download: read: %v", err)
		return nil, fail(transport.CodeInternal, "the browser finished the download but its file cannot be read")
	case len(data) > budgets.DownloadBytes:
		return nil, fail(transport.CodeArtifactTooLarge, "the download is larger than %d bytes: nothing kept", budgets.DownloadBytes)
	}
	return &transport.DownloadResult{
		Tab: string(t.id),
		Committed: transport.Committed{Payload: &transport.ArtifactPayload{Kind: transport.PartDownload, ContentType: "application/octet-stream",
			Encoding: "base64", DataBase64: base64.StdEncoding.EncodeToString(data), ByteLength: len(data)}},
		SuggestedFilename: filepath.Base(dl.SuggestedFilename),
		URL:               originAndPath(dl.URL),
	}, nil
}

// cancelDownload cancels a download in the browser, waits (within one CDP call's budget) for
// the browser to say it is cancelled, so it writes no more, and removes what it had written.
func (w *Worker) cancelDownload(guid, file string, updates <-chan *browser.DownloadProgressReply) {
	ctx, cancel := w.callContext()
	defer cancel()
	args := browser.NewCancelDownloadArgs(guid)
	if !w.defaultContext {
		args.SetBrowserContextID(w.contextID)
	}
	if err := w.bc.Browser.CancelDownload(ctx, args); err != nil {
		w.log.Printf("download: cancel: %v", err)
	}
wait:
	for {
		select {
		case p := <-updates:
			if p.GUID == guid && p.State != "inProgress" {
				break wait
			}
		case <-ctx.Done():
			break wait
		}
	}
	removeDownload(file)
}

// takeStrays records the downloads that have begun so far as not the call's own.
func takeStrays(strays map[string]bool, begun <-chan *browser.DownloadWillBeginReply) {
	for {
		select {
		case ev := <-begun:
			strays[ev.GUID] = true
		default:
			return
		}
	}
}

// dropStrays cancels the downloads a call did not take that may still be running and removes
// their files, then empties the directory. (Every download placed in the directory during
// the call is heard: the events are on before downloads are allowed, and off after.)
func (w *Worker) dropStrays(dir string, strays map[string]bool, begun <-chan *browser.DownloadWillBeginReply, updates <-chan *browser.DownloadProgressReply) {
	takeStrays(strays, begun)
	for more := true; more; {
		select {
		case p := <-updates:
			strays[p.GUID] = p.State == "inProgress"
		default:
			more = false
		}
	}
	for guid, running := range strays {
		file := filepath.Join(dir, filepath.Base(guid))
		if running {
			w.cancelDownload(guid, file, updates)
		}
		removeDownload(file)
	}
	// Whatever else is there (a cancelled download's file Chromium wrote to after it said
	// so) goes too: between calls the directory holds nothing.
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.log.Printf("download: read directory: %v", err)
	}
	for _, e := range entries {
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}

// removeDownload removes a download's file and Chromium's partial file beside it
// ("<guid>.crdownload"), whichever is there.
func removeDownload(file string) {
	_ = os.Remove(file)
	_ = os.Remove(file + ".crdownload")
}

// allowDownloads makes the worker's download directory (once) and points the browser
// context's downloads at it, with events.
func (w *Worker) allowDownloads(ctx context.Context) (string, error) {
	w.downloads.mu.Lock()
	defer w.downloads.mu.Unlock()
	if w.downloads.dir == "" {
		dir, err := os.MkdirTemp("", downloadDirPrefix+"*")
		if err != nil {
			return "", err
		}
		w.downloads.dir = dir
	}
	args := browser.NewSetDownloadBehaviorArgs("allowAndName").SetDownloadPath(w.downloads.dir).SetEventsEnabled(true)
	return w.downloads.dir, w.setDownloadBehavior(ctx, args)
}

// setDownloadBehavior sets the browser context's download behaviour within one CDP call's
// budget. A failure is logged too: putting the browser's behaviour back has no caller to tell.
func (w *Worker) setDownloadBehavior(ctx context.Context, args *browser.SetDownloadBehaviorArgs) error {
	ctx, cancel := context.WithTimeout(ctx, budgets.CDPCall().Default)
	defer cancel()
	if !w.defaultContext {
		args.SetBrowserContextID(w.contextID)
	}
	err := w.bc.Browser.SetDownloadBehavior(ctx, args)
	if err != nil {
		w.log.Printf("download: set behaviour %s: %v", args.Behavior, err)
	}
	return err
}

// removeDownloads removes the download directory and anything left in it (teardown).
func (w *Worker) removeDownloads() {
	w.downloads.mu.Lock()
	defer w.downloads.mu.Unlock()
	if w.downloads.dir != "" {
		if err := os.RemoveAll(w.downloads.dir); err != nil {
			w.log.Printf("download: remove directory: %v", err)
		}
		w.downloads.dir = ""
	}
}

// relabel names the download operation in an error act's steps made.
func relabel(err error) error {
	oe := transport.AsOperationError(transport.OpDownload, err)
	cp := *oe
	cp.Operation = transport.OpDownload
	return &cp
}

// sendOrDone hands ev on unless the operation has ended.
func sendOrDone[E any](ctx context.Context, ch chan<- E, ev E) {
	select {
	case ch <- ev:
	case <-ctx.Done():
	}
}

// originAndPath is what a result says of a download's URL: a query or fragment may hold a
// token, so only the origin and path are kept (data: and blob: URLs as their scheme).
func originAndPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return originOrScheme(raw)
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}
