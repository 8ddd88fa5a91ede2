//go:build linux

package process

import (
	"os"
	"testing"
	"time"
)

// What a start costs through the supervisor against a direct one: Start of /bin/true until
// its reap is known (go test -run '^$' -bench 'Start' ./runtime/process/).
func BenchmarkStartDirect(b *testing.B) {
	benchStarts(b, func() *supervisor { return nil })
}

func BenchmarkStartSupervised(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	s, err := startSupervisor(SupervisorOptions{Path: exe}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	benchStarts(b, func() *supervisor { return s })
}

func benchStarts(b *testing.B, sup func() *supervisor) {
	for b.Loop() {
		p, err := startOn(Spec{Path: "/bin/true"}, sup)
		if err != nil {
			b.Fatal(err)
		}
		select {
		case <-p.Done():
		case <-time.After(5 * time.Second):
			b.Fatal("not reaped within 5 s")
		}
	}
}

// What the first supervised Start pays once: the supervisor's start until it is ready
// (and its sweep, which runs beside it), and its orderly end.
func BenchmarkSupervisorStartAndClose(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := startSupervisor(SupervisorOptions{Path: exe}, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.close()
	}
}
