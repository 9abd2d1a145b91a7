//go:build unix

package main

import "golang.org/x/sys/unix"

// ownerOnlyFiles makes the files and directories the process creates from
// now on readable by their owner only (umask 077).
func ownerOnlyFiles() { unix.Umask(0o077) }
