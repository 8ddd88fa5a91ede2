// Package proctest is test support for packages that start processes: it reads /proc to
// see processes, their groups and command lines, and it lets a test binary adopt
// (PR_SET_CHILD_SUBREAPER) and reap the orphaned descendants of the processes it started, so
// a killed grandchild does not stay a zombie in its group when pid 1 does not reap orphans.
//
// It is Linux only and meant for tests alone: production code must not import it. It must
// not import runtime/process either, whose own tests use it.
package proctest
