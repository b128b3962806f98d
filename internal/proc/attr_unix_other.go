//go:build unix && !linux && !freebsd

package proc

import "syscall"

// GroupAttr returns the SysProcAttr of a hook leader: its own process
// group (Setpgid, so its pid is the group id and one kill(-pgid) reaches
// every process it forks without setsid). There is no Pdeathsig here
// (macOS): the Janitor kills the group when hookside dies.
func GroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
