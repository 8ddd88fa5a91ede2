//go:build !linux

package chromium

// sweepStale needs /proc to prove a profile unused; outside Linux nothing is swept.
func sweepStale(string) []string { return nil }
