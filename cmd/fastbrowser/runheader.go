package main

import (
	"fmt"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// runHeader is run's first line: how many scenarios run and how many at a time, and what
// the managed servers change about that: servers shared by several scenarios (which then run
// in parallel), and addresses where different servers make the scenarios take turns.
//
//	running 4 scenarios, up to 2 at a time (1 managed server shared by 4 scenarios)
//	running 4 scenarios, up to 2 at a time (2 take turns on 127.0.0.1:4310: different servers on one address)
func runHeader(scenarios, jobs int, plan scenario.ServerPlan) string {
	line := fmt.Sprintf("running %d scenarios, up to %d at a time", scenarios, min(jobs, scenarios))
	var notes []string
	if n := len(plan.Shared); n > 0 {
		users := 0
		for _, s := range plan.Shared {
			users += s.Scenarios
		}
		notes = append(notes, fmt.Sprintf("%d managed %s shared by %d scenarios", n, plural(n, "server", "servers"), users))
	}
	if len(plan.Turns) > 0 {
		var on []string
		for i, t := range plan.Turns {
			if i == 0 {
				on = append(on, fmt.Sprintf("%d take turns on %s", t.Scenarios, t.Address))
				continue
			}
			on = append(on, fmt.Sprintf("%d on %s", t.Scenarios, t.Address))
		}
		notes = append(notes, strings.Join(on, ", ")+": different servers on one address")
	}
	if len(notes) > 0 {
		line += " (" + strings.Join(notes, "; ") + ")"
	}
	return line
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
