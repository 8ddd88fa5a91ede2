package main

import "io"

// debugLog is where Chromium's, the worker's and fixture servers' stderr go:
// FASTBROWSER_DEBUG=1 sends them to stderr, otherwise they are discarded.
func debugLog(st *state) io.Writer {
	if v, ok := st.lookupEnv("FASTBROWSER_DEBUG"); ok && v != "" && v != "0" {
		return st.stderr
	}
	return nil
}
