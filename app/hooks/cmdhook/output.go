package cmdhook

// Output caps: what is kept of a hook's stdout and stderr. The rest is read
// and dropped (so the hook never blocks on a full pipe) and the invocation
// is marked truncated.
const (
	MaxStdout = 1 << 20
	MaxStderr = 64 << 10
)
