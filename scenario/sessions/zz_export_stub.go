package sessions

// TEMPORARY until i12-export's export.go lands.

import "encoding/json"

type ExportOptions struct {
	ID   string
	Skip []int
}
type Exported struct {
	File       []byte
	Operations int
	Warnings   []string
}

func Export(rec Record, entries []Entry, opts ExportOptions) (*Exported, error) {
	ops := []json.RawMessage{}
	if rec.Options.URL != "" {
		b, _ := json.Marshal(map[string]any{"op": "navigate", "request": map[string]string{"url": rec.Options.URL}})
		ops = append(ops, b)
	}
	for _, e := range entries {
		if e.Status != StatusFailed {
			ops = append(ops, e.Export)
		}
	}
	id := opts.ID
	if id == "" {
		id = "session-" + rec.ID
	}
	b, _ := json.MarshalIndent(map[string]any{"version": 1, "id": id, "allowedOrigins": rec.Options.AllowedOrigins, "operations": ops}, "", "  ")
	return &Exported{File: append(b, '\n'), Operations: len(ops)}, nil
}
