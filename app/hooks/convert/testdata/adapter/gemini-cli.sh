#!/bin/sh
# Runs a Claude Code hook under Gemini CLI, as Claude Code would run it: the
# hook reads Claude Code's input (its event, tool and key names) and its
# answer (exit code, stderr, JSON) is given back as Gemini CLI reads it.
# Written by Hook Studio's convert; POSIX sh, awk and mktemp only.
# Usage: run-claude-hook.sh CLAUDE_EVENT 'COMMAND LINE'
event=$1
line=$2
CLAUDE_PROJECT_DIR=${GEMINI_PROJECT_DIR:-$PWD}
export CLAUDE_PROJECT_DIR
prog='
# mode in: the hook input of the agent on stdin, printed as Claude Code
# sends it. mode out: the answer of the hook (dir/out, dir/err, its exit
# code) printed as the agent reads it; the exit status is the code the
# agent gets.
# JSON values are kept as written; only the members named are rewritten.
BEGIN {
	# one record: a JSON text holds no raw control character
	RS = "\001"
	tables()
	for (k in toolkey) {
		split(k, kp, SUBSEP)
		back[kp[1], toolkey[k]] = kp[2]
	}
	for (i = 1; i < 32; i++)
		esc[sprintf("%c", i)] = sprintf("\\u%04x", i)
	esc["\n"] = "\\n"; esc["\t"] = "\\t"; esc["\r"] = "\\r"
}
mode == "in" { buf = $0 }
END {
	if (mode == "in") {
		map_in(buf)
		exit 0
	}
	exit map_out()
}

