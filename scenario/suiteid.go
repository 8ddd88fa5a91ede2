package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// SuiteInfo is a report's "suite": which suite a run ran and which share of it, so
// `merge-reports` can tell the shards of one suite from those of another and see that they
// make the whole suite once. A run records every file of the suite (all shards' files, not
// only its own), so each shard's report names the same list.
type SuiteInfo struct {
	// SHA256 identifies the suite: the SHA-256 of the files' sha256 values in order, one a
	// line. It depends on what the files hold and their order (which decides the shards),
	// not on where the checkout is, so the jobs of a CI matrix agree wherever they ran.
	SHA256 string `json:"sha256"`
	// Files are every scenario file of the suite, in run order, as given (as the scenarios'
	// "file"), each with the SHA-256 of its bytes (fragments not included).
	Files []SuiteFile `json:"files"`
	// Grep, GrepInvert and Projects are the run's selection (--grep, --grep-invert,
	// --project as given), which every shard of one suite must share.
	Grep       string   `json:"grep,omitempty"`
	GrepInvert string   `json:"grepInvert,omitempty"`
	Projects   []string `json:"projects,omitempty"`
	// Shard is the share this run ran (`--shard i/n`; 1/1 without it). Absent on a merged
	// report, which lists its shards in MergedFrom instead.
	Shard *ShardRef `json:"shard,omitempty"`
	// MergedFrom lists the shards `merge-reports` combined, by index.
	MergedFrom []MergedShard `json:"mergedFrom,omitempty"`
}

// SuiteFile is one file of a suite.
type SuiteFile struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// ShardRef is a run's --shard i/n as a report records it.
type ShardRef struct {
	Index int `json:"index"`
	Total int `json:"total"`
}

func (s ShardRef) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Total) }

// MergedShard is one shard of a merged report: its share, its run id and its status.
type MergedShard struct {
	Shard  ShardRef `json:"shard"`
	RunID  string   `json:"runId"`
	Status string   `json:"status"`
}

// Selection is what picks a suite's scenarios besides its files and the shard.
type Selection struct {
	Grep, GrepInvert string
	Projects         []string
}

// DescribeSuite reads every file of the suite (files: all of them, before sharding) to
// record its identity for shard sh. A file is hashed, never parsed, so a file of another
// shard is still not validated here; one that cannot be read is an error naming it.
func DescribeSuite(files []string, sh Shard, sel Selection) (*SuiteInfo, error) {
	info := &SuiteInfo{Files: make([]SuiteFile, 0, len(files)), Grep: sel.Grep, GrepInvert: sel.GrepInvert,
		Projects: slices.Clone(sel.Projects), Shard: &ShardRef{Index: sh.Index, Total: sh.Total}}
	for _, f := range files {
		sum, err := fileSHA256(f)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read the scenario file to identify the suite", f)
		}
		info.Files = append(info.Files, SuiteFile{File: f, SHA256: sum})
	}
	info.SHA256 = SuiteDigest(info.Files)
	return info, nil
}

// SuiteDigest is SuiteInfo.SHA256 of files.
func SuiteDigest(files []SuiteFile) string {
	h := sha256.New()
	for _, f := range files {
		io.WriteString(h, f.SHA256+"\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fileSHA256 hashes a regular file as it streams (Stat first: opening a FIFO would wait
// for a writer).
func fileSHA256(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
