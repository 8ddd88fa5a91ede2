package transport

// TabResult is a result a scenario tab reference can take a tab from: the result of a row
// whose TabResult column names one (selectedTab, popup, listedTab). TestTabResultColumn holds
// the column and the types that implement this to the same rows.
type TabResult interface {
	Result
	// ResultTab is the tab handle the result gives. index picks one of a listing (the others
	// ignore it); false: the listing has no tab there.
	ResultTab(index int) (string, bool)
}

// selectedTab
func (r SelectTabResult) ResultTab(int) (string, bool) { return r.SelectedTab, true }

// popup
func (r WaitPopupResult) ResultTab(int) (string, bool) { return r.Popup, true }

// listedTab
func (r ListTabsResult) ResultTab(index int) (string, bool) {
	if index >= len(r.Tabs) {
		return "", false
	}
	return r.Tabs[index].Tab, true
}
