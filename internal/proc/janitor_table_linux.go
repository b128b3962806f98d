package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// tableFile returns a new janitor table file: an anonymous memfd (no name
// in any directory, freed with its last descriptor).
func tableFile() (*os.File, error) {
	fd, err := unix.MemfdCreate("hookside-janitor", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("memfd_create", err)
	}
	return os.NewFile(uintptr(fd), "hookside-janitor-table"), nil
}
