package shardmerge

import (
	"bytes"
	"encoding/json"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// eachMeta calls f on every artifact metadata entry a scenario's report holds, in place:
// its operations' evidence and result artifacts, its diagnostics, its step trace, and the
// same of each attempt. An entry listed twice (a trace step whose parts are its failure
// evidence, the last attempt's failed operation) is visited each time.
func eachMeta(sr *scenario.ScenarioReport, f func(*artifacts.Meta) error) error {
	for i := range sr.Operations {
		if err := opMetas(&sr.Operations[i], f); err != nil {
			return err
		}
	}
	if err := metaList(sr.Diagnostics, f); err != nil {
		return err
	}
	if err := traceMetas(sr.Trace, f); err != nil {
		return err
	}
	for i := range sr.Attempts {
		a := &sr.Attempts[i]
		if a.Operation != nil {
			if err := opMetas(a.Operation, f); err != nil {
				return err
			}
		}
		if err := metaList(a.Diagnostics, f); err != nil {
			return err
		}
		if err := traceMetas(a.Trace, f); err != nil {
			return err
		}
	}
	return nil
}

func opMetas(op *scenario.OperationReport, f func(*artifacts.Meta) error) error {
	if err := metaList(op.Evidence, f); err != nil {
		return err
	}
	res, err := resultArtifact(op.Result, f)
	op.Result = res
	return err
}

func metaList(ms []artifacts.Meta, f func(*artifacts.Meta) error) error {
	for i := range ms {
		if err := f(&ms[i]); err != nil {
			return err
		}
	}
	return nil
}

func traceMetas(steps []scenario.TraceStep, f func(*artifacts.Meta) error) error {
	for i := range steps {
		st := &steps[i]
		for _, m := range []*artifacts.Meta{st.Screenshot, st.Outline, st.Console, st.Network} {
			if m != nil {
				if err := f(m); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// resultArtifact visits the "artifact" a screenshot's or download's result carries
// (transport.Committed), and returns the result with it rewritten; any other result is
// returned as it is.
func resultArtifact(raw json.RawMessage, f func(*artifacts.Meta) error) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(`"artifact"`)) {
		return raw, nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return raw, nil
	}
	a, ok := fields["artifact"]
	if !ok || string(a) == "null" {
		return raw, nil
	}
	var m artifacts.Meta
	if err := json.Unmarshal(a, &m); err != nil {
		return raw, refuse("an operation's result artifact is not artifact metadata: %v", err)
	}
	if err := f(&m); err != nil {
		return raw, err
	}
	var err error
	if fields["artifact"], err = json.Marshal(m); err != nil {
		return raw, err
	}
	return json.Marshal(fields)
}
