package process

// The message kinds. To the supervisor: spawn, remove, keep. From it: ready, started,
// failed, exited.
const (
	msgSpawn   = "spawn"   // start a child: ID, Path, Args (argv), Dir, Env, Stdin; descriptors stdio+extra
	msgRemove  = "remove"  // remove directory Path if the supervisor ends without its parent's orderly stop
	msgKeep    = "keep"    // forget an earlier remove of Path
	msgReady   = "ready"   // the supervisor is up: Pid
	msgStarted = "started" // child ID exec'd as Pid
	msgFailed  = "failed"  // child ID could not be started: Error, Errno
	msgExited  = "exited"  // child ID was reaped with wait status Status
)

// wireMsg is every message on the control socket; Kind says which fields it uses.
type wireMsg struct {
	Kind   string   `json:"kind"`
	ID     uint64   `json:"id,omitempty"`
	Path   string   `json:"path,omitempty"`
	Args   []string `json:"args,omitempty"`
	Dir    string   `json:"dir,omitempty"`
	Env    []string `json:"env"`             // the whole environment: nil and empty both mean none
	Stdin  bool     `json:"stdin,omitempty"` // the first descriptor is the child's stdin (else /dev/null)
	Pid    int      `json:"pid,omitempty"`
	Error  string   `json:"error,omitempty"`
	Errno  int      `json:"errno,omitempty"` // failed: the errno of a failed fork or exec
	Status uint32   `json:"status"`          // a syscall.WaitStatus
}
