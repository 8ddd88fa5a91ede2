package scenario

import (
	"errors"

	"github.com/fastbrowser/fastbrowser/runtime/model"
)

// ModelInfo is which model a scenario's session had: provider and model name only, never
// its endpoint or key variable.
type ModelInfo struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// modelInfo is what a report says of m (nil: no model).
func modelInfo(m *model.Config) *ModelInfo {
	if m == nil {
		return nil
	}
	return &ModelInfo{Provider: m.Provider, Model: m.Model}
}

// checkModel refuses a scenario's or run config's "model" that could not work, with the
// field's path (model.provider, model.baseUrl, …).
func checkModel(m *model.Config) error {
	if m == nil {
		return nil
	}
	err := m.Check()
	var ce *model.ConfigError
	if errors.As(err, &ce) {
		return fail("model."+ce.Field, ce.Expected)
	}
	return err
}
