package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookside/hookside/internal/nearmiss"
	"github.com/hookside/hookside/v2bridge"
)

// bindingFlags are the flags of `v2 bindings create|upsert` by the
// v2/bindings/create param each one gives: an invalid param is reported
// on the flag the user typed.
var bindingFlags = map[string]string{"hookId": "--hook", "scopeKind": "--scope", "scopeId": "--scope-id"}

// onBindingFlag is err with an *InvalidError on a param of bindingFlags
// reported on its flag (field "--scope-id", "invalid params: --scope-id:
// required for scope workspace: …"); other errors are returned as they are.
func onBindingFlag(err error) error {
	var ie *v2bridge.InvalidError
	if !errors.As(err, &ie) {
		return err
	}
	if flag, ok := bindingFlags[ie.Field]; ok {
		return &v2bridge.InvalidError{Field: flag, Reason: ie.Reason, Data: ie.Data}
	}
	return err
}

// nearDefinition is an error that no definition has an id, with the
// stored id it most likely misspells: the hint the CLI prints after it.
// Its text and wire form are the not-found error's.
type nearDefinition struct {
	err  error
	near string
}

func (e *nearDefinition) Error() string { return e.err.Error() }
func (e *nearDefinition) Unwrap() error { return e.err }

// withNearDefinition is err, a failure about the definition id, carrying
// the stored id nearest to it (nearmiss.Suggest) when err is not found and
// one is near; otherwise err.
func withNearDefinition(ctx context.Context, b *v2bridge.Bridge, id string, err error) error {
	if !errors.Is(err, v2bridge.ErrNotFound) || id == "" {
		return err
	}
	list, lerr := b.ListDefinitions(ctx, "")
	if lerr != nil {
		return err
	}
	ids := make([]string, len(list.Definitions))
	for i, d := range list.Definitions {
		ids[i] = d.ID
	}
	if m := nearmiss.Suggest(id, ids); m != "" {
		return &nearDefinition{err: err, near: m}
	}
	return err
}

// nearDefinitionHint is the line printed after a nearDefinition error:
// `did you mean "log-turns"? (…)`; "" for another error.
func nearDefinitionHint(err error) string {
	var nd *nearDefinition
	if !errors.As(err, &nd) {
		return ""
	}
	return fmt.Sprintf("did you mean %q? (hookside v2 definitions list shows them)", nd.near)
}
