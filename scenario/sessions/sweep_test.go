package sessions

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// staleProfile is a temporary profile stale by chromium's rules: no SingletonLock (the
// browser never got that far) and older than budgets.StaleProfileAge.
func staleProfile(t *testing.T, pattern string) string {
	t.Helper()
	p, err := os.MkdirTemp(t.TempDir(), pattern)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * budgets.StaleProfileAge)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

func plantSocket(t *testing.T, d *Dir) {
	t.Helper()
	if err := os.WriteFile(d.SocketPath(), nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSweep: a dead host's session is ended as host_died, its socket and stale temporary
// profile removed; a live one, a starting one, a recently ended one and an unreadable one
// are left as they are; one ended over budgets.SessionKeep ago is removed.
func TestSweep(t *testing.T) {
	s := openStore(t)
	now := time.Now().UTC().Truncate(time.Second)
	open := func(created time.Time, profile string) *Dir {
		rec := sampleRecord(s.NewID())
		rec.Created, rec.TempProfile = created, profile
		d := create(t, s, rec)
		plantSocket(t, d)
		return d
	}

	deadProfile := staleProfile(t, "fastbrowser-profile-*")
	dead := open(now.Add(-time.Hour), deadProfile)
	startHost(t, dead).kill() // a host that held its lock, then was SIGKILLed

	foreignProfile := staleProfile(t, "not-fastbrowsers-*") // stale, but no profile of ours
	deadForeign := open(now.Add(-time.Hour), foreignProfile)

	liveProfile := staleProfile(t, "fastbrowser-profile-*")
	live := open(now.Add(-time.Hour), liveProfile)
	release, err := live.LockHost()
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	starting := open(now.Add(-budgets.SessionOpenWait/2), "") // its host has not locked yet
	startingRec, _ := starting.Record()
	startingRec.State = StateStarting
	if err := starting.WriteRecord(startingRec); err != nil {
		t.Fatal(err)
	}
	abandoned := open(now.Add(-2*budgets.SessionOpenWait), "") // its open died long ago
	abandonedRec, _ := abandoned.Record()
	abandonedRec.State = StateStarting
	if err := abandoned.WriteRecord(abandonedRec); err != nil {
		t.Fatal(err)
	}
	justDead := open(now.Add(-time.Second), "") // killed a moment after it opened

	ended := func(age time.Duration) *Dir {
		rec := sampleRecord(s.NewID())
		rec.State, rec.Reason, rec.EndedAt = StateEnded, EndIdle, now.Add(-age)
		return create(t, s, rec)
	}
	oldEnded := ended(budgets.SessionKeep + time.Minute)
	youngEnded := ended(budgets.SessionKeep - time.Minute)

	unreadable := create(t, s, sampleRecord(s.NewID()))
	if err := os.WriteFile(filepath.Join(unreadable.Path, "session.json"), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}

	untouched := map[string]*Dir{"live": live, "starting": starting, "young ended": youngEnded}
	before := map[string]Record{}
	for what, d := range untouched {
		if before[what], err = d.Record(); err != nil {
			t.Fatal(err)
		}
	}

	s.Sweep(now)

	if exists(abandoned.Path) {
		t.Errorf("a session still starting %s after it was created, with no host, survived", 2*budgets.SessionOpenWait)
	}
	for what, d := range map[string]*Dir{"dead": dead, "dead with a foreign profile": deadForeign, "just dead": justDead} {
		rec, err := d.Record()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if rec.State != StateEnded || rec.Reason != EndHostDied || !rec.EndedAt.Equal(now) {
			t.Errorf("%s: state %q reason %q endedAt %v; want ended, host_died, %v", what, rec.State, rec.Reason, rec.EndedAt, now)
		}
		if exists(d.SocketPath()) {
			t.Errorf("%s: socket %s survived", what, d.SocketPath())
		}
	}
	if exists(deadProfile) {
		t.Errorf("the dead host's stale temporary profile %s survived", deadProfile)
	}
	if !exists(foreignProfile) {
		t.Errorf("a temporary profile not named like chromium's (%s) was removed", foreignProfile)
	}

	for what, d := range untouched {
		if rec, err := d.Record(); err != nil || !reflect.DeepEqual(rec, before[what]) {
			t.Errorf("%s: record became %+v, %v; want it untouched", what, rec, err)
		}
	}
	for what, p := range map[string]string{"live socket": live.SocketPath(), "live temporary profile": liveProfile,
		"starting socket": starting.SocketPath(), "unreadable session": filepath.Join(unreadable.Path, "session.json")} {
		if !exists(p) {
			t.Errorf("%s (%s) was removed", what, p)
		}
	}
	if exists(oldEnded.Path) {
		t.Errorf("a session ended over %s ago survived", budgets.SessionKeep)
	}

	// A later sweep leaves the now-ended session as it is (EndedAt is not moved).
	s.Sweep(now.Add(time.Hour))
	if rec, err := dead.Record(); err != nil || !rec.EndedAt.Equal(now) {
		t.Errorf("after a second sweep: endedAt %v, %v; want %v", rec.EndedAt, err, now)
	}
}
