package scenario

import (
	"io"
	"net/url"
	"slices"
	"sync"
	"time"
)

// ServerPlan is how a run schedules its managed servers, decided from the files before
// anything starts: on an address that every managed scenario names with the same server
// (serverKey), two or more scenarios share one instance for the whole run; on an address
// named with different servers, the scenarios take turns, each starting and stopping its
// own (they would find the port in use). A server only one scenario names is that
// scenario's, as before.
type ServerPlan struct {
	Shared []SharedServer // in the order of their first scenario
	Turns  []AddressTurns // in the order of their first scenario
}

// SharedServer is one managed server shared by Scenarios scenarios.
type SharedServer struct {
	Address   string
	Scenarios int
}

// AddressTurns is an address that Servers different managed servers name: its Scenarios
// scenarios run one at a time.
type AddressTurns struct {
	Address   string
	Scenarios int
	Servers   int
}

// serverSchedule is a run's ServerPlan in action: the shared servers by scenario and the
// turns on contested addresses.
type serverSchedule struct {
	plan   ServerPlan
	shared map[*Loaded]*sharedServer
	all    []*sharedServer
	turns  *serverLocks
}

// scheduleServers plans the managed servers of loaded; shared servers use lookup and log
// like a scenario's own.
func scheduleServers(loaded []*Loaded, lookup func(string) (string, bool), log io.Writer) *serverSchedule {
	type addrUse struct {
		keys  []string
		users []*Loaded
	}
	byAddr := map[string]*addrUse{}
	var order []string
	for _, l := range loaded {
		addr, key := managedAddress(l), serverKey(l)
		if addr == "" || key == "" {
			continue
		}
		u, ok := byAddr[addr]
		if !ok {
			u = &addrUse{}
			byAddr[addr] = u
			order = append(order, addr)
		}
		if !slices.Contains(u.keys, key) {
			u.keys = append(u.keys, key)
		}
		u.users = append(u.users, l)
	}
	sc := &serverSchedule{shared: map[*Loaded]*sharedServer{}, turns: &serverLocks{held: map[string]*sync.Mutex{}, only: map[string]bool{}}}
	if log == nil {
		log = io.Discard
	}
	for _, addr := range order {
		u := byAddr[addr]
		switch {
		case len(u.keys) > 1:
			sc.plan.Turns = append(sc.plan.Turns, AddressTurns{Address: addr, Scenarios: len(u.users), Servers: len(u.keys)})
			sc.turns.only[addr] = true
		case len(u.users) > 1:
			first := u.users[0]
			sh := &sharedServer{spec: first.Fixture.Server, dir: first.Dir, lookup: lookup, log: log, out: newOutputLog("shared server"),
				sem: make(chan struct{}, 1), users: len(u.users), scenarios: len(u.users)}
			for _, l := range u.users {
				sc.shared[l] = sh
			}
			sc.all = append(sc.all, sh)
			sc.plan.Shared = append(sc.plan.Shared, SharedServer{Address: addr, Scenarios: len(u.users)})
		}
	}
	return sc
}

// release says l is done (finished or skipped): the last user of a shared server stops it.
func (sc *serverSchedule) release(l *Loaded, rep *ScenarioReport, began time.Time) {
	if sh := sc.shared[l]; sh != nil {
		sh.release(rep, began)
	}
}

// stopAll stops every shared server still up: the end of the run, whatever ended it.
func (sc *serverSchedule) stopAll() {
	for _, sh := range sc.all {
		_, _ = sh.stop()
	}
}

// managedAddress is the host:port a managed server of the scenario listens on, as its
// readiness URL names it ("" when the scenario starts no server).
func managedAddress(l *Loaded) string {
	f := l.Fixture
	if f == nil || f.Server == nil || f.Server.Mode != ModeManaged {
		return ""
	}
	u, err := url.Parse(f.Server.Readiness.URL)
	if err != nil {
		return ""
	}
	return u.Host
}
