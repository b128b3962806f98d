//go:build linux || freebsd

package proc

import "syscall"

// GroupAttr returns the SysProcAttr of a hook leader: its own process
// group (Setpgid, so its pid is the group id and one kill(-pgid) reaches
// every process it forks without setsid) and SIGKILL from the kernel when
// hookside dies (Pdeathsig; Linux and FreeBSD).
func GroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
