// Package shardmerge owns merging the reports of one suite's shards (`run --shard i/n` on n
// machines) into one report v1, as Playwright's merge-reports does: it checks that the shards
// are of one suite (the files' hashes and the selection each report records) and make all of
// it exactly once, copies every artifact a report lists (failure evidence, step traces,
// hook and server logs, a screenshot's or download's file) into the merged run's artifact
// stores with its bytes checked against the recorded size and SHA-256, and rewrites each
// metadata entry to its copy.
//
// It reads shard directories and writes only through artifacts.Store under the root it is
// given; writing report.json, junit.xml and report.html and making the output appear whole
// is the caller's (cmd/fastbrowser merge-reports).
package shardmerge
