package v2bridge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// HomeError is a hookside home that cannot hold the V2 database: not a
// directory, one that cannot be created, or one the OS refuses. Its text is
// the reason in plain words with the path ("the hookside home /x is not a
// directory"); errors.Is(err, ErrUnavailable) holds (-32014), and so does
// errors.Is for the OS error it wraps.
type HomeError struct {
	Reason string
	Err    error
}

func (e *HomeError) Error() string { return e.Reason }

// Unwrap returns ErrUnavailable and the OS error.
func (e *HomeError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// checkHome is the *HomeError of dir, the home the database goes in,
// when it is there but not a directory or cannot be looked at; nil when
// it is a directory or is not there (created unless NoCreate).
func checkHome(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return &HomeError{Reason: fmt.Sprintf("the hookside home %s is not a directory", dir), Err: syscall.ENOTDIR}
	case err == nil, errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return &HomeError{Reason: fmt.Sprintf("the hookside home %s cannot be used: %s", dir, osReason(dir, err)), Err: err}
}

// mkHomeError is the *HomeError of a home MkdirAll could not create.
func mkHomeError(dir string, err error) error {
	return &HomeError{Reason: fmt.Sprintf("cannot create the hookside home %s: %s", dir, osReason(dir, err)), Err: err}
}

// osReason is err, about path, in words: the OS's reason without the
// operation and path a *fs.PathError repeats ("permission denied"); for
// "not a directory", the ancestor of path that is a file ("/x is not a
// directory").
func osReason(path string, err error) string {
	if errors.Is(err, syscall.ENOTDIR) {
		for p := filepath.Dir(path); p != filepath.Dir(p); p = filepath.Dir(p) {
			if fi, serr := os.Stat(p); serr == nil && !fi.IsDir() {
				return p + " is not a directory"
			}
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
