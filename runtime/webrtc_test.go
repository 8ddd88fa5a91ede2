package runtime_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// rtcPage drives the fixture's WebRTC page in one session and keeps every blocked entry.
type rtcPage struct {
	t       *testing.T
	rt      *runtime.Runtime
	blocked []transport.Blocked
}

func (p *rtcPage) note(res transport.Result, err error) {
	p.t.Helper()
	if err != nil {
		p.t.Fatalf("%v", err)
	}
	p.blocked = append(p.blocked, transport.BlockedOf(res)...)
}

func (p *rtcPage) click(role, name string) {
	p.t.Helper()
	res, err := transport.Dispatch(bg, p.rt, transport.Act{Action: transport.ActClick, Target: *exactRole(role, name)}) // "Try WebRTC", not "Try WebRTC in a popup's frame"
	p.note(&res, err)
}

// popup waits for the next popup of the selected tab and returns its handle.
func (p *rtcPage) popup() string {
	p.t.Helper()
	res, err := transport.Dispatch(bg, p.rt, transport.WaitPopup{})
	p.note(&res, err)
	return res.Popup
}

// expect waits for the tab's status line to read want, for up to five bounded asserts (a
// loaded machine can take longer than one read budget to run the probes), and shows the
// line it read when it does not.
func (p *rtcPage) expect(tab, want string) {
	p.t.Helper()
	var err error
	for range 5 {
		var res transport.AssertResult
		res, err = transport.Dispatch(bg, p.rt, transport.Assert{Tab: tab, Kind: transport.AssertTextContains, Value: want})
		if err == nil {
			p.note(&res, nil)
			return
		}
		var oe *transport.OperationError
		if !errors.As(err, &oe) || oe.Code != transport.CodeAssertionFailed {
			break
		}
	}
	rd, _ := transport.Dispatch(bg, p.rt, transport.Read{Tab: tab})
	line := rd.Text
	if i := strings.Index(line, "webrtc:"); i >= 0 {
		line = line[i:]
	}
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	p.t.Fatalf("tab %q: want %q, the page says %q (%v)", tab, want, line, err)
}

// openRTC opens the WebRTC page aimed at canary in a session with opts (its worker filled in).
func openRTC(t *testing.T, site string, canary *fixture.NetCanary, opts runtime.Options) *rtcPage {
	t.Helper()
	p := &rtcPage{t: t, rt: runtimetest.OpenWith(t, opts)}
	res, err := transport.Dispatch(bg, p.rt, transport.Navigate{URL: fixture.WebRTCURL(site, canary)})
	p.note(&res, err)
	return p
}

// udpOnBrowser is a Chromium whose profile leaves WebRTC's UDP on, as in a browser
// fastbrowser did not launch: only the in-page block stands between a page and the canary.
func udpOnBrowser(t *testing.T) *chromium.Browser {
	t.Helper()
	b, err := chromium.Launch(context.Background(), chromium.Options{WebRTCUDP: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func newNetCanary(t *testing.T) *fixture.NetCanary {
	t.Helper()
	c, err := fixture.NewNetCanary()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

const refusedHere = "top=refused webkit=refused frame=refused"

// TestWebRTCBlockedByDefault is issue 16's item 1: in a session whose policy is not "*", no
// WebRTC packet reaches a host outside it. Every probe of the page is tried — RTCPeerConnection
// from the page, its webkit alias, an about:blank frame, a window.open() popup, a frame made
// inside that popup, and the first document of a popup opened with and without an opener —
// each aiming STUN, TURN over UDP and TCP, and ICE checks at a UDP+TCP canary on 127.0.0.2.
func TestWebRTCBlockedByDefault(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close) // the subtests run after this function returns
	t.Run("launched", func(t *testing.T) {
		t.Parallel()
		// The package's browser, launched by fastbrowser: the in-page block, no UDP, and
		// TCP through the egress proxy.
		canary := newNetCanary(t)
		b, err := runtimetest.Browser()
		if err != nil {
			t.Fatal(err)
		}
		p := openRTC(t, site.URL, canary, runtime.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}})
		p.tryEverything()
		if canary.Packets() != 0 || canary.Connections() != 0 {
			t.Fatalf("the canary got %d UDP packets and %d TCP connections", canary.Packets(), canary.Connections())
		}
	})
	t.Run("in-page block alone", func(t *testing.T) {
		t.Parallel()
		// UDP on and no egress proxy: what an attached browser has: the in-page block alone,
		// the popup's frame included (the guard reaches it through the iframe element).
		canary := newNetCanary(t)
		b := udpOnBrowser(t)
		p := openRTC(t, site.URL, canary, runtime.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, EdgeProxy: runtime.EdgeProxyOff})
		if got := p.rt.Enforcement(); len(got) != 1 {
			t.Fatalf("enforcement %v, want the browser alone", got)
		}
		p.tryEverything()
		if canary.Packets() != 0 || canary.Connections() != 0 {
			t.Fatalf("the canary got %d UDP packets and %d TCP connections", canary.Packets(), canary.Connections())
		}
	})
}

