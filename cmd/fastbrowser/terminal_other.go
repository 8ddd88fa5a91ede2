//go:build !linux

package main

import "os"

// isTerminal reports whether f is a character device (a terminal, or /dev/null) where the
// terminal ioctl is not at hand.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