# members reads the object s into K[1..n] (its keys, as written) and
# V[1..n] (the JSON text of its values): n, or -1 when s is no object.
# It walks the parts of s between quotes, so a long string costs one
# split, not a step per character (awk copies a string on each step).
function members(s, K, V,    P, m, i, j, seg, len, base, c, d, n, state, kstart, vstart) {
	split("", K)
	split("", V)
	# a regular expression: a one-character separator other awks (of the
	# BSDs, of macOS) would split at each newline too
	m = split(s, P, /["]/)
	state = "start"
	for (i = 1; i <= m; i++) {
		seg = P[i]
		len = length(seg)
		if (state == "string" || state == "inkey") {
			base += len + 1
			# a quote after an odd run of backslashes is in the string
			if (i < m && match(seg, /\\+$/) && RLENGTH % 2 == 1)
				continue
			if (i == m)
				return -1
			if (state == "inkey") {
				K[n] = substr(s, kstart, base - kstart)
				state = "afterkey"
			} else {
				state = "value"
			}
			continue
		}
		for (j = 1; j <= len; j++) {
			c = substr(seg, j, 1)
			if (c == " " || c == "\t" || c == "\n" || c == "\r")
				continue
			if (state == "start") {
				if (c != "{")
					return -1
				state = "key"
				d = 1
			} else if (state == "end" || state == "afterkey" && c != ":") {
				return -1
			} else if (state == "afterkey") {
				state = "value"
				vstart = base + j + 1
			} else if (state == "key") {
				if (c != "}" || n > 0)
					return -1
				state = "end"
			} else if (c == "{" || c == "[") {
				d++
			} else if ((c == "}" || c == "]") && --d == 0 || c == "," && d == 1) {
				V[n] = trim(substr(s, vstart, base + j - vstart))
				state = (c == ",") ? "key" : "end"
			}
		}
		base += len + 1
		if (i == m)
			break
		if (state == "key") {
			n++
			state = "inkey"
			kstart = base + 1
		} else if (state == "value") {
			state = "string"
		} else {
			return -1
		}
	}
	return state == "end" ? n : -1
}

# object writes K/V[1..n] back, leaving out the members whose key is "".
function object(K, V, n,    i, out, sep) {
	out = "{"
	for (i = 1; i <= n; i++) {
		if (K[i] != "") {
			out = out sep "\"" K[i] "\":" V[i]
			sep = ","
		}
	}
	return out "}"
}

function find(K, n, k,    i) {
	for (i = 1; i <= n; i++)
		if (K[i] == k)
			return i
	return 0
}

# unquoted is a JSON string without escapes as text ("" for anything else).
function unquoted(v) {
	if (v ~ /^"[^"\\]*"$/)
		return substr(v, 2, length(v) - 2)
	return ""
}

# quote is s as a JSON string.
function quote(s,    A, n, c) {
	n = split(s, A, /[\\]/)
	s = glue(A, 1, n, "\\\\")
	n = split(s, A, /["]/)
	s = glue(A, 1, n, "\\\"")
	for (c in esc) {
		if (index(s, c)) {
			n = split(s, A, "[" c "]")
			s = glue(A, 1, n, esc[c])
		}
	}
	return "\"" s "\""
}

# glue joins A[lo..hi] with r between them, in halves: awk copies the
# whole string on each join.
function glue(A, lo, hi, r,    mid) {
	if (lo > hi)
		return ""
	if (lo == hi)
		return A[lo]
	mid = int((lo + hi) / 2)
	return glue(A, lo, mid, r) r glue(A, mid + 1, hi, r)
}

# joined is two JSON strings as one, a line apart.
function joined(a, b) {
	if (a == "")
		return b
	return substr(a, 1, length(a) - 1) "\\n" substr(b, 2)
}

function trim(s) {
	sub(/^[ \t\r\n]+/, "", s)
	sub(/[ \t\r\n]+$/, "", s)
	return s
}

function slurp(f,    s) {
	s = ""
	getline s < f
	close(f)
	return s
}

# snake is a camelCase key in snake_case (toolName: tool_name).
function snake(k,    out, i, c) {
	out = ""
	for (i = 1; i <= length(k); i++) {
		c = substr(k, i, 1)
		if (c ~ /[A-Z]/)
			out = out "_" tolower(c)
		else
			out = out c
	}
	return out
}

# rekeyed is the tool input object s with its keys renamed for tool, from
# those of the agent to those of Claude Code (dir "in") or back.
function rekeyed(s, tool, dir,    K, V, n, i) {
	if ((n = members(s, K, V)) < 0)
		return s
	for (i = 1; i <= n; i++) {
		if (dir == "in" && ((tool, K[i]) in toolkey))
			K[i] = toolkey[tool, K[i]]
		else if (dir == "out" && ((tool, K[i]) in back))
			K[i] = back[tool, K[i]]
	}
	return object(K, V, n)
}

# map_in prints the input s of the agent as Claude Code sends it: its
# event, tool and key names, and the values Claude Code names otherwise.
function map_in(s,    K, V, n, i, k, v, tool, named) {
	if ((n = members(s, K, V)) < 0) {
		printf "%s", s
		return
	}
	for (i = 1; i <= n; i++) {
		k = K[i]
		if (k in key)
			k = key[k]
		else if (camel)
			k = snake(k)
		K[i] = k
		v = unquoted(V[i])
		if ((k, v) in value)
			V[i] = quote(value[k, v])
		if (k == "hook_event_name") {
			V[i] = quote(event)
			named = 1
		}
		if (k == "tool_name") {
			tool = v
			if (v in toolname)
				tool = toolname[v]
			V[i] = quote(tool)
		}
	}
	if ((i = find(K, n, "tool_input")) && tool != "")
		V[i] = rekeyed(V[i], tool, "in")
	v = object(K, V, n)
	if (!named)
		v = "{\"hook_event_name\":" quote(event) (n > 0 ? "," : "") substr(v, 2)
	printf "%s\n", v
}

# answer is the JSON the agent reads for what Claude Code does with a
# text: a context for the model, a denied tool call, a blocked step.
function answer(what, text,    tev) {
	tev = (event in eventname) ? eventname[event] : event
	if (what == "context" && context == "top")
		return "{\"additionalContext\":" quote(text) "}"
	if (what == "context")
		return "{\"hookSpecificOutput\":{\"hookEventName\":" quote(tev) ",\"additionalContext\":" quote(text) "}}"
	if (what == "deny" && permission == "decision")
		return "{\"decision\":\"deny\",\"reason\":" quote(text) "}"
	if (what == "deny" && permission == "top")
		return "{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":" quote(text) "}"
	if (what == "deny")
		return "{\"hookSpecificOutput\":{\"hookEventName\":" quote(tev) ",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":" quote(text) "}}"
	return "{\"decision\":\"block\",\"reason\":" quote(text) "}"
}

# map_out prints the answer of the hook as the agent reads it and is the exit
# code to give the agent.
function map_out(    out, err, what) {
	out = slurp(dir "/out")
	err = slurp(dir "/err")
	if (code == 2 && (event in exit2) && exit2[event] != "warn") {
		printf "%s\n", answer(exit2[event], trim(err))
		return 0
	}
	if (code == 2 && !(event in exit2))
		return pass_err(2)
	# a non-blocking error: its stderr goes to the user
	if (code != 0)
		return pass_err(fail)
	if (trim(out) == "")
		return 0
	if ((n = members(out, TK, TV)) < 0) {
		if (event in plain)
			printf "%s\n", answer("context", trim(out))
		else
			printf "%s", out
		return 0
	}
	printf "%s\n", json_out()
	return 0
}

# pass_err has the adapter pass the stderr of the hook on: code is the
# exit code the agent gets.
function pass_err(code) {
	printf "" > (dir "/stderr-on")
	close(dir "/stderr-on")
	return code
}

# json_out is the JSON answer of the hook (TK/TV[1..n]) as the agent reads it.
function json_out(    HK, HV, hn, h, i, d, r, c, tool, IK, IV, m) {
	hn = 0
	if ((h = find(TK, n, "hookSpecificOutput")) && (hn = members(TV[h], HK, HV)) < 0) {
		h = 0
		hn = 0
	}
	# a PreToolUse "decision" of old: approve or block
	if (event == "PreToolUse" && (d = find(TK, n, "decision")) && !find(HK, hn, "permissionDecision")) {
		r = (TV[d] == "\"block\"") ? "\"deny\"" : (TV[d] == "\"approve\"") ? "\"allow\"" : ""
		if (r != "") {
			TK[d] = ""
			HK[++hn] = "permissionDecision"
			HV[hn] = r
			if ((i = find(TK, n, "reason"))) {
				TK[i] = ""
				HK[++hn] = "permissionDecisionReason"
				HV[hn] = TV[i]
			}
		}
	}
	if (permission != "nested" && (d = find(HK, hn, "permissionDecision"))) {
		r = find(HK, hn, "permissionDecisionReason")
		if (permission == "decision") {
			put("decision", HV[d])
			if (r)
				put("reason", HV[r])
		} else {
			put("permissionDecision", HV[d])
			if (r)
				put("permissionDecisionReason", HV[r])
		}
		HK[d] = ""
		if (r)
			HK[r] = ""
	}
	if ((i = find(HK, hn, "updatedInput"))) {
		if ((m = members(slurp(dir "/in"), IK, IV)) > 0 && (d = find(IK, m, "tool_name")))
			tool = unquoted(IV[d])
		HK[i] = updated
		HV[i] = rekeyed(HV[i], tool, "out")
	}
	# Claude Code gives the reason of a PostToolUse block to the model
	# beside the output of the tool
	if (postblock && (event == "PostToolUse" || event == "PostToolUseFailure") &&
	    (d = find(TK, n, "decision")) && TV[d] == "\"block\"") {
		TK[d] = ""
		if ((r = find(TK, n, "reason"))) {
			TK[r] = ""
			c = TV[r]
		}
		if ((i = find(HK, hn, "additionalContext")))
			HV[i] = joined(c, HV[i])
		else if (c != "") {
			HK[++hn] = "additionalContext"
			HV[hn] = c
		}
	}
	if (context == "top" && (i = find(HK, hn, "additionalContext"))) {
		if ((d = find(TK, n, "additionalContext")))
			TV[d] = joined(TV[d], HV[i])
		else
			put("additionalContext", HV[i])
		HK[i] = ""
	}
	if ((i = find(HK, hn, "hookEventName")) && (event in eventname))
		HV[i] = quote(eventname[event])
	c = object(HK, HV, hn)
	if (c == "{}" || (c ~ /^\{"hookEventName":"[^"]*"\}$/)) {
		if (h)
			TK[h] = ""
	} else if (h) {
		TV[h] = c
	} else {
		put("hookSpecificOutput", c)
	}
	return object(TK, TV, n)
}

# put sets the member k of the answer (TK/TV) to v.
function put(k, v,    i) {
	if ((i = find(TK, n, k))) {
		TV[i] = v
		return
	}
	TK[++n] = k
	TV[n] = v
}

function tables() {
	context = "nested"; permission = "decision"; updated = "tool_input"
	camel = 0; postblock = 1; fail = 1
	toolname["run_shell_command"] = "Bash"
	toolname["replace"] = "Edit"
	toolname["write_file"] = "Write"
	toolname["read_file"] = "Read"
	toolname["grep_search"] = "Grep"
	toolname["glob"] = "Glob"
	toolname["list_directory"] = "LS"
	toolname["web_fetch"] = "WebFetch"
	toolname["google_web_search"] = "WebSearch"
	toolname["write_todos"] = "TodoWrite"
	toolname["activate_skill"] = "Skill"
	toolkey["Bash", "is_background"] = "run_in_background"
	toolkey["Glob", "dir_path"] = "path"
	toolkey["Grep", "dir_path"] = "path"
	toolkey["LS", "dir_path"] = "path"
	key["prompt_response"] = "last_assistant_message"
	eventname["SessionStart"] = "SessionStart"
	eventname["UserPromptSubmit"] = "BeforeAgent"
	eventname["PreToolUse"] = "BeforeTool"
	eventname["PostToolUse"] = "AfterTool"
	eventname["Stop"] = "AfterAgent"
	eventname["PreCompact"] = "PreCompress"
	eventname["SessionEnd"] = "SessionEnd"
	eventname["Notification"] = "Notification"
	plain["SessionStart"] = "1"
	plain["UserPromptSubmit"] = "1"
	exit2["SessionStart"] = "warn"
	exit2["UserPromptSubmit"] = "block"
	exit2["PreToolUse"] = "deny"
	exit2["PostToolUse"] = "context"
	exit2["Stop"] = "block"
	exit2["PreCompact"] = "warn"
	exit2["SessionEnd"] = "warn"
	exit2["Notification"] = "warn"
}
'
t=$(mktemp -d "${TMPDIR:-/tmp}/claude-hook.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
LC_ALL=C awk -v mode=in -v event="$event" "$prog" >"$t/in" || exit 1
sh -c "$line" <"$t/in" >"$t/out" 2>"$t/err" &
pid=$!
trap 'kill "$pid" 2>/dev/null; exit 143' TERM INT HUP
wait "$pid"
code=$?
LC_ALL=C awk -v mode=out -v event="$event" -v code="$code" -v dir="$t" "$prog" </dev/null
answer=$?
[ -e "$t/stderr-on" ] && cat "$t/err" >&2
exit "$answer"
