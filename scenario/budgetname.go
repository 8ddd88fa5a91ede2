package scenario

import (
	"context"
	"strconv"
	"time"
)

// scenarioBudgetKey carries the scenario budget's name for the messages of its end.
type scenarioBudgetKey struct{}

// withScenarioBudget notes on ctx how the scenario budget reads in a message: "scenario
// budget (timeoutMs 5000)" when the file set it, else "scenario budget (default 1m0s)".
func withScenarioBudget(ctx context.Context, budget time.Duration, fileMs int64) context.Context {
	name := "scenario budget (default " + budget.String() + ")"
	if fileMs > 0 {
		name = "scenario budget (timeoutMs " + strconv.FormatInt(fileMs, 10) + ")"
	}
	return context.WithValue(ctx, scenarioBudgetKey{}, name)
}

// scenarioBudgetOf is the budget's name noted on ctx ("scenario budget" when none was).
func scenarioBudgetOf(ctx context.Context) string {
	if name, ok := ctx.Value(scenarioBudgetKey{}).(string); ok {
		return name
	}
	return "scenario budget"
}
