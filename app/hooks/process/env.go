package process

import (
	"os"
	"slices"
	"strings"
)

// withheld are the variables Hook Studio never hands a hook: the model keys
// it reads (app/store/profiles). The programs' own hosts pass them on; a
// trace must never hold a key.
var withheld = []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY"}

// Inherited is the environment a hook's own host gives it — the parent's,
// whole — less Hook Studio's keys and HOOKSTUDIO_* settings, and less the
// names in drop (which the caller sets itself).
func Inherited(drop ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(withheld, k) || strings.HasPrefix(k, "HOOKSTUDIO_") || slices.Contains(drop, k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Pick is a clean environment: only the named variables of the parent's
// that are set, in the order named.
func Pick(names ...string) []string {
	var out []string
	for _, k := range names {
		if v, ok := os.LookupEnv(k); ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}
