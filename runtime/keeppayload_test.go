package runtime

import (
	"encoding/base64"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestScreenshotKeptOnlyWithProof is the runtime's own fail-closed line behind the worker's
// (fault injection: a worker that sent a screenshot's bytes anyway): without a redaction
// proof, or with one that is not proven, the bytes never reach the store; with a proven
// one they do.
func TestScreenshotKeptOnlyWithProof(t *testing.T) {
	store, err := artifacts.Open(t.TempDir(), "keep-payload-test")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	r := &Runtime{evidence: &EvidenceOptions{Store: store, RunID: "run", Owner: "test"}}
	png := []byte("\x89PNG\r\n\x1a\nnot really a picture")
	p := transport.ArtifactPayload{Kind: transport.PartScreenshot, Encoding: "base64", DataBase64: base64.StdEncoding.EncodeToString(png), ByteLength: len(png)}
	for _, proof := range []*transport.RedactionProof{nil, {Proven: false}} {
		meta, miss := r.keepPayload("run", p, proof)
		if miss == nil || miss.Code != transport.CodeRedactionNotProven || meta.Path != "" {
			t.Errorf("proof %+v: kept %+v, missing %+v; want redaction_not_proven and nothing kept", proof, meta, miss)
		}
	}
	if meta, miss := r.keepPayload("run", p, &transport.RedactionProof{Proven: true}); miss != nil || meta.Path == "" {
		t.Fatalf("a proven screenshot: kept %+v, missing %+v", meta, miss)
	}
	var files []string
	_ = filepath.WalkDir(store.Root(), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	if len(files) != 1 {
		t.Errorf("the store holds %v, want the proven screenshot alone", files)
	}
}
