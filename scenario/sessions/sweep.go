package sessions

import (
	"io/fs"
	"os"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
)

// Sweep tidies the state directory, best effort and bounded (budgets.SessionSweepEntries
// sessions looked at, no lock waited for). For each session:
//   - starting (`session open` made it and its host has not said it is ready), with no
//     live host and older than budgets.SessionOpenWait: the open failed and nobody was left
//     to clean up; the directory is removed;
//   - open, with no live host: the host died (a host takes its lock before its session
//     is open, so no open session is without one while it lives). The record says ended (EndHostDied,
//     EndedAt now), its socket is removed, and so is its temporary profile if
//     chromium.RemoveStaleProfile proves no browser uses it;
//   - ended: its temporary profile is tried again (a browser that outlived its host has
//     died since), and the directory is removed once EndedAt is older than
//     budgets.SessionKeep;
//   - open with a live host: untouched (the host keeps its own idle deadline);
//   - unreadable: left alone.
func (s *Store) Sweep(now time.Time) {
	d, err := os.Open(s.sessionsDir())
	if err != nil {
		return
	}
	ents, _ := d.ReadDir(budgets.SessionSweepEntries)
	d.Close()
	for _, e := range ents {
		if ValidID(e.Name()) && e.Type() == fs.ModeDir {
			s.dir(e.Name()).sweep(now)
		}
	}
}

func (d *Dir) sweep(now time.Time) {
	rec, err := d.Record()
	if err != nil {
		return
	}
	switch rec.State {
	case StateStarting:
		if now.Sub(rec.Created) > budgets.SessionOpenWait && !d.HostAlive() {
			_ = d.Remove()
		}
	case StateOpen:
		if d.HostAlive() {
			return
		}
		ended := false
		rec, err = d.update(func(r *Record) {
			if r.State == StateOpen { // another sweep may have ended it first
				r.State, r.Reason, r.EndedAt = StateEnded, EndHostDied, now
				ended = true
			}
		}, 0)
		if err != nil || !ended {
			return
		}
		_ = os.Remove(d.SocketPath())
		removeTempProfile(rec)
	case StateEnded:
		removeTempProfile(rec)
		if !rec.EndedAt.IsZero() && now.Sub(rec.EndedAt) > budgets.SessionKeep {
			_ = d.Remove()
		}
	}
}

// removeTempProfile removes a session's temporary profile if chromium's rules prove it
// unused (a fastbrowser-profile-* directory of ours that no live Chromium holds).
func removeTempProfile(rec Record) {
	if rec.TempProfile != "" {
		_, _ = chromium.RemoveStaleProfile(rec.TempProfile)
	}
}
