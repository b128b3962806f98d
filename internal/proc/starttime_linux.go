package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"
)

// userHZ is the unit of the times in /proc/<pid>/stat (USER_HZ: 100 on
// every Linux architecture Go supports).
const userHZ = 100

// ProcStartTime returns when process pid started: field 22 of
// /proc/<pid>/stat (clock ticks after boot) added to the boot time of
// /proc/stat (btime, whole seconds). Repeated calls for one process give
// the same time, so with the pid it names one process across pid reuse;
// the absolute value is accurate to about a second. Errors wrap
// ErrNoProcess for a pid that does not exist.
func ProcStartTime(pid int) (time.Time, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, fmt.Errorf("%w: pid %d", ErrNoProcess, pid)
	}
	if err != nil {
		return time.Time{}, err
	}
	// The command name (field 2) is parenthesised and may hold anything;
	// the fields after its last ')' are plain numbers, state first.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return time.Time{}, fmt.Errorf("proc: malformed /proc/%d/stat", pid)
	}
	fields := bytes.Fields(b[i+1:])
	const startField = 22 - 3 // field 3 (state) is fields[0]
	if len(fields) <= startField {
		return time.Time{}, fmt.Errorf("proc: short /proc/%d/stat", pid)
	}
	ticks, err := strconv.ParseUint(string(fields[startField]), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("proc: /proc/%d/stat starttime: %w", pid, err)
	}
	boot, err := bootTime()
	if err != nil {
		return time.Time{}, err
	}
	return boot.Add(time.Duration(ticks) * (time.Second / userHZ)), nil
}

// bootTime reads the btime line of /proc/stat.
func bootTime() (time.Time, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, err
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			sec, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				return time.Time{}, fmt.Errorf("proc: /proc/stat btime: %w", err)
			}
			return time.Unix(sec, 0), nil
		}
	}
	return time.Time{}, errors.New("proc: /proc/stat has no btime")
}
