package main

import (
	"fmt"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// healedRecordings is what run does about the acts in words that healed: with --update it
// writes their new recordings into their files and says which files it wrote (stderr for a
// file it could not); without, it says how to. It returns the files written.
func healedRecordings(st *state, rep *scenario.Report, update, quiet bool) []string {
	n := rep.HealedCount()
	if n == 0 {
		return nil
	}
	if !update {
		if !quiet {
			fmt.Fprintf(st.stdout, "\n%d operation(s) healed: run with --update to write the healed recording(s) into the scenario files\n", n)
		}
		return nil
	}
	var written []string
	for _, u := range scenario.UpdateHealed(rep) {
		if u.Err != nil {
			fmt.Fprintf(st.stderr, "fastbrowser: --update: %v\n", u.Err)
			continue
		}
		written = append(written, u.File)
		if !quiet {
			fmt.Fprintf(st.stdout, "updated: %s (%d recording(s))\n", u.File, u.Recordings)
		}
	}
	return written
}
