package scenario

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// TestReadBoundedRefusesWhatItCannotBound: a scenario, fragment or config file that is a
// FIFO is refused without opening it (reading one waits for a writer: `run DIR` with a
// *.json FIFO in it hung in the fragment probe), and one over the size limit is never a
// fragment (so it is loaded, and refused, as a scenario).
func TestReadBoundedRefusesWhatItCannotBound(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if IsFragmentFile(fifo) {
		t.Error("a FIFO is a fragment")
	}
	_, err := Load(fifo)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Message != "cannot read the file" {
		t.Errorf("Load(FIFO) = %v", err)
	}
	if _, err := LoadConfig(fifo); !errors.As(err, &ve) || ve.Message != "cannot read the config file" {
		t.Errorf("LoadConfig(FIFO) = %v", err)
	}

	big := filepath.Join(dir, "big.json")
	frag := []byte(`{"version":1,"fragment":"big","operations":[{"op":"read"}],"description":"`)
	data := append(frag, bytes.Repeat([]byte("x"), budgets.ScenarioFileSize)...)
	if err := os.WriteFile(big, append(data, `"}`...), 0o600); err != nil {
		t.Fatal(err)
	}
	if IsFragmentFile(big) {
		t.Error("a fragment over the size limit is read as one")
	}
	if _, err := Load(big); !errors.As(err, &ve) || ve.Message != "file larger than 1048576 bytes" {
		t.Errorf("Load(big) = %v", err)
	}
}