// tryEverything runs every probe of the page, the frame made inside a popup included. Each
// step waits for the page to report.
func (p *rtcPage) tryEverything() {
	p.t.Helper()
	// Popups whose first document tries WebRTC at once: held at start, guarded before they run.
	p.click("button", "Open WebRTC window")
	p.expect(p.popup(), "webrtc: "+refusedHere+"; done")
	p.click("link", "Open WebRTC tab") // rel=noopener: a new renderer
	p.expect(p.popup(), "webrtc: "+refusedHere+"; done")
	p.click("button", "Try WebRTC")
	p.expect("", "webrtc: "+refusedHere+" popup=refused; done")
	p.click("button", "Try WebRTC in a popup's frame")
	p.expect("", "webrtc: popup-frame=refused; done")
}

// TestWebRTCAllowedUnderARestrictedPolicy: "allow" lets pages create connections, but on a
// browser fastbrowser launched WebRTC sends no UDP at all, and its TCP goes through the
// egress proxy, which admits only the policy's origins. With the canary's TCP port in the
// policy, TCP relays reach it and still not one UDP packet does; with only the fixture in
// the policy, nothing reaches it (a refusal the proxy reports is listed as browser
// background: the worker cannot see which page made it). Attached to a browser fastbrowser
// did not launch, "allow" under a restricted policy is refused.
func TestWebRTCAllowedUnderARestrictedPolicy(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}

	admitted := newNetCanary(t)
	tcpOrigin := "http://" + fixture.NetCanaryIP + ":" + strconv.Itoa(admitted.TCPPort())
	p := openRTC(t, site.URL, admitted, runtime.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL, tcpOrigin}, WebRTC: runtime.WebRTCAllow})
	p.click("button", "Try WebRTC")
	p.expect("", "webrtc: top=created webkit=created frame=created popup=created; done")
	if !proctest.PollUntil(10*time.Second, func() bool { return admitted.Connections() > 0 }) || admitted.Packets() != 0 {
		t.Fatalf("canary in the policy: %d UDP packets and %d TCP connections, want 0 and some", admitted.Packets(), admitted.Connections())
	}
	t.Logf("canary in the policy: %d TCP connections, 0 UDP packets", admitted.Connections())

	refused := newNetCanary(t)
	p = openRTC(t, site.URL, refused, runtime.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, WebRTC: runtime.WebRTCAllow})
	p.click("button", "Try WebRTC")
	p.expect("", "webrtc: top=created webkit=created frame=created popup=created; done")
	p.click("button", "Try WebRTC in a popup's frame")
	p.expect("", "webrtc: popup-frame=created; done")
	rd, err := transport.Dispatch(bg, p.rt, transport.Read{})
	p.note(&rd, err)
	if refused.Packets() != 0 || refused.Connections() != 0 {
		t.Fatalf("canary outside the policy: %d UDP packets and %d TCP connections", refused.Packets(), refused.Connections())
	}
	for _, bl := range p.blocked {
		if bl.Origin == "connect://"+fixture.NetCanaryIP+":"+strconv.Itoa(refused.TCPPort()) && bl.Kind != runtime.KindBrowserBackground {
			t.Errorf("the proxy's refusal of WebRTC's TCP listed as %+v", bl)
		}
	}
	t.Logf("canary outside the policy: 0 UDP packets, 0 TCP connections; blocked %+v", p.blocked)

	other := udpOnBrowser(t)
	bin, _ := runtimetest.Binary()
	_, err = runtime.Open(bg, runtime.Options{CDPURL: other.WebSocketURL(), AllowedOrigins: []string{site.URL}, WebRTC: runtime.WebRTCAllow,
		WorkerPath: bin, WorkerArgs: []string{"worker"}})
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodeInvalidRequest || oe.Path != "webrtc" {
		t.Fatalf(`"allow" on a browser fastbrowser did not launch: %v`, err)
	}
}

// TestWebRTCAllowedUnderAny: with a "*" policy and "allow", the browser the session launches
// keeps WebRTC's UDP on, so the canary hears from the page over UDP (STUN, TURN, ICE checks)
// and over TCP (through the egress proxy, which admits any origin here). This is what the
// two tests above hold back.
func TestWebRTCAllowedUnderAny(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary := newNetCanary(t)
	p := openRTC(t, site.URL, canary, runtime.Options{WebRTC: runtime.WebRTCAllow})
	p.click("button", "Try WebRTC")
	p.expect("", "webrtc: top=created webkit=created frame=created popup=created")
	if !proctest.PollUntil(10*time.Second, func() bool { return canary.Packets() > 0 && canary.Connections() > 0 }) {
		t.Fatalf("the canary got %d UDP packets and %d TCP connections", canary.Packets(), canary.Connections())
	}
	t.Logf("the canary got %d UDP packets and %d TCP connections", canary.Packets(), canary.Connections())
}
