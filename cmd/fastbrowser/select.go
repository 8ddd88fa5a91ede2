package main

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// shard is --shard i/n: this job runs the files whose position in the sorted list of all
// selected files is i-1 modulo n. Every job of a CI matrix sees the same file list, so the
// shards together run every file exactly once.
type shard struct{ index, total int }

func parseShard(s string) (shard, error) {
	if s == "" {
		return shard{1, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n || n > 1000 {
		return shard{}, usageError("--shard %q: expected i/n with 1 ≤ i ≤ n ≤ 1000, e.g. 2/3", s)
	}
	return shard{i, n}, nil
}

// pick keeps this shard's files, in order.
func (sh shard) pick(files []string) []string {
	if sh.total == 1 {
		return files
	}
	var out []string
	for k, f := range files {
		if k%sh.total == sh.index-1 {
			out = append(out, f)
		}
	}
	return out
}

// grepIDs keeps the scenarios whose id matches --grep (Go regexp syntax).
func grepIDs(pattern string, loaded []*scenario.Loaded) ([]*scenario.Loaded, error) {
	if pattern == "" {
		return loaded, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, usageError("--grep %q: not a valid regular expression", pattern)
	}
	var out []*scenario.Loaded
	for _, l := range loaded {
		if re.MatchString(l.ID) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, usageError("--grep %q matches no scenario id", pattern)
	}
	return out, nil
}
