package main

import (
	"slices"
	"strings"
	"testing"
)

// Issue 25: every command's --help and -h (and `hookctl help COMMAND`)
// print its usage with every flag on one line, and exit 0.
func TestCommandHelp(t *testing.T) {
	cases := []struct {
		cmd   []string
		flags []string // flags the usage must list
	}{
		{[]string{"validate"}, []string{"--json", "--claude-user-settings"}},
		{[]string{"simulate"}, []string{"--skills", "--json", "--full", "--color", "--db", "--no-history", "--trust", "--user-hooks",
			"--claude-user-settings", "--host-behaviour", "--otlp", "--provider", "--profiles", "--events", "--control", "--agent"}},
		{[]string{"test"}, []string{"--json", "--junit", "--update", "--trust", "--user-hooks", "--claude-user-settings", "--host-behaviour", "--color", "--agent"}},
		{[]string{"history"}, nil},
		{[]string{"history", "list"}, []string{"--db", "--json", "--scenario", "--skill", "--source", "--since", "--until", "--limit"}},
		{[]string{"history", "show"}, []string{"--db", "--json", "--trace"}},
		{[]string{"history", "diff"}, []string{"--db", "--json"}},
		{[]string{"history", "events"}, []string{"--db"}},
		{[]string{"export"}, []string{"-o", "--scenarios"}},
		{[]string{"import"}, []string{"--skills", "--overwrite"}},
		{[]string{"capture"}, []string{"--port", "--listen", "--token", "--answers", "--profile", "--profiles", "--max-requests", "--json",
			"--no-history", "--save-scenario", "--db", "--recipe"}},
		{[]string{"recipe"}, []string{"--url", "--prompt", "--json"}},
		{[]string{"calibrate"}, []string{"--cli", "--json"}},
	}
	for _, c := range cases {
		name := strings.Join(c.cmd, " ")
		var outs []string
		for _, args := range [][]string{append(slices.Clone(c.cmd), "--help"), append(slices.Clone(c.cmd), "-h"), append([]string{"help"}, c.cmd...)} {
			stdout, stderr, code := runCLI(t, args...)
			if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: hookctl "+name) {
				t.Errorf("%s: exit %d, stderr %q, stdout:\n%s", strings.Join(args, " "), code, stderr, stdout)
				continue
			}
			outs = append(outs, stdout)
		}
		if len(outs) == 0 {
			continue
		}
		if len(slices.Compact(slices.Clone(outs))) != 1 {
			t.Errorf("%s: --help, -h and help %s print different usages", name, name)
		}
		// Each flag on a line of its own, with what it does.
		listed := map[string]bool{}
		_, flagsPart, _ := strings.Cut(outs[0], "\nFlags:\n")
		for _, line := range strings.Split(strings.TrimRight(flagsPart, "\n"), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || !strings.HasPrefix(f[0], "-") {
				if flagsPart != "" {
					t.Errorf("%s: flag line %q", name, line)
				}
				continue
			}
			listed[f[0]] = true
		}
		for _, f := range c.flags {
			if !listed[f] {
				t.Errorf("%s --help does not list %s:\n%s", name, f, outs[0])
			}
		}
	}
}

// Issue 25: simulate and test on a folder whose executable hooks were not
// trusted run nothing and exit with their own status (not the usage
// error's), naming --trust and listing each command as file:line, event,
// command.
func TestNotTrustedExitStatus(t *testing.T) {
	dir, file := execFolder(t, "  - status: ok\n")
	for _, args := range [][]string{{"simulate", "--no-history", "--skills", dir, file}, {"test", dir, file}} {
		stdout, stderr, code := runCLI(t, args...)
		if code != exitNotTrusted || exitNotTrusted == exitUsage || exitNotTrusted == exitProblems || stdout != "" {
			t.Errorf("%s: exit %d, want %d; stdout %q", args[0], code, exitNotTrusted, stdout)
		}
		var listed []string
		for _, line := range strings.Split(stderr, "\n") {
			if f := strings.Split(strings.TrimSpace(line), "  "); strings.HasPrefix(line, "  ") && len(f) == 3 {
				listed = append(listed, f[0])
			}
		}
		if !strings.Contains(stderr, "--trust") || len(listed) == 0 || !strings.HasPrefix(listed[0], "ops/hooks/hooks.yaml:") {
			t.Errorf("%s: stderr names no --trust or no command (file:line  event  command):\n%s", args[0], stderr)
		}
	}
	if !strings.HasSuffix(usage, exitStatus) || !strings.Contains(exitStatus, "--trust") {
		t.Errorf("hookctl help does not document exit status %d:\n%s", exitNotTrusted, usage)
	}
}
