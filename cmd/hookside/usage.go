package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The usage line of every command that takes flags is made from its flag
// set (useFromFlags), so a flag cannot be added without being shown. A
// command's Use gives only its name and positional words ("get ID",
// "trust [status|review|grant|revoke]"); whatever follows them there is
// replaced.

// Flag annotations that shape a flag's part of the usage line.
const (
	// annFlagUse: the text shown for the flag instead of the generated
	// one ("[--input FILE|-]"); "-" shows nothing (another flag's text
	// covers it: the {--digest D… | --all --bundle-digest B} selection).
	annFlagUse = "hookside.use"
	// annFlagRequired: the command needs the flag, shown without brackets.
	annFlagRequired = "hookside.required"
)

// flagUse sets the usage text of flag name in fs ("-": none).
func flagUse(fs *pflag.FlagSet, name, text string) {
	_ = fs.SetAnnotation(name, annFlagUse, []string{text})
}

// flagRequired marks flag name of fs as shown without brackets (the command
// refuses to run without it; the check is the command's own).
func flagRequired(fs *pflag.FlagSet, name string) {
	_ = fs.SetAnnotation(name, annFlagRequired, []string{"true"})
}

// useFromFlags rewrites the Use of every command under (and with) cmd that
// has flags of its own: its name and positional words, then each flag in
// the order registered (--help and -v, which every command takes, are
// left to the help's flag list). A command without flags (a group) keeps
// its Use.
func useFromFlags(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		useFromFlags(c)
	}
	if cmd.HasParent() {
		if parts := flagParts(cmd.Flags()); len(parts) > 0 {
			cmd.Use = strings.Join(append([]string{positionalUse(cmd.Use)}, parts...), " ")
		}
		cmd.DisableFlagsInUseLine = true // every flag is in Use: no "[flags]"
	}
}

// positionalUse is the name and positional words of use: the words before
// the first that shows a flag ("-x", "[-x", "{-x").
func positionalUse(use string) string {
	words := strings.Fields(use)
	n := 1
	for n < len(words) && !strings.HasPrefix(strings.TrimLeft(words[n], "[{"), "-") {
		n++
	}
	return strings.Join(words[:n], " ")
}

// flagParts are the usage words of fs's flags, in the order registered.
func flagParts(fs *pflag.FlagSet) []string {
	sorted := fs.SortFlags
	fs.SortFlags = false
	defer func() { fs.SortFlags = sorted }()
	var parts []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" || f.Name == "verbose" || f.Hidden {
			return
		}
		if t := f.Annotations[annFlagUse]; len(t) == 1 {
			if t[0] != "-" {
				parts = append(parts, t[0])
			}
			return
		}
		parts = append(parts, flagPart(f))
	})
	return parts
}

// flagPart is f as a usage word: "[--name VALUE]" (VALUE the back-quoted
// word of its help, else the flag's name in capitals), "[--name]" for a
// boolean (false by default; "[--name=false]" when true by default), "…"
// after a repeatable one, no brackets when it is required.
func flagPart(f *pflag.Flag) string {
	s := "--" + f.Name
	switch name, _ := pflag.UnquoteUsage(f); {
	case f.Value.Type() == "bool" && f.DefValue == "true":
		s += "=false"
	case f.Value.Type() == "bool":
	case name == "" || name == f.Value.Type() && !strings.ContainsAny(name, "=|"):
		s += " " + strings.ToUpper(f.Name)
	default:
		s += " " + name
	}
	if len(f.Annotations[annFlagRequired]) == 0 {
		s = "[" + s + "]"
	}
	if _, many := f.Value.(pflag.SliceValue); many || f.Value.Type() == "value" || f.Value.Type() == "KEY=VAL" {
		s += "…"
	}
	return s
}

// usageTemplate is cobra's usage template with the usage line folded at
// about 100 columns (wrapUse).
func usageTemplate(root *cobra.Command) string {
	return strings.Replace(root.UsageTemplate(), "{{.UseLine}}", "{{wrapUse .UseLine}}", 1)
}

func init() {
	cobra.AddTemplateFunc("wrapUse", wrapUse)
}

// wrapUse folds a usage line before a word that would pass column 100,
// going on 6 columns in (under the command's name); a bracketed part
// ("[--cwd DIR]", "{--digest D… | --all}") is one word.
func wrapUse(line string) string {
	const width, indent = 100, "      "
	var b strings.Builder
	col := 2
	for i, w := range useWords(line) {
		switch {
		case i == 0:
		case col+1+len([]rune(w)) > width:
			b.WriteString("\n" + indent)
			col = 2 + len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len([]rune(w))
	}
	return b.String()
}

// useWords splits a usage line at the spaces outside brackets.
func useWords(line string) []string {
	var words []string
	depth, start := 0, -1
	for i, r := range line + " " {
		switch {
		case r == '[' || r == '{':
			depth++
		case r == ']' || r == '}':
			depth--
		case r == ' ' && depth <= 0:
			if start >= 0 {
				words = append(words, line[start:i])
			}
			start = -1
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return words
}
