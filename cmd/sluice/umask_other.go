//go:build !unix

package main

// ownerOnlyFiles does nothing where there is no umask: the data
// directory's own mode (0700) keeps others out.
func ownerOnlyFiles() {}
