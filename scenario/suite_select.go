package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Shard is --shard i/n: this job runs the files whose position in the sorted list of all
// selected files is i-1 modulo n. Every job of a CI matrix sees the same file list, so the
// shards together run every file exactly once. It picks files, not loaded scenarios, so a
// file of another shard is never parsed here (nor refused when invalid).
type Shard struct{ Index, Total int }

// ParseShard reads "i/n" ("" is the whole run, 1/1).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{1, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n || n > 1000 {
		return Shard{}, fmt.Errorf("--shard %q: expected i/n with 1 ≤ i ≤ n ≤ 1000, e.g. 2/3", s)
	}
	return Shard{i, n}, nil
}

// Pick keeps this shard's files, in order.
func (sh Shard) Pick(files []string) []string {
	if sh.Total == 1 {
		return files
	}
	var out []string
	for k, f := range files {
		if k%sh.Total == sh.Index-1 {
			out = append(out, f)
		}
	}
	return out
}

// Grep keeps the scenarios whose id matches pattern (--grep, Go regexp syntax; "" keeps
// all). A pattern that matches none is an error: a typo would otherwise pass a CI job.
// ErrNoMatch is Grep's refusal when the pattern matches no scenario (errors.Is).
var ErrNoMatch = errors.New("no scenario matches")

func Grep(pattern string, loaded []*Loaded) ([]*Loaded, error) {
	if pattern == "" {
		return loaded, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("--grep %q: not a valid regular expression", pattern)
	}
	var out []*Loaded
	for _, l := range loaded {
		if re.MatchString(l.ID) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--grep %q matches no scenario id: %w", pattern, ErrNoMatch)
	}
	return out, nil
}

// LoadAll parses every file with over applied; it returns the valid ones and one error per
// invalid one, a scenario id used by an earlier file included.
func LoadAll(files []string, over Overrides) ([]*Loaded, []error) {
	var loaded []*Loaded
	var errs []error
	seen := map[string]string{}
	for _, f := range files {
		l, err := LoadWith(f, over)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := seen[l.ID]; dup {
			errs = append(errs, &ValidationError{File: f, Path: "id", Message: "id " + l.ID + " is also used by " + prev})
			continue
		}
		seen[l.ID] = f
		loaded = append(loaded, l)
	}
	return loaded, errs
}
