// Package artifacts owns the private artifact store: it is the only writer of evidence files
// (screenshots as PNG, console/network/outline diagnostics as JSON) in fastbrowser. Nothing
// else in the program chooses an evidence path or writes evidence bytes.
//
// Layout. Every artifact lands at <root>/<sessionId>/<runId>/<artifactId>.(png|json), and
// its Meta.Path is that path relative to root. Session and run ids are validated with the
// same rule as names.ValidID (^[A-Za-z0-9._-]{1,64}$, not "." or ".."), enforced here
// too so the path rule holds whatever a caller checked. The store, never a caller, picks the
// artifact id, so no request can steer a write to a path of its choosing.
//
// Permissions. Directories are 0700 and files 0600 whatever the process umask (ModePrivate;
// OpenMode with ModeGroup makes them 0750 and 0640, for `run --artifacts-mode group`): modes
// are set explicitly on what the store creates. An existing root, session or run directory
// is never chmodded (it may be someone's shared directory): it is used only when nobody else
// may write in it and its mode lets in who the store writes for, and is refused otherwise
// (DirError, see PrepareDir); what the store writes in it has the store's modes whatever the
// directory's. Evidence may hold page content, so it must never be readable by other local
// users.
//
// Symlinks. The root and every directory under it must be a real directory owned by this
// user: each is checked with Lstat and re-opened with O_NOFOLLOW, so a planted symlink at
// the root, the session dir, the run dir or the final file name is refused, never followed.
//
// Commit. Bytes go to a temp file (.tmp-<random>, created O_EXCL|O_NOFOLLOW) that is
// fsynced, then published with link-then-unlink: link(2) fails if anything, including a
// dangling symlink, already has the final name, so a commit can never clobber an existing
// artifact or write through a planted link, which a plain rename(2) would silently replace.
// The run directory is then fsynced so the new name survives a crash. A failed write or
// commit removes the temp file and leaves committed artifacts untouched; temp files left by
// a killed process are swept the next time a store opens the session.
//
// Limits. Screenshots are capped at budgets.ScreenshotBytes, downloads at
// budgets.DownloadBytes and diagnostics at
// budgets.DiagnosticsBytes; going over is ErrTooLarge. See Store.Put for how each kind is
// treated when handed too much at once.
//
// One store per session at a time: opening a store sweeps the session's temp files, which
// would remove another live store's in-progress writes.
package artifacts
