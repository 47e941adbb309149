package cmd

import (
	"context"
	"errors"

	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/confirm"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/prompt"
)

// deniedError: a state change was not confirmed; nothing changed. Exit
// 126, like a denied command.
type deniedError struct{ msg, hint string }

func (e *deniedError) Error() string { return e.msg }

// confirm asks the person to confirm a change to agentgate's own state,
// through the one confirmation mechanism (package confirm).
func (e *Env) confirm(c prompt.Change, cfg *config.Config) error {
	err := confirm.Ask(context.Background(), c, confirm.Options{
		Getenv:    e.Getenv,
		OpenTTY:   e.OpenTTY,
		Challenge: cfg.PromptChallenge,
		Timeout:   cfg.PromptTimeout,
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, confirm.ErrNoTerminal):
		return &deniedError{"nothing changed: this needs a person to confirm at a terminal: " + err.Error(),
			"run it yourself in a terminal; an agent cannot confirm it"}
	}
	return &deniedError{"nothing changed: " + err.Error(), ""}
}

// visibleLines makes every line safe to show on a terminal.
func visibleLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = visible.String(l)
	}
	return out
}
