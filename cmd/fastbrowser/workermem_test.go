package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneWorkerMemory: the worker's GOGC is workerGCPercent unless the environment sets
// GOGC, which keeps the last word.
func TestTuneWorkerMemory(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	env := map[string]string{}
	st := &state{lookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	tuneWorkerMemory(st)
	if got := debug.SetGCPercent(100); got != workerGCPercent {
		t.Fatalf("GOGC unset: the worker runs at %d, want %d", got, workerGCPercent)
	}
	env["GOGC"] = "100"
	tuneWorkerMemory(st)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC=100 set: the worker runs at %d, want the environment's 100", got)
	}
}
