package scenario

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// readBounded reads a scenario, fragment or config file (what names it in messages),
// refusing one that is not a regular file or is over the scenario file size limit, also
// when it grew after it was looked at.
func readBounded(path, what string) ([]byte, error) {
	// Stat before opening: opening a FIFO for reading would wait for a writer.
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return nil, errors.New("cannot read the " + what)
	}
	tooLarge := fmt.Errorf("%s larger than %d bytes", what, budgets.ScenarioFileSize)
	if info.Size() > budgets.ScenarioFileSize {
		return nil, tooLarge
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errors.New("cannot read the " + what)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, budgets.ScenarioFileSize+1))
	if err != nil {
		return nil, errors.New("cannot read the " + what)
	}
	if len(data) > budgets.ScenarioFileSize {
		return nil, tooLarge
	}
	return data, nil
}
