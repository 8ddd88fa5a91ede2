package shardmerge

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// Merge combines shards (as Check returned them: every shard of one suite, in order) into one
// report whose artifacts are copies committed under root (the merged run's DIR/artifacts,
// which must exist) in mode. The scenarios come in the suite's order (project by project,
// file by file), each once; the run's status and counts are recomputed from them. A scenario
// listed twice, one whose file is not in the suite, or an artifact whose file is missing or
// not the bytes its report records is a *Refusal naming the shard and the file; a write
// that fails is an ordinary error. What was copied before a failure stays under root: the
// caller discards the whole output.
func Merge(ctx context.Context, shards []Shard, root string, mode artifacts.Mode) (*scenario.Report, error) {
	mg := &merger{ctx: ctx, root: root, mode: mode, stores: map[string]*artifacts.Store{}, copied: map[copyKey]copied{}}
	defer mg.close()
	suite := shards[0].Report.Suite
	fileAt := make(map[string]int, len(suite.Files))
	for i, f := range suite.Files {
		if _, dup := fileAt[f.File]; !dup {
			fileAt[f.File] = i
		}
	}
	var placed []placedScenario
	projectAt := map[string]int{}
	seen := map[string]string{} // project, file and id → the directory that listed it
	for _, sh := range shards {
		for _, sr := range sh.Report.Scenarios {
			fi, ok := fileAt[sr.File]
			if !ok {
				return nil, refuse("%s (shard %s): scenario %s's file %s is not one of the suite's files: not a report of this suite", sh.Dir, sh.shard(), sr.Title(), sr.File)
			}
			key := sr.Project + "\x00" + sr.File + "\x00" + sr.ID
			if dir, dup := seen[key]; dup {
				return nil, refuse("scenario %s (%s) is in two shards: %s and %s", sr.Title(), sr.File, dir, sh.Dir)
			}
			seen[key] = sh.Dir
			if _, ok := projectAt[sr.Project]; !ok {
				projectAt[sr.Project] = len(projectAt)
			}
			if err := eachMeta(&sr, mg.copier(sh)); err != nil {
				return nil, err
			}
			placed = append(placed, placedScenario{project: projectAt[sr.Project], file: fi, report: sr})
		}
	}
	// Stable: a file's scenarios keep their order within their shard.
	slices.SortStableFunc(placed, func(a, b placedScenario) int {
		if a.project != b.project {
			return a.project - b.project
		}
		return a.file - b.file
	})
	rep := mergedHeader(shards)
	rep.Scenarios = make([]scenario.ScenarioReport, 0, len(placed))
	for _, p := range placed {
		rep.Scenarios = append(rep.Scenarios, p.report)
	}
	rep.Summarise()
	for _, sh := range shards {
		if sh.Report.Status == scenario.StatusInterrupted {
			rep.Status = scenario.StatusInterrupted // as that run said, though its scenarios may not
		}
	}
	return rep, nil
}

type placedScenario struct {
	project, file int
	report        scenario.ScenarioReport
}

// mergedHeader is the merged report without its scenarios: a fresh run id, from the first
// shard's start to the last one's end, the browsers the shards ran, the working directory
// when every shard had the same, and the suite with the shards it was merged from.
func mergedHeader(shards []Shard) *scenario.Report {
	first := shards[0].Report
	start, end := first.StartedAt, first.StartedAt
	var versions []string
	attached := true
	cwd := first.Cwd
	suite := *first.Suite
	suite.Shard, suite.MergedFrom = nil, nil
	for _, sh := range shards {
		r := sh.Report
		if r.StartedAt.Before(start) {
			start = r.StartedAt
		}
		if e := r.StartedAt.Add(time.Duration(r.DurationMs) * time.Millisecond); e.After(end) {
			end = e
		}
		if v := r.Browser.Version; v != "" && !slices.Contains(versions, v) {
			versions = append(versions, v)
		}
		attached = attached && r.Browser.Attached
		if r.Cwd != cwd {
			cwd = "" // relative files then resolve against where replay runs
		}
		suite.MergedFrom = append(suite.MergedFrom, scenario.MergedShard{Shard: sh.shard(), RunID: r.RunID, Status: r.Status})
	}
	return &scenario.Report{Version: scenario.ReportVersion, RunID: scenario.NewRunID(time.Now()), StartedAt: start.UTC(),
		DurationMs: end.Sub(start).Milliseconds(), Browser: scenario.BrowserInfo{Version: strings.Join(versions, ", "), Attached: attached},
		Cwd: cwd, Suite: &suite}
}

// merger copies artifacts: one store per session directory (a scenario's) under root, and
// each shard's file copied once however many entries list it.
type merger struct {
	ctx    context.Context
	root   string
	mode   artifacts.Mode
	stores map[string]*artifacts.Store
	copied map[copyKey]copied
}

type copyKey struct {
	shard int
	path  string
}

type copied struct {
	src artifacts.Meta // as the shard's report listed it
	dst artifacts.Meta // the copy
}

// copier rewrites one of shard sh's metadata entries to its copy under the merged root,
// copying the file the first time (its bytes checked against the entry first).
func (mg *merger) copier(sh Shard) func(*artifacts.Meta) error {
	src := filepath.Join(sh.Dir, "artifacts")
	return func(m *artifacts.Meta) error {
		k := copyKey{sh.shard().Index, m.Path}
		c, ok := mg.copied[k]
		if !ok {
			var err error
			if c, err = mg.copy(src, sh, *m); err != nil {
				return err
			}
			mg.copied[k] = c
		} else if c.src.SHA256 != m.SHA256 || c.src.Bytes != m.Bytes {
			return refuse("%s (shard %s): %s is listed twice with different sha256 or size", sh.Dir, sh.shard(), filepath.Join(src, m.Path))
		}
		m.ID, m.Path = c.dst.ID, c.dst.Path
		return nil
	}
}

func (mg *merger) copy(src string, sh Shard, m artifacts.Meta) (copied, error) {
	if err := mg.ctx.Err(); err != nil {
		return copied{}, err
	}
	data, err := artifacts.ReadCommitted(src, m)
	if err != nil {
		return copied{}, refuse("%s (shard %s): evidence file %s: %s", sh.Dir, sh.shard(), filepath.Join(src, m.Path), artifacts.Cause(err))
	}
	session, rest, _ := strings.Cut(m.Path, "/") // ReadCommitted checked session/run/file
	run, _, _ := strings.Cut(rest, "/")
	st, err := mg.store(session)
	if err != nil {
		return copied{}, err
	}
	dst, err := st.Put(run, m.Owner, m.Kind, data, m.Truncated)
	if err != nil {
		return copied{}, fmt.Errorf("cannot copy %s: %s", filepath.Join(src, m.Path), artifacts.Cause(err))
	}
	if dst.SHA256 != m.SHA256 || dst.Bytes != m.Bytes {
		return copied{}, fmt.Errorf("the copy of %s does not match it", filepath.Join(src, m.Path))
	}
	return copied{src: m, dst: dst}, nil
}

func (mg *merger) store(session string) (*artifacts.Store, error) {
	if st, ok := mg.stores[session]; ok {
		return st, nil
	}
	st, err := artifacts.OpenMode(mg.root, session, mg.mode)
	if err != nil {
		return nil, fmt.Errorf("cannot open the artifact store %s: %s", filepath.Join(mg.root, session), artifacts.Cause(err))
	}
	mg.stores[session] = st
	return st, nil
}

func (mg *merger) close() {
	for _, st := range mg.stores {
		_ = st.Close()
	}
}
