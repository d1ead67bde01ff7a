package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"hookstudio/app/format/diag"
	"hookstudio/app/services/edit"
)

// importCmd installs the skills of a .zip into a skills folder.
func importCmd(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	root := fs.String("skills", "", "skills folder to import into (default ./skills or .)")
	overwrite := fs.Bool("overwrite", false, "replace skills that already exist")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, fmt.Errorf("%w: import takes one FILE.zip", errUsage)
	}
	if *root == "" {
		*root = defaultSkillsDir()
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	names, ds, err := edit.ImportZip(ctx, f, fi.Size(), *root, edit.ImportOptions{Overwrite: *overwrite})
	var invalid *edit.InvalidError
	if errors.As(err, &invalid) {
		printDiagnostics(stdout, invalid.Diagnostics)
		e, w := diag.Count(invalid.Diagnostics)
		fmt.Fprintf(stdout, "%s: %d error(s), %d warning(s); nothing imported\n", invalid.Skill, e, w)
		return exitProblems, nil
	}
	if err != nil {
		return 0, err
	}
	printDiagnostics(stdout, ds)
	for _, n := range names {
		fmt.Fprintf(stdout, "imported %s into %s\n", n, *root)
	}
	return exitOK, nil
}
