package main

import (
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/urfave/cli/v2"
)

// modelFlags configure the model of the commands that may run task, extract or an act in
// words (docs/models.md). Without --model there is none, and those are refused
// model_required.
func modelFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "model", Usage: "the model task, extract and an act in words use: PROVIDER:MODEL (openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, openai:llama3.1:8b); none by default"},
		&cli.StringFlag{Name: "model-base-url", Usage: "the model API's base URL (openai default https://api.openai.com/v1, e.g. http://127.0.0.1:11434/v1 for Ollama; anthropic default https://api.anthropic.com)"},
		&cli.StringFlag{Name: "model-api-key-env", Usage: "the environment variable that holds the model API key, read on each call (none: no key is sent)"},
	}
}

// modelFromFlags is the model the flags name, nil without --model; a malformed one is a
// usage error (exit 2). --model-base-url and --model-api-key-env need --model.
func modelFromFlags(c *cli.Context) (*model.Config, error) {
	if c.String("model") == "" {
		for _, f := range []string{"model-base-url", "model-api-key-env"} {
			if c.IsSet(f) {
				return nil, usageError("--%s needs --model PROVIDER:MODEL", f)
			}
		}
		return nil, nil
	}
	cfg, err := model.ParseFlag(c.String("model"), c.String("model-base-url"), c.String("model-api-key-env"))
	if err != nil {
		flag := map[string]string{"provider": "model", "model": "model", "baseUrl": "model-base-url", "apiKeyEnv": "model-api-key-env"}[err.(*model.ConfigError).Field]
		return nil, usageError("--%s: %s", flag, err.(*model.ConfigError).Expected)
	}
	return &cfg, nil
}
