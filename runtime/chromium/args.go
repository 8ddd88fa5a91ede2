package chromium

import (
	"os"
	"strings"
)

// args is Chromium's command line for a fresh profile. Each flag keeps a closed-network,
// root-in-a-container launch quiet and predictable (see CDP-NOTES.md "Connecting").
func args(opts Options, profile string) []string {
	var a []string
	if !opts.Headed {
		a = append(a, "--headless=new")
	}
	if os.Geteuid() == 0 {
		// Chromium refuses to start its sandbox as root.
		a = append(a, "--no-sandbox")
	}
	a = append(a,
		"--disable-gpu",
		"--disable-dev-shm-usage", // a container's 64 MB /dev/shm crashes renderers
		"--disable-quic",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-features="+strings.Join(disabledFeatures, ","),
		"--disable-extensions",
		"--mute-audio",
		// DevTools on fds 3 and 4 only, never on a port: a port on 127.0.0.1 is open to every
		// local user. The gate (runtime/internal/cdpgate) owns the pipe and lets our workers in.
		"--remote-debugging-pipe",
		"--user-data-dir="+profile,
		// No initial tab (≈110 ms saved): the runtime makes its own contexts and tabs, and
		// Target.createTarget still works in new headless mode (TestCreateTarget).
		"--no-startup-window",
	)
	return append(a, opts.ExtraArgs...)
}

// disabledFeatures are Chromium features off in every browser we launch. An unknown name is
// ignored by Chromium, so a feature a later version renames costs nothing but its saving.
var disabledFeatures = []string{
	// Form pages make Chromium ask Google's autofill service about their fields, through
	// the context's proxy; on a closed network that is noise refused as egress.
	"AutofillServerCommunication",
	// Each browser context's first tab opens a window, and for every window Chromium 156
	// preloads two WebUI omnibox popups (chrome://omnibox-popup.top-chrome/), each in a
	// renderer of its own; and after every navigation it starts a spare renderer for the
	// next one, which a new context (another storage partition) cannot use. Headless has no
	// omnibox, and each scenario has its own context: these were two of every three renderers
	// a session started, and about 60% of a 20-scenario run's CPU (TestOneRendererPerContext).
	"WebUIOmniboxPopup",
	"WebUIOmniboxAimPopup",
	"SpareRendererForSitePerProcess",
}
