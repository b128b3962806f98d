package main

import (
	"fmt"
	"io"

	"github.com/hookside/hookside/v2bridge"
)

// printUnbound prints, under `v2 emit`'s text result, the enabled
// definitions that listen to the event but will not run their action for
// it, and why (EmitResult.Unbound): without a binding in the event's scope
// an emit is durable and still does nothing.
func printUnbound(w io.Writer, res v2bridge.EmitResult) {
	names := map[string]string{}
	for _, m := range res.Matched {
		names[m.DefinitionID] = m.Name
	}
	for _, u := range res.Unbound {
		why := map[string]string{
			v2bridge.UnboundNoBinding:       "no binding matches this event's scope: bind it (hookside v2 bindings create, or v2/bindings/create)",
			v2bridge.UnboundBindingDisabled: "its binding here is disabled",
			v2bridge.UnboundNeedsReview:     "its binding needs review (the definition changed): the run is blocked trust_required",
		}[u.Reason]
		if why == "" {
			why = u.Reason
		}
		if u.Hint != "" {
			why += "; " + u.Hint
		}
		fmt.Fprintf(w, "  definition %s (%s) will not run: %s\n", dispText(u.DefinitionID), dispText(names[u.DefinitionID]), dispText(why))
	}
}
