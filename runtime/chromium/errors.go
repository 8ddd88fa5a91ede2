package chromium

// LaunchError says why Chromium could not be launched. Reason is written to be shown to
// users as is; it never carries Chromium's stderr, which may be long and may hold paths
// or page data (it goes to Options.Log instead).
type LaunchError struct {
	Reason string
	Err    error // the underlying cause, for errors.Is/As; may be nil
}

func (e *LaunchError) Error() string { return "launch chromium: " + e.Reason }

func (e *LaunchError) Unwrap() error { return e.Err }
