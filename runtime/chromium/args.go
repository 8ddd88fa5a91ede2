package chromium

import "os"

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
		// Form pages make Chromium ask Google's autofill service about their fields, through
		// the context's proxy; on a closed network that is noise refused as egress.
		"--disable-features=AutofillServerCommunication",
		"--disable-extensions",
		"--mute-audio",
		"--remote-debugging-port=0", // the kernel picks a free port; we read it from stderr
		"--remote-debugging-address=127.0.0.1",
		"--user-data-dir="+profile,
		// No initial tab (≈110 ms saved): the runtime makes its own contexts and tabs, and
		// Target.createTarget still works in new headless mode (TestCreateTarget).
		"--no-startup-window",
	)
	return append(a, opts.ExtraArgs...)
}
