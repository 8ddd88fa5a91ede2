// Package jsonl owns the framing of newline-delimited JSON: it is the only code in the
// project that splits a byte stream into lines or joins frames into one.
//
// A Reader hands out one line at a time with a hard length limit, and survives an
// over-long line by discarding it without buffering it, so a misbehaving peer cannot
// make the process hold an unbounded frame. A Writer turns each frame into exactly one
// Write call under a mutex, so frames from concurrent senders never interleave.
//
// The package knows nothing of the protocol: what a line means, and whether an empty
// one is acceptable, is the caller's business.
package jsonl

import "github.com/fastbrowser/fastbrowser/budgets"

// DefaultMaxLine is the longest line, newline excluded, that the protocol allows: the
// frame budget.
const DefaultMaxLine = budgets.FrameBytes
