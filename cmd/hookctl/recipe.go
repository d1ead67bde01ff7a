package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"hookstudio/app/agentdata/recipe"
)

// recipeCmd prints how to run an agent CLI against a capture: its
// variables, config files, command, where its hooks go and the trap that
// keeps a hook from running (the table the app's Capture dialog shows).
func recipeCmd(_ context.Context, args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("recipe", flag.ContinueOnError)
	url := fs.String("url", "http://127.0.0.1:PORT", "the capture's base URL (hookctl capture prints it first)")
	prompt := fs.String("prompt", "", "the prompt in the command line (default: "+recipe.SamplePrompt+")")
	asJSON := fs.Bool("json", false, "print the recipe as JSON")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 1 {
		return 0, fmt.Errorf("%w: recipe takes at most one agent (%s)", errUsage, strings.Join(recipe.Agents(), ", "))
	}
	*url = strings.TrimSuffix(strings.TrimSuffix(*url, "/"), "/v1")
	if len(pos) == 0 {
		all := recipe.ForAPI(*url, "")
		if *asJSON {
			return exitOK, writeJSON(stdout, all)
		}
		for _, r := range all {
			fmt.Fprintf(stdout, "%-14s %-19s %s %s, %s API\n", r.Agent, r.Name, r.Package, r.Version, recipe.APIName(r.API))
		}
		fmt.Fprintln(stdout, "\nhookctl recipe AGENT --url URL prints one.")
		return exitOK, nil
	}
	r, err := recipe.Find(pos[0])
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errUsage, err)
	}
	r = r.For(*url, *prompt)
	if *asJSON {
		return exitOK, writeJSON(stdout, r)
	}
	printRecipe(stdout, r)
	return exitOK, nil
}

// printRecipe writes a filled-in recipe as text to paste from.
func printRecipe(w io.Writer, r recipe.Recipe) {
	fmt.Fprintf(w, "%s (%s %s, %s API)\n", r.Name, r.Package, r.Version, recipe.APIName(r.API))
	for _, f := range r.Files {
		verb := "write"
		if f.Merge {
			verb = "add to"
		}
		fmt.Fprintf(w, "\n%s %s:\n%s", verb, f.Path, f.Content)
	}
	fmt.Fprintf(w, "\n%s\n\nhooks: %s\nhook did not run? %s\n", strings.Join(r.Lines, "\n"), stripTicks(r.Hooks), stripTicks(r.Trap))
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", stripTicks(n))
	}
}

// stripTicks drops Markdown's code ticks for a terminal.
func stripTicks(s string) string { return strings.ReplaceAll(s, "`", "") }
