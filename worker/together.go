package worker

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

// together runs steps at once and waits for all of them: start-up's CDP calls that need not
// wait on each other (each answers within one round trip once the tab's renderer runs, so
// in sequence they would cost one round trip each). Each step gets ctx; the first failure
// cancels it and calls abort (which ends what is bound to a longer life than ctx, as a
// tab's event streams and interception are), so a step stuck on a call the browser will
// never answer ends too; it is the error returned.
func together(ctx context.Context, abort func(), steps ...func(context.Context) error) error {
	g, ctx := errgroup.WithContext(ctx)
	var once sync.Once
	for _, step := range steps {
		g.Go(func() error {
			err := step(ctx)
			if err != nil {
				once.Do(abort)
			}
			return err
		})
	}
	return g.Wait()
}
