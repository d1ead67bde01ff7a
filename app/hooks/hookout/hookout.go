// Package hookout reads what a command hook prints before it runs: its
// command line and the scripts it runs (shell, Python, Node), for the
// validators of every hook system to say — before any run — when a hook's
// answer will not reach the model as its author meant: plain text where
// the agent reads JSON only, a field the agent ignores there, a decision
// value it refuses. It reads text only: a hint where a script computes its
// output, never a verdict.
package hookout

import (
	"os"
	"regexp"
	"strings"
)

// maxScript is the largest script read; a bigger file is no hook script.
const maxScript = 256 << 10

// Read is the text a validator reads of a hook: its command line, then
// each script it runs that can be read, without comment lines (a comment
// that names a field is not an answer).
func Read(command string, scripts []string) string {
	var b strings.Builder
	b.WriteString(command)
	for _, s := range scripts {
		fi, err := os.Stat(s)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScript {
			continue
		}
		data, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		b.WriteString("\n")
		b.WriteString(Uncommented(string(data)))
	}
	return b.String()
}

// Uncommented is a script without its comment lines (# or //).
func Uncommented(script string) string {
	lines := strings.Split(script, "\n")
	out := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

var (
	// a shell line that prints to stdout: echo, printf, a here-document
	shellPrint = regexp.MustCompile(`(^|[;&|]\s*|\bthen\s+|\bdo\s+|\belse\s+|\{\s*)(echo|printf)\s+(-[neE]+\s+)*(.*)`)
	heredoc    = regexp.MustCompile(`(^|[;&|]\s*|\bthen\s+|\bdo\s+|\belse\s+)cat\s*(>&1\s*)?<<-?\s*['"]?\w+['"]?\s*$`)
	// Python's print(…) or sys.stdout.write(…), Node's console.log(…) or
	// process.stdout.write(…), with their first argument's first characters
	pyPrint   = regexp.MustCompile(`\bprint\(\s*([rfbu]{0,2})(["']{1,3})(.)`)
	pyWrite   = regexp.MustCompile(`\bsys\.stdout\.write\(\s*([rfbu]{0,2})(["']{1,3})(.)`)
	nodePrint = regexp.MustCompile(`\b(console\.log|console\.info|process\.stdout\.write)\(\s*(["'` + "`" + `])(.)`)
	toStderr  = regexp.MustCompile(`>&2|1>&2|file\s*=\s*sys\.stderr|\bstderr\b`)
	// what prints JSON: an encoder, jq, or a literal object
	jsonPrint = regexp.MustCompile(`json\.dumps|json\.dump\(|JSON\.stringify|\bjq\b|(echo|printf)\s+(-[neE]+\s+)*\\?["']\\?\{|<<-?\s*['"]?\w+['"]?\s*\n\s*\{|print\(\s*[rfbu]{0,2}["']{1,3}\{|console\.log\(\s*["'` + "`" + `]\{|\bcat\s+[^|;&<>]*\.json\b`)
)

// Plain says whether text prints plain words to stdout somewhere: an
// echo or printf of a literal that starts with a letter or a digit, a
// here-document whose first line is not "{", Python's print or
// sys.stdout.write of such a literal, Node's console.log or
// process.stdout.write of one — never a line that writes to stderr, nor
// one printing a variable (what it holds is not known here).
func Plain(text string) bool {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if toStderr.MatchString(t) {
			continue
		}
		if m := shellPrint.FindStringSubmatch(t); m != nil && plainStart(m[4]) {
			return true
		}
		if heredoc.MatchString(t) && i+1 < len(lines) {
			if next := strings.TrimSpace(lines[i+1]); next != "" && !strings.HasPrefix(next, "{") && !strings.HasPrefix(next, "[") && !strings.HasPrefix(next, "$") {
				return true
			}
		}
		for _, re := range []*regexp.Regexp{pyPrint, pyWrite, nodePrint} {
			if m := re.FindStringSubmatch(t); m != nil && letter(m[len(m)-1]) {
				return true
			}
		}
	}
	return false
}

// plainStart: what echo or printf is handed starts with words — a quote
// or none, then a letter or a digit (not "{", "[", "$", "%").
func plainStart(arg string) bool {
	arg = strings.TrimLeft(arg, `"'\`)
	return arg != "" && letter(arg[:1])
}

func letter(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// JSON says whether text prints JSON somewhere: json.dumps, JSON.stringify,
// jq, a literal object echoed or in a here-document, a .json file cat.
func JSON(text string) bool { return jsonPrint.MatchString(text) }

// Field says whether text names the JSON field key: "key", \"key\",
// 'key' or key: (a JavaScript object's).
func Field(text, key string) bool { return fieldRe(key).MatchString(text) }

func fieldRe(key string) *regexp.Regexp {
	k := regexp.QuoteMeta(key)
	return regexp.MustCompile(`(\\?["']` + k + `\\?["']|\b` + k + `\s*:)`)
}

// Values lists the string values text gives the field key, in order
// ("decision": "approve", \"decision\":\"approve\", 'decision': 'approve',
// decision: 'approve').
func Values(text, key string) []string {
	k := regexp.QuoteMeta(key)
	re := regexp.MustCompile(`(?:\\?["']` + k + `\\?["']|\b` + k + `)\s*:\s*\\?["']([A-Za-z_]+)\\?["']`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// exit1 is a script that prints a refusal and exits 1.
var exit1 = regexp.MustCompile(`(?s)(>&2|echo|printf).*\bexit\s+1\b`)

// Exit1 says whether text reads as a guard that refuses with exit 1: it
// prints (to stderr or not) and exits 1 — which blocks nothing in any of
// the agents, only exit 2 or a JSON decision does.
func Exit1(text string) bool { return exit1.MatchString(text) }
