package budgets

import (
	"errors"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	cases := []struct {
		name    string
		b       Budget
		want    time.Duration
		got     time.Duration
		refused bool
	}{
		{"default", Request(), 0, 10 * time.Second, false},
		{"within", Request(), 30 * time.Second, 30 * time.Second, false},
		{"at ceiling", Request(), 120 * time.Second, 120 * time.Second, false},
		{"over ceiling refused", Request(), 121 * time.Second, 0, true},
		{"negative refused", Request(), -time.Second, 0, true},
		{"floor raises", Screenshot(), 100 * time.Millisecond, 2 * time.Second, false},
		{"scenario over ceiling", ScenarioRun(), 120001 * time.Millisecond, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.b.Resolve(c.want)
			var ex *ExceededError
			if c.refused != errors.As(err, &ex) {
				t.Fatalf("Resolve(%v) err=%v, refused want %v", c.want, err, c.refused)
			}
			if got != c.got {
				t.Fatalf("Resolve(%v)=%v want %v", c.want, got, c.got)
			}
		})
	}
}

func TestEveryBudgetIsBounded(t *testing.T) {
	for _, b := range All() {
		if b.Ceiling <= 0 || b.Default <= 0 || b.Default > b.Ceiling || b.Floor > b.Default {
			t.Errorf("%s: default %v floor %v ceiling %v is not a bounded budget", b.Name, b.Default, b.Floor, b.Ceiling)
		}
	}
}
