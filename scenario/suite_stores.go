package scenario

import (
	"sync"

	"github.com/fastbrowser/fastbrowser/artifacts"
)

// scenarioStores opens one artifact store per scenario under the run's artifacts directory
// (DIR/artifacts/<scenarioId>/<runId>/…), on first use, and closes them all at the end of
// the run: uncommitted writes are discarded, committed evidence stays.
type scenarioStores struct {
	root   string
	mode   artifacts.Mode
	mu     sync.Mutex
	stores map[string]*artifacts.Store
}

func (e *scenarioStores) forScenario(id string) (*artifacts.Store, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.stores[id]; ok {
		return s, nil
	}
	s, err := artifacts.OpenMode(e.root, id, e.mode)
	if err != nil {
		return nil, err
	}
	if e.stores == nil {
		e.stores = map[string]*artifacts.Store{}
	}
	e.stores[id] = s
	return s, nil
}

func (e *scenarioStores) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.stores {
		_ = s.Close()
	}
}
