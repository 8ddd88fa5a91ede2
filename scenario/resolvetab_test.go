package scenario

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestResolveTab: a tab reference takes its handle from the result of the operation it names,
// by the table's TabResult (selectedTab, popup, listedTab at an index); a listing without a
// tab at the index, or an operation that left no result (skipped by its when), is
// tab_not_found at request.tab.
func TestResolveTab(t *testing.T) {
	one, two := 1, 2
	ops := []Operation{{ID: "sel", Op: transport.OpSelectTab}, {ID: "pop", Op: transport.OpWaitPopup}, {ID: "tabs", Op: transport.OpListTabs}, {ID: "skipped", Op: transport.OpSelectTab}}
	results := []transport.Result{
		&transport.SelectTabResult{SelectedTab: "t2"},
		&transport.WaitPopupResult{Popup: "t3", Opener: "t1"},
		&transport.ListTabsResult{Tabs: []transport.TabInfo{{Tab: "t1"}, {Tab: "t4"}}, Selected: "t1"},
		nil,
	}
	ref := func(id, result string, index *int) *TabRef {
		return &TabRef{Source: "operation", Operation: &OpRef{ID: id}, Result: result, Index: index}
	}
	for _, c := range []struct {
		ref  *TabRef
		want string
	}{
		{nil, ""},
		{&TabRef{Source: "initial", Target: "selected"}, "t9"},
		{ref("sel", "selectedTab", nil), "t2"},
		{ref("pop", "popup", nil), "t3"},
		{ref("tabs", "listedTab", nil), "t1"},
		{ref("tabs", "listedTab", &one), "t4"},
	} {
		if got, err := resolveTab(c.ref, ops, results, "t9"); got != c.want || err != nil {
			t.Errorf("%+v: %q, %v; want %q", c.ref, got, err, c.want)
		}
	}
	for _, c := range []struct {
		ref *TabRef
		msg string
	}{
		{ref("tabs", "listedTab", &two), "the referenced listTabs result has no tab at that index"},
		{ref("skipped", "selectedTab", nil), "the referenced operation produced no tab"},
	} {
		_, err := resolveTab(c.ref, ops, results, "t9")
		oe := transport.AsOperationError("", err)
		if err == nil || oe.Code != transport.CodeTabNotFound || oe.Path != "request.tab" || oe.Message != c.msg {
			t.Errorf("%+v: %v; want tab_not_found at request.tab: %s", c.ref, err, c.msg)
		}
	}
}
