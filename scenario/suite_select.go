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

// Grep keeps the scenarios whose id, description or tags match pattern (--grep) and
// drops those that match invert (--grep-invert); "" keeps all. As Playwright's --grep, which
// searches a test's title with its tags, matching is case-insensitive (Go regexp syntax,
// compiled with "(?i)") and looks at each field and at all of them together (grepMatch). A selection that
// keeps none is an error: a typo would otherwise pass a CI job.
// ErrNoMatch is Grep's refusal when nothing is kept (errors.Is).
var ErrNoMatch = errors.New("no scenario matches")

// ErrBadPattern is Grep's refusal of a pattern that does not compile (errors.Is).
var ErrBadPattern = errors.New("not a valid regular expression")

func Grep(pattern, invert string, loaded []*Loaded) ([]*Loaded, error) {
	if pattern == "" && invert == "" {
		return loaded, nil
	}
	keep, err := compileGrep("--grep", pattern)
	if err != nil {
		return nil, err
	}
	drop, err := compileGrep("--grep-invert", invert)
	if err != nil {
		return nil, err
	}
	var out []*Loaded
	for _, l := range loaded {
		if (keep == nil || grepMatch(keep, l.File)) && (drop == nil || !grepMatch(drop, l.File)) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		var what []string
		if pattern != "" {
			what = append(what, fmt.Sprintf("--grep %q", pattern))
		}
		if invert != "" {
			what = append(what, fmt.Sprintf("--grep-invert %q", invert))
		}
		return nil, fmt.Errorf("%s kept none of %d scenarios (searched each one's id, description and tags, case-insensitively): %w",
			strings.Join(what, " with "), len(loaded), ErrNoMatch)
	}
	return out, nil
}

// grepMatch says whether re matches the scenario's id, its description, one of its tags, or
// all of them joined by single spaces ("id description tag tag…", as Playwright's title with its
// tags): each alone, so an anchored "^login-ok$" still selects by id as it always did.
func grepMatch(re *regexp.Regexp, f *File) bool {
	var fields []string
	for _, s := range append([]string{f.ID, f.Description}, f.Tags...) {
		if s == "" {
			continue
		}
		if re.MatchString(s) {
			return true
		}
		fields = append(fields, s)
	}
	return re.MatchString(strings.Join(fields, " "))
}

func compileGrep(flag, pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, nil
	}
	// Compiled as written first, so the message quotes the user's pattern, not ours.
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, fmt.Errorf("%s %q: %w: %s", flag, pattern, ErrBadPattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return regexp.Compile("(?i)" + pattern)
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
