package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime"
)

// run --profile: every scenario of the run uses one persistent Chromium profile, which the
// run holds for its whole life with the hold a session takes (runtime.HoldProfile), so a
// run and a session never share a profile in either direction.

func runProfileFlag() cli.Flag {
	return &cli.StringFlag{Name: "profile", Usage: "run every scenario in a persistent browser profile `DIR` (cookies, storage) instead of a fresh temporary one, one browser at a time (--jobs 1); the run holds DIR alone until it ends, and refuses a DIR a session holds"}
}

// runProfile is --profile made absolute ("" without it). It needs a browser fastbrowser
// launches, and one browser at a time: jobs (the flag or the config's) over 1 is refused,
// not quietly lowered, since the user asked for it.
func runProfile(c *cli.Context, jobs int) (string, error) {
	v := c.String("profile")
	if v == "" {
		return "", nil
	}
	if c.String("cdp-url") != "" {
		return "", usageError("--profile needs a browser fastbrowser launches; it does not go with --cdp-url")
	}
	if jobs > 1 {
		return "", usageError("--profile with --jobs %d: one browser profile serves one browser at a time; use --jobs 1 (the default with --profile)", jobs)
	}
	abs, err := filepath.Abs(v)
	if err != nil {
		return "", usageError("--profile %s: not a usable path", v)
	}
	return abs, nil
}

// holdRunProfile holds profile for this run until release, before anything starts: a
// profile a session or another run holds is a usage error (exit 2) that names the holder
// and what to do. The hold ends with the process however it ends, so release need only be
// deferred.
func holdRunProfile(profile string) (release func(), err error) {
	release, err = runtime.HoldProfile(profile, runtime.ProfileHolder{RunPid: os.Getpid()})
	var inUse *runtime.ProfileInUseError
	switch {
	case errors.As(err, &inUse):
		return nil, usageError("--profile %s: the profile is %s", profile, inUse.HeldBy())
	case err != nil:
		return nil, usageError("--profile %s: %v", profile, err)
	}
	return release, nil
}
