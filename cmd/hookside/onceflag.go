package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A flag that takes one value (a string, number or duration: --input,
// --event, --home, …) given twice on one command line is a usage error:
// pflag alone keeps the last, so `--input a.json --input b.json` would
// silently read b.json. Repeatable flags (--plugin-dir, --env, --digest)
// and booleans (--json, --hooks-enabled; the last --json=BOOL wins) take
// any number.

// onceTypes are the pflag value types onceFlags guards.
var onceTypes = map[string]bool{"string": true, "int": true, "int32": true, "int64": true, "uint": true,
	"uint64": true, "float64": true, "duration": true}

// onceFlags makes every single-value flag of cmd and its subcommands
// refuse a second occurrence (onceValue).
func onceFlags(cmd *cobra.Command) {
	for _, fs := range []*pflag.FlagSet{cmd.Flags(), cmd.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) {
			if _, done := f.Value.(*onceValue); !done && onceTypes[f.Value.Type()] {
				f.Value = &onceValue{Value: f.Value, name: f.Name}
			}
		})
	}
	for _, c := range cmd.Commands() {
		onceFlags(c)
	}
}

// onceValue is a flag value that accepts one Set: a second is the error
// "--NAME was already given (FIRST): it takes one value", which pflag
// reports as a flag error (the command's usage status).
type onceValue struct {
	pflag.Value
	name  string
	first *string
}

func (o *onceValue) Set(v string) error {
	if o.first != nil {
		return fmt.Errorf("--%s was already given (%q): it takes one value", o.name, *o.first)
	}
	if err := o.Value.Set(v); err != nil {
		return err
	}
	o.first = &v
	return nil
}
