package hookrun

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WriteJSONL writes lines as JSON Lines to file (its folder made), where
// an agent points a hook's transcript_path.
func WriteJSONL(file string, lines []any) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	var buf []byte
	for _, l := range lines {
		b, err := json.Marshal(l)
		if err != nil {
			return fmt.Errorf("transcript: %w", err)
		}
		buf = append(append(buf, b...), '\n')
	}
	if err := os.WriteFile(file, buf, 0o600); err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	return nil
}
