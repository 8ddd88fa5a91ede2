package shardmerge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// Shard is one shard's results directory and the report read from it.
type Shard struct {
	Dir    string // as given
	Report *scenario.Report
}

func (s Shard) shard() scenario.ShardRef { return *s.Report.Suite.Shard }

// Refusal is why the shards given cannot be merged (not of one suite, one missing or given
// twice, evidence that is not what a report records): the CLI's exit 2. Its message names
// the directory and the shard.
type Refusal struct{ msg string }

func (r *Refusal) Error() string { return r.msg }

func refuse(format string, args ...any) error { return &Refusal{msg: fmt.Sprintf(format, args...)} }

// Check returns the shards in shard order when they are every shard of one suite, once;
// otherwise a *Refusal naming the directory and shard at fault.
func Check(shards []Shard) ([]Shard, error) {
	if len(shards) == 0 {
		return nil, refuse("no shard directories given")
	}
	for _, s := range shards {
		switch su := s.Report.Suite; {
		case su == nil:
			return nil, refuse("%s: report.json does not say which suite and shard it ran (a replay's report, or one a fastbrowser before merge-reports wrote): not a shard of a run", s.Dir)
		case su.Shard == nil:
			return nil, refuse("%s: report.json is already a merged report; give the shards' own directories", s.Dir)
		case su.Shard.Index < 1 || su.Shard.Index > su.Shard.Total:
			return nil, refuse("%s: report.json records shard %s, which no run writes", s.Dir, su.Shard)
		case scenario.SuiteDigest(su.Files) != su.SHA256:
			return nil, refuse("%s: report.json's suite sha256 is not that of the files it lists: edited after the run", s.Dir)
		}
	}
	ref := shards[0]
	for _, s := range shards[1:] {
		if err := sameSuite(ref, s); err != nil {
			return nil, err
		}
	}
	sorted := slices.Clone(shards)
	slices.SortStableFunc(sorted, func(a, b Shard) int { return a.shard().Index - b.shard().Index })
	for i := 1; i < len(sorted); i++ {
		if a, b := sorted[i-1], sorted[i]; a.shard().Index == b.shard().Index {
			return nil, refuse("shard %s is given twice: %s and %s", a.shard(), a.Dir, b.Dir)
		}
	}
	total := ref.shard().Total
	var missing []string
	for i, next := 1, 0; i <= total; i++ {
		if next < len(sorted) && sorted[next].shard().Index == i {
			next++
			continue
		}
		missing = append(missing, scenario.ShardRef{Index: i, Total: total}.String())
	}
	if len(missing) > 0 {
		var given []string
		for _, s := range sorted {
			given = append(given, s.shard().String()+" "+s.Dir)
		}
		return nil, refuse("shard %s of the suite is missing (given: %s)", strings.Join(missing, ", "), strings.Join(given, ", "))
	}
	return sorted, nil
}

// sameSuite refuses s when it is not a shard of ref's suite, split the same way, with the
// same selection, naming the first difference.
func sameSuite(ref, s Shard) error {
	a, b := ref.Report.Suite, s.Report.Suite
	head := fmt.Sprintf("%s (shard %s) and %s (shard %s) are not shards of one suite: ", ref.Dir, ref.shard(), s.Dir, s.shard())
	if a.Shard.Total != b.Shard.Total {
		return refuse("%sone is split in %d, the other in %d", head, a.Shard.Total, b.Shard.Total)
	}
	if a.SHA256 != b.SHA256 || len(a.Files) != len(b.Files) {
		return refuse("%s%s", head, fileDifference(a.Files, b.Files))
	}
	switch {
	case a.Grep != b.Grep:
		return refuse("%s--grep %q and --grep %q", head, a.Grep, b.Grep)
	case a.GrepInvert != b.GrepInvert:
		return refuse("%s--grep-invert %q and --grep-invert %q", head, a.GrepInvert, b.GrepInvert)
	case !slices.Equal(a.Projects, b.Projects):
		return refuse("%s--project %s and --project %s", head, strings.Join(a.Projects, ","), strings.Join(b.Projects, ","))
	}
	return nil
}

// fileDifference says how two suites' file lists differ: the first file whose bytes
// differ, or their lengths.
func fileDifference(a, b []scenario.SuiteFile) string {
	for i := range min(len(a), len(b)) {
		if a[i].SHA256 != b[i].SHA256 {
			return fmt.Sprintf("file %d differs (%s sha256 %.12s…, %s sha256 %.12s…)", i+1, a[i].File, a[i].SHA256, b[i].File, b[i].SHA256)
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("one suite has %d files, the other %d", len(a), len(b))
	}
	return "the suites' digests differ"
}
