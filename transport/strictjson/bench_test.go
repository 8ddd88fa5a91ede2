package strictjson

import (
	"encoding/json"
	"strings"
	"testing"
)

type benchFrame struct {
	V         int               `json:"v" required:"true"`
	ID        string            `json:"id" required:"true"`
	Session   string            `json:"session"`
	Operation string            `json:"operation" required:"true"`
	Request   benchRequest      `json:"request" required:"true"`
	Budget    *benchBudget      `json:"budget"`
	Labels    map[string]string `json:"labels"`
}

type benchRequest struct {
	Tab     string            `json:"tab,omitempty"`
	URL     string            `json:"url" required:"true"`
	Wait    string            `json:"wait"`
	Headers map[string]string `json:"headers"`
	Steps   []benchStep       `json:"steps"`
	Extra   json.RawMessage   `json:"extra"`
}

type benchStep struct {
	Kind     string   `json:"kind" required:"true"`
	Selector string   `json:"selector"`
	Text     string   `json:"text"`
	Timeout  int      `json:"timeoutMs"`
	Optional bool     `json:"optional"`
	Args     []string `json:"args"`
}

type benchBudget struct {
	TimeMs int     `json:"timeMs"`
	Bytes  int64   `json:"bytes"`
	Ratio  float64 `json:"ratio"`
}

func benchInput() []byte {
	var steps []string
	for i := 0; i < 9; i++ {
		steps = append(steps, `{"kind":"click","selector":"#main > div.content ul li:nth-child(3) a[href]","text":"Continue to the next page \u2192","timeoutMs":5000,"optional":false,"args":["--fast","--quiet"]}`)
	}
	return []byte(`{"v":1,"id":"req-000123","session":"s-9f86d081884c7d65","operation":"navigate",` +
		`"request":{"tab":"tab-1","url":"https://example.test/search?q=strict+json&page=2","wait":"load",` +
		`"headers":{"Accept":"text/html","Accept-Language":"en-GB,en;q=0.9","User-Agent":"fastbrowser/1"},` +
		`"steps":[` + strings.Join(steps, ",") + `],"extra":{"trace":true,"tags":["a","b"]}},` +
		`"budget":{"timeMs":30000,"bytes":1048576,"ratio":0.75},"labels":{"suite":"smoke","case":"search"}}`)
}

func BenchmarkDecodeFrame(b *testing.B) {
	data := benchInput()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var f benchFrame
		if err := Decode(data, &f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSON is the yardstick for BenchmarkDecodeFrame.
func BenchmarkEncodingJSON(b *testing.B) {
	data := benchInput()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var f benchFrame
		if err := json.Unmarshal(data, &f); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchInput(t *testing.T) {
	data := benchInput()
	if n := len(data); n < 1800 || n > 2400 {
		t.Fatalf("benchmark frame is %d bytes, want about 2 KB", n)
	}
	sameAsEncodingJSON(t, string(data), func() any { return new(benchFrame) })
}
