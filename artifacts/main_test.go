package artifacts

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The tests that change process-wide state (umask, RLIMIT_FSIZE) re-execute this test binary
// as a child, selected by childEnv, so the parent and its parallel tests are never affected.
const childEnv = "ARTIFACTS_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "fsize":
		os.Exit(childFsize())
	case "umask":
		os.Exit(childUmask())
	default:
		fmt.Println("unknown child mode")
		os.Exit(2)
	}
}

// childFsize writes a 1 MiB screenshot under a 64 KiB RLIMIT_FSIZE. It prints the error the
// store returned; exit 0 means the write failed as it should, 3 means it wrongly succeeded.
func childFsize() int {
	signal.Ignore(syscall.SIGXFSZ) // else the kernel kills us instead of returning EFBIG
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 64 << 10, Max: 64 << 10}); err != nil {
		fmt.Println("SETUP", err)
		return 2
	}
	s, err := Open(os.Getenv("ARTIFACTS_TEST_ROOT"), "sess")
	if err != nil {
		fmt.Println("SETUP", err)
		return 2
	}
	// A Writer, never Discarded or Closed: the failed Write itself must remove the temp file.
	w, err := s.Open("run", "child", "screenshot")
	if err != nil {
		fmt.Println("SETUP", err)
		return 2
	}
	_, err = w.Write(make([]byte, 1<<20))
	if err == nil {
		fmt.Println("OK")
		return 3
	}
	if _, cerr := w.Commit(); cerr == nil {
		fmt.Println("COMMITTED")
		return 3
	}
	fmt.Printf("ERR efbig=%v cause=%q noroom=%v %v\n", errors.Is(err, syscall.EFBIG), Cause(err), NoRoom(err), err)
	return 0
}

// childUmask sets the umask from ARTIFACTS_TEST_UMASK (octal) and commits one screenshot
// and one diagnostics artifact into a fresh root.
func childUmask() int {
	mask, err := strconv.ParseUint(os.Getenv("ARTIFACTS_TEST_UMASK"), 8, 32)
	if err != nil {
		fmt.Println("SETUP", err)
		return 2
	}
	syscall.Umask(int(mask))
	s, err := Open(os.Getenv("ARTIFACTS_TEST_ROOT"), "sess")
	if err != nil {
		fmt.Println("OPEN", err)
		return 2
	}
	var paths []string
	for _, kind := range []string{"screenshot", "console"} {
		m, err := s.Put("run", "child", kind, []byte("x"), false)
		if err != nil {
			fmt.Println("PUT", err)
			return 2
		}
		paths = append(paths, m.Path)
	}
	fmt.Println(strings.Join(paths, " "))
	return 0
}

// runChild runs this test binary in a child mode with extra env and returns its stdout.
func runChild(t *testing.T, mode string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+mode), env...)
	out, err := cmd.Output()
	return string(out), err
}
