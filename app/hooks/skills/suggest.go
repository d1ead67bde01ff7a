package skills

import (
	"fmt"
	"strings"
)

// quoted lists values as "a", "b", "c".
func quoted[T ~string](vs []T) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(parts, ", ")
}
