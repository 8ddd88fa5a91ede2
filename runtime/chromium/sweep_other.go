//go:build !linux

package chromium

// sweepStale needs /proc to prove a profile unused; outside Linux nothing is swept.
func sweepStale(string) []string { return nil }

// RemoveStaleProfile cannot prove a profile unused without /proc: nothing is removed.
func RemoveStaleProfile(string) (bool, error) { return false, nil }
