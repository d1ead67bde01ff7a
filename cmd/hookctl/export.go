package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/services/edit"
)

// exportCmd writes one skill as a .zip, or into a folder when -o ends with
// a path separator or names an existing folder.
func exportCmd(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	out := fs.String("o", "", "output .zip file, or DIR/ for a folder")
	scenarios := fs.Bool("scenarios", false, "include the skill's scenarios/")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 || *out == "" {
		return 0, fmt.Errorf("%w: export takes one SKILL_DIR and -o OUT", errUsage)
	}
	dir := filepath.Clean(pos[0])
	root, skill := filepath.Dir(dir), filepath.Base(dir)
	opts := edit.ExportOptions{Scenarios: *scenarios}
	var ds []diag.Diagnostic
	if toFolder(*out) {
		ds, err = edit.ExportSkillDir(ctx, root, skill, *out, opts)
	} else {
		ds, err = exportZip(ctx, root, skill, *out, opts)
	}
	var invalid *edit.InvalidError
	if errors.As(err, &invalid) {
		printDiagnostics(stdout, invalid.Diagnostics)
		e, w := diag.Count(invalid.Diagnostics)
		fmt.Fprintf(stdout, "%s: %d error(s), %d warning(s); not exported\n", dir, e, w)
		return exitProblems, nil
	}
	if err != nil {
		return 0, err
	}
	printDiagnostics(stdout, ds)
	fmt.Fprintf(stdout, "exported %s to %s\n", skill, *out)
	return exitOK, nil
}

func toFolder(out string) bool {
	if strings.HasSuffix(out, "/") || strings.HasSuffix(out, string(filepath.Separator)) {
		return true
	}
	fi, err := os.Stat(out)
	return err == nil && fi.IsDir()
}

// exportZip writes the zip beside out and renames it into place, so a
// failed export leaves no partial file.
func exportZip(ctx context.Context, root, skill, out string, opts edit.ExportOptions) ([]diag.Diagnostic, error) {
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	ds, err := edit.ExportSkill(ctx, root, skill, f, opts)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Remove(tmp)
		return ds, err
	}
	return ds, nil
}
