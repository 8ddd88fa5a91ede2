package shardmerge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

func shardOf(dir string, i, n int, edit func(*scenario.SuiteInfo)) Shard {
	files := []scenario.SuiteFile{{File: "a.json", SHA256: strings.Repeat("a", 64)}, {File: "b.json", SHA256: strings.Repeat("b", 64)}}
	su := &scenario.SuiteInfo{Files: files, SHA256: scenario.SuiteDigest(files), Shard: &scenario.ShardRef{Index: i, Total: n}}
	if edit != nil {
		edit(su)
	}
	return Shard{Dir: dir, Report: &scenario.Report{Version: 1, RunID: dir, Status: "passed", Suite: su}}
}

// TestCheckRefusals: the refusals the CLI test does not reach, each a *Refusal naming the
// directory: another split, another selection, a suite field edited after the run, a
// merged report, and a shard index no run writes. Shards in any order come back in order.
func TestCheckRefusals(t *testing.T) {
	got, err := Check([]Shard{shardOf("two", 2, 2, nil), shardOf("one", 1, 2, nil)})
	if err != nil || got[0].Dir != "one" || got[1].Dir != "two" {
		t.Fatalf("Check: %v %v", got, err)
	}
	for _, tc := range []struct {
		name   string
		shards []Shard
		want   string
	}{
		{"split", []Shard{shardOf("one", 1, 2, nil), shardOf("three", 2, 3, nil)}, "three (shard 2/3) are not shards of one suite: one is split in 2, the other in 3"},
		{"grep", []Shard{shardOf("one", 1, 2, nil), shardOf("g", 2, 2, func(s *scenario.SuiteInfo) { s.Grep = "login" })}, `--grep "" and --grep "login"`},
		{"projects", []Shard{shardOf("one", 1, 2, nil), shardOf("p", 2, 2, func(s *scenario.SuiteInfo) { s.Projects = []string{"v2"} })}, "--project  and --project v2"},
		{"edited", []Shard{shardOf("one", 1, 2, nil), shardOf("e", 2, 2, func(s *scenario.SuiteInfo) { s.Files[1].SHA256 = strings.Repeat("c", 64) })}, "e: report.json's suite sha256 is not that of the files it lists"},
		{"merged", []Shard{shardOf("m", 1, 2, func(s *scenario.SuiteInfo) { s.Shard = nil })}, "m: report.json is already a merged report"},
		{"index", []Shard{shardOf("x", 3, 2, nil)}, "x: report.json records shard 3/2, which no run writes"},
	} {
		_, err := Check(tc.shards)
		var r *Refusal
		if !errors.As(err, &r) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a refusal with %q", tc.name, err, tc.want)
		}
	}
}

// TestResultArtifactRewritten: a screenshot's or download's result carries its artifact's
// metadata, which the merge rewrites to the copy like any evidence; other results stay as
// they are, byte for byte.
func TestResultArtifactRewritten(t *testing.T) {
	raw := json.RawMessage(`{"artifact":{"id":"a1","owner":"s","kind":"download","path":"s/r/a1.bin","bytes":3,"contentType":"application/octet-stream","sha256":"x","localOnly":true,"modelForwarded":false},"fileName":"f.txt"}`)
	got, err := resultArtifact(raw, func(m *artifacts.Meta) error { m.ID, m.Path = "b2", "s/r/b2.bin"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Artifact artifacts.Meta `json:"artifact"`
		FileName string         `json:"fileName"`
	}
	if err := json.Unmarshal(got, &r); err != nil || r.Artifact.Path != "s/r/b2.bin" || r.Artifact.ID != "b2" || r.Artifact.SHA256 != "x" || r.FileName != "f.txt" {
		t.Fatalf("rewritten result %s: %v", got, err)
	}
	plain := json.RawMessage(`{"url":"http://127.0.0.1/","title":"T"}`)
	if got, _ := resultArtifact(plain, func(*artifacts.Meta) error { t.Fatal("visited a result without an artifact"); return nil }); string(got) != string(plain) {
		t.Fatalf("plain result changed: %s", got)
	}
}
