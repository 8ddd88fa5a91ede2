package egressproxy

import "testing"

func TestExperimentNoBypass(t *testing.T) {
	t.Logf("no bypass list: %+v", loadBehindProxy(t, ""))
}
