//go:build unix && !linux

package proc

import "os"

// tableFile returns a new janitor table file: a temporary file (mode 0600)
// unlinked at once, so only the descriptors reach it.
func tableFile() (*os.File, error) {
	f, err := os.CreateTemp("", "hookside-janitor-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
