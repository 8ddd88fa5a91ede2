package main

import "runtime/debug"

// workerGCPercent is the worker process's GOGC. A worker's live heap is 1–2 MB for a
// quick-start scenario (GODEBUG=gctrace=1), and at Go's default of 100 its heap goal sits at
// the runtime's 4 MB floor, which scales with GOGC: 50 halves the floor, and every parallel
// session runs a worker of its own (ci/bench-mem measures it). The extra collections cost
// little on so small a heap.
const workerGCPercent = 50

// tuneWorkerMemory applies workerGCPercent unless GOGC is set in the environment, which
// keeps the last word (ci/bench-mem's DEFAULTS=1 sets GOGC=100 to measure the difference).
func tuneWorkerMemory(st *state) {
	if _, set := st.lookupEnv("GOGC"); !set {
		debug.SetGCPercent(workerGCPercent)
	}
}
