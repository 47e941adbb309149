package gate

import "github.com/agentgate/agentgate/internal/shparse"

// MaxBraceFields bounds the words one brace expansion may make before the
// gate expands it (see [shparse.MaxBraceFields]). Past it: ask.
const MaxBraceFields = shparse.MaxBraceFields

// BudgetError says an expansion was not done because it would pass its
// budget; the command asks.
type BudgetError = shparse.BudgetError
