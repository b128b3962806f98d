package main

import (
	"fmt"
	"strings"
)

// The help of `hookside v2 definitions|bindings|runs` and of each of their
// commands is made from one table, the group's v2Ops: the group lists each
// command's one line (v2Op.short) and says what they share; a command's
// own help is its line, what it takes and prints (v2Op.about, v2Op.out),
// the group's errors paragraph and its exit statuses, one a line — as
// `hooks trust` and its actions (trustActions).

// v2Group is `hookside v2 definitions`, `hookside v2 bindings` or
// `hookside v2 runs`.
type v2Group struct {
	name, short string
	// intro is the group's first paragraph; exit its exit status line,
	// summing up its commands' v2Op.exit; errors the paragraph on errors
	// its commands share ("" = v2ErrorsHelp).
	intro, exit, errors string
	ops                 []v2Op
}

// errorsHelp is the paragraph on errors g's commands share.
func (g v2Group) errorsHelp() string {
	if g.errors != "" {
		return g.errors
	}
	return v2ErrorsHelp
}

// v2Exits are the exit statuses of the definitions, bindings and runs
// commands (docs/protocol.md §5 CLI); v2Op.exit adds to them.
var v2Exits = [5]string{"ok", "error", "usage (invalid input)", "not found", "database unavailable"}

// v2ErrorsHelp is the paragraph on errors every definitions and bindings
// command shares (runs: v2RunsErrorsHelp).
const v2ErrorsHelp = "Errors carry the protocol's codes (-32602 invalid params with the field, -32013 not found, " +
	"-32016 conflict, -32014 database unavailable) on stderr; --json prints {\"error\": {code, message, data}} on stdout."

// helpWidth is the column the help paragraphs are folded at.
const helpWidth = 100

// long is the group's help: its intro, its commands, what they share.
func (g v2Group) long() string {
	var b strings.Builder
	b.WriteString(wrapText(g.intro, helpWidth) + "\n\n")
	width := 7
	for _, op := range g.ops {
		width = max(width, len(op.name()))
	}
	for _, op := range g.ops {
		fmt.Fprintf(&b, "  %-*s %s\n", width, op.name(), op.short)
	}
	b.WriteString("\n" + wrapText(g.errorsHelp(), helpWidth) + "\n" + wrapText(g.exit, helpWidth) + "\n")
	fmt.Fprintf(&b, "Each command's input, output and exit statuses: hookside v2 %s <command> --help.", g.name)
	return b.String()
}

// name is the command's name, the first word of its use.
func (op v2Op) name() string {
	name, _, _ := strings.Cut(op.use, " ")
	return name
}

// long is op's help: its line, what it takes and prints, the errors
// paragraph of its group (errs) and its exit statuses (3 only when op.exit
// names what is not found; 4 not for a command that needs no database).
func (op v2Op) long(errs string) string {
	var b strings.Builder
	b.WriteString(wrapText(strings.ToUpper(op.short[:1])+op.short[1:]+".", helpWidth) + "\n\n")
	b.WriteString(wrapText(op.about, helpWidth) + "\n\n" + wrapText(op.out, helpWidth) + "\n")
	b.WriteString(wrapText(errs, helpWidth) + "\n\nExit status:")
	for code, text := range v2Exits {
		if code == exitNotFound && op.exit[code] == "" || code == len(v2Exits)-1 && op.offline {
			continue
		}
		fmt.Fprintf(&b, "\n  %d  %s%s", code, text, op.exit[code])
	}
	return b.String()
}

// wrapText folds s (one paragraph; its newlines end lines) before a word
// that would pass column width; a bracketed part ("{definition, outcome}")
// is one word, as in a usage line (useWords).
func wrapText(s string, width int) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for j, w := range useWords(line) {
			n := len([]rune(w))
			switch {
			case j == 0:
			case col+1+n > width:
				b.WriteByte('\n')
				col = 0
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += n
		}
	}
	return b.String()
}
