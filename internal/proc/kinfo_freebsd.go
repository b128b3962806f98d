package proc

import (
	"encoding/binary"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// FreeBSD's struct kinfo_proc (sys/user.h) on 64-bit platforms: its size
// and the offsets of the fields read here. x/sys/unix does not define the
// struct for FreeBSD; the kernel stamps every record with its size
// (ki_structsize), which is checked before any field is read.
const (
	kinfoSize       = 0x440
	kinfoOffPID     = 72  // ki_pid
	kinfoOffPPID    = 76  // ki_ppid
	kinfoOffStart   = 336 // ki_start, struct timeval
	kinfoOffStartUS = 344
)

// kinfoRecords splits a kern.proc.* sysctl result into kinfo_proc records.
func kinfoRecords(b []byte) ([][]byte, error) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		return nil, fmt.Errorf("%w: kinfo_proc layout of 32-bit FreeBSD", ErrUnsupported)
	}
	var out [][]byte
	for len(b) > 0 {
		if len(b) < kinfoSize || binary.LittleEndian.Uint32(b) != kinfoSize {
			return nil, fmt.Errorf("proc: unexpected kinfo_proc record (%d bytes left, ki_structsize %d)",
				len(b), binary.LittleEndian.Uint32(b))
		}
		out = append(out, b[:kinfoSize])
		b = b[kinfoSize:]
	}
	return out, nil
}

func kinfoInt32(rec []byte, off int) int {
	return int(int32(binary.LittleEndian.Uint32(rec[off:])))
}

// kinfoStart is ki_start, the process's start time.
func kinfoStart(rec []byte) time.Time {
	sec := int64(binary.LittleEndian.Uint64(rec[kinfoOffStart:]))
	usec := int64(binary.LittleEndian.Uint64(rec[kinfoOffStartUS:]))
	return time.Unix(sec, usec*1000)
}

// kinfoAll returns the kinfo_proc record of every process (kern.proc.proc:
// one per process, not per thread).
func kinfoAll() ([][]byte, error) {
	b, err := unix.SysctlRaw("kern.proc.proc")
	if err != nil {
		return nil, err
	}
	return kinfoRecords(b)
}
